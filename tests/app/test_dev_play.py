"""tools/dev.py play: the quick start opens a new Barbarossa game whatever other options it is
given (issue 11, item 10); a save or --scenario given still wins."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dev_play(tmp_path, *options) -> str:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", WIF_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "dev.py"), "play", *options, "--frames", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def started_scenario(stdout: str) -> str:
    found = re.search(r"new game of (\S+): (\S+\.wif)", stdout)
    assert found, f"no new game was started: {stdout!r}"
    Path(found.group(2)).unlink()  # the quick start writes to saves/; leave nothing behind
    return found.group(1)


def test_dev_option_keeps_barbarossa_as_the_default(tmp_path):
    assert started_scenario(dev_play(tmp_path, "--dev")) == "barbarossa"


def test_a_scenario_given_still_wins(tmp_path):
    assert started_scenario(dev_play(tmp_path, "--scenario", "lab", "--dev")) == "lab"
