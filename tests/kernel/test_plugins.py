"""Plugin discovery, manifests, the recorded plugin set, and the house-style hooks."""

import pytest

from kernel.errors import PluginError, PluginSetMismatch
from kernel.game import Game
from kernel.plugins import PluginHost, discover, resolve

NOTE_RULE = """
from kernel.events import EventData
from kernel.hookspecs import hookimpl

class Tallied(EventData):
    n: int

@hookimpl
def register_events(register):
    register(Tallied)
"""


def test_builtin_plugins_are_found_with_their_manifests():
    found = discover()
    assert {"skirmish", "barbarossa", "sequence"} <= set(found.plugins)
    seq = found.plugins["sequence"]
    assert seq.manifest.kind == "rules" and seq.module_name == "plugins.rules.sequence"
    assert "sequence" in found.plugins["barbarossa"].manifest.requires


def test_extra_folder_plugins_are_found(plugin_dir):
    plugin_dir.add("tally", NOTE_RULE)
    assert "tally" in discover([plugin_dir.path]).plugins


def test_folder_from_environment_variable(plugin_dir, monkeypatch):
    plugin_dir.add("tally", NOTE_RULE)
    monkeypatch.setenv("WIF_PLUGINS_PATH", str(plugin_dir.path))
    assert "tally" in discover().plugins


def test_wif_load_plugins_restricts_the_set(monkeypatch):
    monkeypatch.setenv("WIF_LOAD_PLUGINS", "skirmish")
    assert set(discover().plugins) == {"skirmish"}


def test_bad_manifest_is_reported_not_fatal(plugin_dir):
    folder = plugin_dir.add("broken", NOTE_RULE)
    (folder / "plugin.toml").write_text('id = "broken"\nkind = "spaceship"\n')
    found = discover([plugin_dir.path])
    assert "broken" not in found.plugins
    assert any("broken" in e and "bad plugin manifest" in e for e in found.errors)


def test_requires_and_conflicts_are_checked_before_registration(plugin_dir):
    plugin_dir.add("a", NOTE_RULE, requires=["missing-thing"])
    plugin_dir.add("b", "", conflicts=["skirmish"])
    available = discover([plugin_dir.path]).plugins
    with pytest.raises(PluginError, match="'missing-thing' is not installed \\(required by 'a'\\)"):
        resolve(["a"], available)
    with pytest.raises(PluginError, match="'b' conflicts with skirmish"):
        resolve(["skirmish", "b"], available)


def test_hookimpl_that_matches_no_spec_fails_fast(plugin_dir):
    plugin_dir.add("typo", """
from kernel.hookspecs import hookimpl

@hookimpl
def register_event(register):  # a typo: the hook is register_events
    pass
""")
    info = discover([plugin_dir.path]).plugins["typo"]
    with pytest.raises(PluginError, match="typo"):
        PluginHost([info])


def test_plugin_that_raises_while_registering_is_named(plugin_dir):
    plugin_dir.add("raiser", """
from kernel.hookspecs import hookimpl

@hookimpl
def register_events(register):
    raise KeyError("oops")
""")
    info = discover([plugin_dir.path]).plugins["raiser"]
    with pytest.raises(PluginError, match="plugin 'raiser' raised in register_events: .*__init__.py, line 6: KeyError"):
        PluginHost([info])


def test_plugin_that_fails_to_import_is_named_with_file_and_line(plugin_dir):
    plugin_dir.add("syntax", "def broken(:\n    pass\n")
    info = discover([plugin_dir.path]).plugins["syntax"]
    with pytest.raises(PluginError, match="plugin 'syntax' failed to import: .*__init__.py, line 1: SyntaxError"):
        PluginHost([info])


def test_two_plugins_registering_the_same_event_type(plugin_dir):
    plugin_dir.add("one", NOTE_RULE)
    plugin_dir.add("two", NOTE_RULE)
    found = discover([plugin_dir.path]).plugins
    with pytest.raises(PluginError, match="Tallied is registered by"):
        PluginHost([found["one"], found["two"]])


def test_opening_a_game_whose_plugin_is_missing_says_which(mini, save, plugin_dir):
    Game.new("mini", save, seed=1, plugin_dirs=mini).close()
    with pytest.raises(PluginSetMismatch, match="plugin 'mini' \\(version 1.0.0\\) is missing"):
        Game.open(save)


def test_opening_a_game_whose_plugin_changed_refuses_or_opens_read_only(mini, save, plugin_dir):
    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    game.submit({"type": "Note", "actor": "n1", "text": "hello"})
    before = game.state.to_json()
    game.close()
    init = plugin_dir.path / "mini" / "__init__.py"
    init.write_text(init.read_text() + "\n# a change\n")
    with pytest.raises(PluginSetMismatch, match="plugin 'mini' 1.0.0 has changed"):
        Game.open(save, plugin_dirs=mini)
    with Game.open(save, read_only=True, plugin_dirs=mini) as game:
        assert game.read_only and "has changed" in game.problems[0]
        assert game.state.to_json() == before
        out = game.submit({"type": "Note", "actor": "n1", "text": "more"})
        assert not out.accepted and "read-only" in out.reason


