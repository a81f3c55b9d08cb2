#!/usr/bin/env python3
"""Set up the project's virtual environment (if needed) and run the game or the tests.

    python3 tools/dev.py play [wif play options…]   # launch the game (a new Barbarossa game unless
                                                     # a save or --scenario is given, whatever else is)
    python3 tools/dev.py test [pytest options…]      # run the test suite, one process per core,
                                                     # then the games of more than two minutes
    python3 tools/dev.py wif ARGS…                   # any other wif command

Only the standard library is used here: this runs on a machine with nothing but python3.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".wif-installed"


# `play` runs this in the environment: the quick start launches Barbarossa unless the options
# name a save or a scenario.  `wif play`'s own parser decides what the options name, so an
# option added later (`--dev`, `--frames N`, ...) never turns the quick start into the Start
# New Game form.
DEFAULT_SCENARIO = "barbarossa"
PLAY_LAUNCHER = f"""
import sys
from app.cli import build_parser, main
rest = sys.argv[1:]
args, _ = build_parser().parse_known_args(["play", *rest])
default = [] if args.save or args.scenario else ["--scenario", "{DEFAULT_SCENARIO}"]
sys.exit(main(["play", *default, *rest]))
"""


def ensure_env() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print(f"creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing the game and its test tools into it", flush=True)
    subprocess.check_call([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "-e", f"{ROOT}[dev]"], cwd=ROOT)
    STAMP.write_text(wanted)


def run_tests(rest: list[str]) -> int:
    """The default suite, one test process per core (pytest-xdist): it stays within minutes
    (pyproject's addopts leave out the marker long_game); then the whole games of more than two
    minutes (issue 11: "behind a marker that .ci/run still runs").  Options given choose the
    tests of both runs; a -m of one's own chooses them once."""
    pytest = [str(PYTHON), "-m", "pytest"]
    # Python's bytecode caches (__pycache__, ignored by git) are written even where the shell
    # says not to: every test process, and every server or command line a test starts, would
    # otherwise compile the whole program (and pytest rewrite every test file's asserts) again
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = subprocess.call([*pytest, "-n", "auto", *rest], cwd=ROOT, env=env)
    if "-m" in rest:
        return code
    print("the whole games of more than two minutes (-m long_game):", flush=True)
    long_code = subprocess.call([*pytest, "-m", "long_game", *rest], cwd=ROOT, env=env)
    no_tests_chosen = 5  # pytest's exit code when the options chose none of them
    return code or (0 if long_code == no_tests_chosen else long_code)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"play", "test", "wif"}:
        print(__doc__)
        return 2
    ensure_env()
    what, rest = argv[0], argv[1:]
    if what == "test":
        return run_tests(rest)
    if what == "play":
        return subprocess.call([str(PYTHON), "-c", PLAY_LAUNCHER, *rest], cwd=ROOT)
    return subprocess.call([str(PYTHON), "-m", "app.cli", *rest], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
