"""tools/dev.py test, the README's test command that .ci/run calls: the default suite in one
process per core, then the whole games of more than two minutes (issue 11: "Keep it in the
default suite if it runs under two minutes, else behind a marker that .ci/run still runs")."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(monkeypatch):
    spec = importlib.util.spec_from_file_location("wif_dev", ROOT / "tools" / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    calls = []
    answers = {}

    def call(argv, cwd=None, env=None):
        calls.append((argv[3:], env))
        return answers.get("long" if "long_game" in argv else "default", 0)
    monkeypatch.setattr(module.subprocess, "call", call)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    return module, calls, answers


def test_the_default_suite_then_the_long_games(dev):
    module, calls, _ = dev
    assert module.run_tests(["--durations=5"]) == 0
    assert [argv for argv, _ in calls] == [["-n", "auto", "--durations=5"], ["-m", "long_game", "--durations=5"]]
    assert all("PYTHONDONTWRITEBYTECODE" not in env for _, env in calls)  # bytecode caches written


def test_a_failure_in_either_run_fails_the_command(dev):
    module, calls, answers = dev
    answers["default"] = 1
    assert module.run_tests([]) == 1
    assert len(calls) == 2  # the long games still run, and say what they say
    answers.update(default=0, long=1)
    assert module.run_tests([]) == 1


def test_options_that_choose_no_long_game_are_not_a_failure(dev):
    module, calls, answers = dev
    answers["long"] = 5  # pytest: no tests were chosen
    assert module.run_tests(["tests/kernel"]) == 0


def test_a_marker_of_ones_own_chooses_the_tests_once(dev):
    module, calls, _ = dev
    assert module.run_tests(["-m", "whole_game"]) == 0
    assert [argv for argv, _ in calls] == [["-n", "auto", "-m", "whole_game"]]


def test_the_default_run_leaves_the_long_games_out():
    """pyproject's addopts: a plain `pytest` (or `pytest -n auto`) deselects marker long_game."""
    import tomllib
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["addopts"]
    assert "-m 'not long_game'" in addopts
    source = (ROOT / "tests" / "app" / "test_whole_game_window_guadalcanal.py").read_text()
    assert "pytest.mark.long_game" in source
