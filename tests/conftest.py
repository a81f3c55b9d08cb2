"""Test set-up: no installed entry-point plugins leak in, pygame runs headless."""

from __future__ import annotations

import os
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# tests/helpers.py is imported as ``helpers`` whatever pytest's import mode (appended: tests/plugins
# must never shadow the plugins package)
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.append(str(Path(__file__).resolve().parent))

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.pop("WIF_PLUGINS_PATH", None)
os.environ.pop("WIF_LOAD_PLUGINS", None)
# Players' keys and the host's dice secret (kernel/keys.py) go to a folder of this test run,
# never the real home; subprocesses inherit it.
os.environ["WIF_CONFIG_DIR"] = tempfile.mkdtemp(prefix="wif-config-")


# Hypothesis: a property holds or not whatever the machine's load; its timing checks (an input's
# deadline, "input generation is slow") failed the suite on a loaded 2-core machine once
settings.register_profile("wif", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("wif")


def pytest_configure(config):
    sys._called_from_test = True
    # about a minute each, part of the default suite; `-m "not whole_game"` leaves them out
    config.addinivalue_line("markers", "whole_game: a whole game played through the window")
    # more than two minutes: pyproject's addopts leave them out of the default run; tools/dev.py
    # test (the README's test command, .ci/run) runs them after it with `-m long_game`
    config.addinivalue_line("markers", "long_game: a whole game of more than two minutes, run after the default suite")


# The default suite's longest tests (30 s to 90 s each on a quiet machine, `--durations`): started
# first, so that one process per core (pytest-xdist hands out tests in this order, one at a time
# round the processes at first) does not begin one of them when the other has nothing left.
STARTED_FIRST = (
    "tests/app/test_whole_game_window.py",
    "tests/plugins/scenarios/test_barbarossa_cli.py",
    "tests/plugins/optional/test_barbarossa_optional_decisions.py",
    "tests/net/test_server_whole_game.py",
    "tests/plugins/scenarios/test_guadalcanal_bots.py",
    "tests/plugins/scenarios/test_barbarossa_decisions.py",
    "tests/net/test_window_client.py",
)


def pytest_collection_modifyitems(session, config, items):
    def rank(item) -> int:
        path = item.nodeid.split("::")[0]
        return STARTED_FIRST.index(path) if path in STARTED_FIRST else len(STARTED_FIRST)
    items.sort(key=rank)  # stable: every other test keeps its order


def pytest_unconfigure(config):
    if hasattr(sys, "_called_from_test"):
        del sys._called_from_test


@pytest.fixture
def save(tmp_path) -> Path:
    return tmp_path / "game.wif"


@pytest.fixture
def plugin_dir(tmp_path):
    """A folder of extra plugins; ``plugin_dir.add(id, code, **manifest)`` writes one."""

    class PluginDir:
        path = tmp_path / "extra-plugins"

        def add(self, plugin_id: str, code: str, kind: str = "rules", version: str = "1.0.0",
                requires=(), conflicts=(), affects_state: bool = True) -> Path:
            folder = self.path / plugin_id
            folder.mkdir(parents=True, exist_ok=True)
            req = ", ".join(f'"{r}"' for r in requires)
            con = ", ".join(f'"{c}"' for c in conflicts)
            (folder / "plugin.toml").write_text(
                f'id = "{plugin_id}"\nversion = "{version}"\nkind = "{kind}"\n'
                f"requires = [{req}]\nconflicts = [{con}]\naffects_state = {str(affects_state).lower()}\n"
            )
            (folder / "__init__.py").write_text(textwrap.dedent(code))
            return folder

    d = PluginDir()
    d.path.mkdir()
    yield d
    for name in [n for n in sys.modules if n.startswith("wif_plugin_")]:
        del sys.modules[name]


# A small scenario written for the engine tests: a turn loop of two impulses, a step
# each power must finish, a step for one side, an automatic step with a rule, one with
# none, and two digressions that nest.
MINI_SCENARIO = '''
from pydantic import BaseModel, Field
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec

TREE = StepSpec.model_validate({
    "id": "mini", "title": "Mini", "level": "root", "children": [
        {"id": "setup", "title": "Setup", "level": "phase", "decides": "each-power", "commands": ["Note"]},
        {"id": "turn", "title": "Turn", "level": "stage", "repeat": True, "counter": "turn", "snapshot": True,
         "children": [
            {"id": "choose", "title": "Choose", "level": "phase"},
            {"id": "act", "title": "Act", "level": "phase", "decides": "active-side", "commands": ["Note", "Interrupt"]},
            {"id": "unwritten", "title": "Unwritten rule", "level": "phase"},
            {"id": "undecided", "title": "Undecided", "level": "phase", "decides": "each-power", "commands": ["Nothing"]},
            {"id": "optional", "title": "Optional phase", "level": "phase", "decides": "each-power", "commands": ["Note"]},
        ]},
        {"id": "digressions", "title": "Digressions", "level": "stage", "called": True, "children": [
            {"id": "outer", "title": "Outer", "level": "phase", "children": [
                {"id": "first", "title": "Outer first", "decides": "rule:victim", "commands": ["Note", "Interrupt"]},
                {"id": "second", "title": "Outer second", "decides": "inactive-side", "commands": ["Note"]},
            ]},
            {"id": "inner", "title": "Inner", "level": "phase", "decides": "each-inactive-power", "commands": ["Note"]},
        ]},
    ]})


class Notes(BaseModel):
    lines: list[str] = Field(default_factory=list)
    secret: dict[str, str] = Field(default_factory=dict)


class Noted(EventData):
    text: str


class Chosen(EventData):
    side: str


class Note(Command):
    text: str
    secret: bool = False


class Interrupt(Command):
    which: str


def note(ctx, cmd):
    if not cmd.text:
        raise Rejected("a note needs some text")
    if cmd.text == "explode":
        raise ValueError("the handler broke")
    ctx.emit(Noted(text=cmd.text))


def interrupt(ctx, cmd):
    ctx.push("digressions." + cmd.which)


def choose(ctx, step):
    (roll,) = ctx.roll("who acts first", faces=6)
    side = "north" if roll <= 3 else "south"
    ctx.emit(Chosen(side=side))
    ctx.set_active_side(side)


def _noted(state, event):
    if event.data["text"] == "poison":
        raise RuntimeError("poisoned note")
    state["mini.notes"].lines.append(event.data["text"])


@hookimpl
def register_state(register):
    register("mini.notes", Notes)

@hookimpl
def register_events(register):
    register(Noted)
    register(Chosen)

@hookimpl
def register_reducers(register):
    register("Noted", _noted)

@hookimpl
def register_commands(register):
    register(Note, note)
    register(Interrupt, interrupt)

@hookimpl
def register_sequences(register):
    register("mini", TREE)

@hookimpl
def register_step_rules(register):
    register("mini.turn.choose", choose)

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="mini", name="Mini", sides={"north": ["n1", "n2"], "south": ["s1"]}, sequence="mini"))

@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == "mini.turn":
        return ctx.state.kernel.turn < ctx.state.kernel.options.get("turns", 2)

@hookimpl
def skip_step(state, step_id, spec):
    if step_id == "mini.turn.optional" and not state.kernel.options.get("optional"):
        return "optional rule not in play"

@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind == "rule:victim":
        return ["s1"]
'''


@pytest.fixture
def mini(plugin_dir):
    """Write the mini scenario plugin; returns the folder list to pass as plugin_dirs."""
    plugin_dir.add("mini", MINI_SCENARIO, kind="scenario")
    return [plugin_dir.path]
