#!/usr/bin/env python3
"""Set up the project's virtual environment (if needed) and run the game or the tests.

    python3 tools/dev.py play [wif play options…]   # launch the game (a new Barbarossa game by default)
    python3 tools/dev.py test [pytest options…]      # run the test suite
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


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"play", "test", "wif"}:
        print(__doc__)
        return 2
    ensure_env()
    what, rest = argv[0], argv[1:]
    if what == "test":
        return subprocess.call([str(PYTHON), "-m", "pytest", *rest], cwd=ROOT)
    if what == "play":
        # The quick start launches Barbarossa; `play SAVE` or `play --scenario X` override it.
        if not rest:
            rest = ["--scenario", "barbarossa"]
        return subprocess.call([str(PYTHON), "-m", "app.cli", "play", *rest], cwd=ROOT)
    return subprocess.call([str(PYTHON), "-m", "app.cli", *rest], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