def test_plugin_set_records_only_state_affecting_plugins(mini, plugin_dir, save):
    plugin_dir.add("look", "", kind="map-view", affects_state=False)
    plugin_dir.add("tally", NOTE_RULE, requires=["look"])
    game = Game.new("mini", save, seed=1, plugin_dirs=mini, extra_plugins=["tally"])
    recorded = game.store.meta("plugins")
    assert set(recorded) == {"kernel", "mini", "tally"}
    assert "look" in game.host.infos  # loaded, but not part of what the save depends on
    game.close()


def test_trace_plugins_logs_hook_calls(monkeypatch, capsys, save):
    monkeypatch.setenv("WIF_TRACE_PLUGINS", "1")
    Game.new("skirmish", save, seed=1).close()
    assert "wif hook: skip_step" in capsys.readouterr().err


def test_entry_point_plugins_are_found_outside_tests(tmp_path, monkeypatch):
    """A mod installed with pip registers a package under the wif.plugins group."""
    from importlib import metadata

    import kernel.plugin_discovery as plugins_module

    package = tmp_path / "wifmod_demo"
    package.mkdir()
    (package / "plugin.toml").write_text('id = "demo-mod"\nversion = "0.3.0"\nkind = "optional-rule"\n')
    (package / "__init__.py").write_text(NOTE_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    point = metadata.EntryPoint(name="demo", value="wifmod_demo", group="wif.plugins")
    monkeypatch.setattr(plugins_module.metadata, "entry_points", lambda group: [point] if group == "wif.plugins" else [])
    assert "demo-mod" not in discover().plugins  # skipped under test, as in datasette and llm
    monkeypatch.setenv("WIF_ENTRY_POINTS", "1")
    info = discover().plugins["demo-mod"]
    assert info.origin == "entry-point" and info.module_name == "wifmod_demo"
    assert "Tallied" in PluginHost([info]).events


def test_read_only_open_leaves_out_a_plugin_that_fails_to_load(mini, save, plugin_dir):
    import sys

    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    game.submit({"type": "Note", "actor": "n1", "text": "kept"})
    game.close()
    (plugin_dir.path / "mini" / "__init__.py").write_text("raise ImportError('half-installed mod')\n")
    sys.modules.pop("wif_plugin_mini", None)
    with pytest.raises(PluginSetMismatch):
        Game.open(save, plugin_dirs=mini)
    with Game.open(save, read_only=True, plugin_dirs=mini) as game:
        assert any("failed to import" in p and "left out" in p for p in game.problems)
        assert game.read_only


PUBLISHER = """
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl, hookspec
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def dice_faces(state):
        '''How many faces the Roll command's die has (plugins may change it).'''


class Roll(Command):
    pass


def roll(ctx, cmd):
    faces = ctx.host.pm.hook.dice_faces(state=ctx.state) or 6
    ctx.roll("published hook", faces=faces)


@hookimpl
def register_commands(register):
    register(Roll, roll)


@hookimpl
def register_sequences(register):
    register("pub", StepSpec(id="pub", title="Pub", level="root", children=(
        StepSpec(id="go", title="Go", decides="each-power", commands=("Roll",)),)))


@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="pub", name="Pub", sides={"s": ["p"]}, sequence="pub"))
"""

IMPLEMENTER = """
from kernel.hookspecs import hookimpl

@hookimpl
def dice_faces(state):
    return 20
"""


def test_a_plugin_can_publish_hooks_that_other_plugins_implement(plugin_dir, save):
    plugin_dir.add("pub", PUBLISHER, kind="scenario")
    plugin_dir.add("d20", IMPLEMENTER, kind="optional-rule", requires=["pub"])
    plugin_dir.add("typo20", IMPLEMENTER.replace("def dice_faces", "def dice_face"), requires=["pub"])
    plain = Game.new("pub", save, seed=1, plugin_dirs=[plugin_dir.path])
    assert plain.submit({"type": "Roll", "actor": "p"}).events[0].data["faces"] == 6
    plain.close()
    save.unlink()
    game = Game.new("pub", save, seed=1, plugin_dirs=[plugin_dir.path], extra_plugins=["d20"])
    assert game.submit({"type": "Roll", "actor": "p"}).events[0].data["faces"] == 20
    game.close()
    found = discover([plugin_dir.path]).plugins
    with pytest.raises(PluginError, match="typo20"):
        PluginHost([found["pub"], found["typo20"]])


def test_registry_exports_the_hookimpls_of_what_was_declared_and_refuses_a_hand_written_twin():
    from kernel.events import EventData
    from kernel.registry import Registry

    rules = Registry()

    @rules.event
    class Rang(EventData):
        bell: str

    @rules.describe("Rang")
    def _say(event, state):
        return f"the {event.data['bell']} bell rang"

    namespace = {"__name__": "bells"}
    rules.export(namespace)
    assert {"register_events", "describe_event"} == {k for k in namespace if k != "__name__"}
    seen = []
    namespace["register_events"](register=lambda model, version=1: seen.append((model, version)))
    assert seen == [(Rang, 1)]

    class Event:
        type, data = "Rang", {"bell": "big"}
    assert namespace["describe_event"](Event, None) == "the big bell rang"
    with pytest.raises(ValueError, match="describe_event is written by hand and exported"):
        rules.export({"__name__": "bells", "describe_event": lambda e, s: None})
