"""Hot reload: a changed plugin is re-imported, the game replayed under it, listeners told;
a plugin that fails to import or to replay leaves the previous version active."""

import time

import pytest

from kernel.game import Game
from kernel.hotreload import PluginReloader
from kernel.store import EventStore


@pytest.fixture
def live(mini, save, plugin_dir):
    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    for text in ("alpha", "beta"):
        assert game.submit({"type": "Note", "actor": "n1", "text": text}).accepted
    reloader = PluginReloader(game, debounce=0.05)
    yield game, reloader, plugin_dir.path / "mini" / "__init__.py"
    reloader.stop()
    game.close()


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_rule_change_replays_the_game_under_the_new_rule(live):
    game, reloader, init = live
    heard = []
    reloader.listeners.append(heard.append)
    edit(init, 'state["mini.notes"].lines.append(event.data["text"])',
         'state["mini.notes"].lines.append(event.data["text"].upper())')
    reloader.notice(init)
    time.sleep(0.2)
    results = reloader.process_pending()
    assert [r.ok for r in results] == [True], results
    assert game.state["mini.notes"].lines == ["ALPHA", "BETA"]
    assert heard and heard[0].ok and "events replayed" in heard[0].message
    # the new rule also decides new commands, and the save records the change
    assert game.submit({"type": "Note", "actor": "n1", "text": "gamma"}).accepted
    assert game.state["mini.notes"].lines[-1] == "GAMMA"
    assert game.store.meta("dev_modified") is True
    history = game.store.meta("plugin_history")
    assert history[0]["plugin"] == "mini" and history[0]["from"] != history[0]["to"]
    # reopening with the edited plugin works: the recorded set follows the reload
    game_path = game.path
    game.close()
    with Game.open(game_path, plugin_dirs=[init.parent.parent]) as again:
        assert again.state["mini.notes"].lines == ["ALPHA", "BETA", "GAMMA"]


def test_syntax_error_keeps_the_previous_version_and_names_file_and_line(live):
    game, reloader, init = live
    before = game.state.to_json()
    init.write_text(init.read_text() + "\ndef broken(:\n")
    result = reloader.reload("mini")
    assert not result.ok
    assert "previous version kept" in result.message and "__init__.py, line" in result.message
    assert "SyntaxError" in result.message
    assert game.state.to_json() == before
    assert game.submit({"type": "Note", "actor": "n1", "text": "still works"}).accepted
    assert game.state["mini.notes"].lines[-1] == "still works"


def test_replay_that_raises_keeps_the_previous_version_and_names_the_seq(live):
    game, reloader, init = live
    before = game.state.to_json()
    edit(init, 'if event.data["text"] == "poison"', 'if event.data["text"] == "beta"')
    result = reloader.reload("mini")
    assert not result.ok
    beta_seq = [e.seq for e in game.history() if e.type == "Noted" and e.data["text"] == "beta"][0]
    assert f"reducer for Noted raised at event seq {beta_seq}" in result.message
    assert game.state.to_json() == before
    assert EventStore.open(game.path).meta("dev_modified") is False


def test_watchdog_sees_an_editor_style_save_and_queues_one_reload(live):
    game, reloader, init = live
    reloader.start()
    time.sleep(0.2)
    # editors often write a new file and rename it over the old one
    tmp = init.with_suffix(".py.tmp")
    tmp.write_text(init.read_text().replace('.append(event.data["text"])', '.append(event.data["text"] + "!")'))
    tmp.replace(init)
    deadline = time.time() + 10
    results = []
    while time.time() < deadline and not results:
        time.sleep(0.1)
        results = reloader.process_pending()
    assert [r.ok for r in results] == [True]
    assert game.state["mini.notes"].lines == ["alpha!", "beta!"]


def test_files_outside_the_games_plugins_are_ignored(live, tmp_path):
    game, reloader, init = live
    stray = tmp_path / "elsewhere.py"
    stray.write_text("x = 1")
    reloader.notice(stray)
    reloader.notice(init.parent / "__pycache__" / "x.pyc")
    time.sleep(0.15)
    assert reloader.process_pending() == []


def test_reading_a_plugin_file_does_not_trigger_a_reload(live):
    game, reloader, init = live
    reloader.start()
    time.sleep(0.2)
    init.read_text()  # an editor or a tool merely reads the file
    time.sleep(0.5)
    assert reloader.process_pending() == []


# ---------------------------------------------------------------- issue 13: a reload cannot take the game down
def still_playing(game, before):
    assert game.state.to_json() == before
    assert game.submit({"type": "Note", "actor": "n1", "text": "still here"}).accepted
    assert game.state["mini.notes"].lines[-1] == "still here"


@pytest.mark.parametrize("code, words", [
    ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ("raise KeyboardInterrupt('from the plugin')\n", "KeyboardInterrupt: from the plugin"),
])
def test_plugin_code_raising_systemexit_or_keyboardinterrupt_at_import_is_contained(live, code, words):
    game, reloader, init = live
    before = game.state.to_json()
    init.write_text(code + init.read_text())
    result = reloader.reload("mini")
    assert not result.ok and "previous version kept" in result.message and words in result.message
    assert "__init__.py, line" in result.message
    still_playing(game, before)


def test_a_reducer_raising_systemexit_on_replay_is_contained(live):
    game, reloader, init = live
    before = game.state.to_json()
    edit(init, 'raise RuntimeError("poisoned note")', 'raise SystemExit("bye")')
    edit(init, 'if event.data["text"] == "poison"', 'if event.data["text"] == "beta"')
    result = reloader.reload("mini")
    assert not result.ok and "SystemExit: bye" in result.message
    still_playing(game, before)


def test_a_deleted_manifest_is_refused_with_its_name(live):
    game, reloader, init = live
    before = game.state.to_json()
    manifest = init.parent / "plugin.toml"
    manifest.unlink()
    result = reloader.reload("mini")
    assert not result.ok and f"{manifest}: the plugin manifest is gone" in result.message
    assert "refused, previous version kept" in result.message
    still_playing(game, before)


@pytest.mark.parametrize("text, words", [
    ('id = "mini"\nversion = \n', "bad plugin manifest"),
    ('id = "mini"\nversion = "1.0.0"\nkind = "spaceship"\n', "bad plugin manifest"),
    ('id = "other"\nversion = "1.0.0"\nkind = "scenario"\n', "the manifest's id is now 'other'"),
    ('id = "mini"\nversion = "1.0.0"\nkind = "scenario"\nrequires = ["air"]\n', "requires air, not part of this game"),
])
def test_an_invalid_manifest_is_refused_with_its_name(live, text, words):
    game, reloader, init = live
    before = game.state.to_json()
    manifest = init.parent / "plugin.toml"
    manifest.write_text(text)
    result = reloader.reload("mini")
    assert not result.ok and str(manifest) in result.message and words in result.message
    still_playing(game, before)


def test_the_manifest_is_read_again_on_reload(live):
    game, reloader, init = live
    manifest = init.parent / "plugin.toml"
    manifest.write_text(manifest.read_text().replace('version = "1.0.0"', 'version = "1.1.0"'))
    result = reloader.reload("mini")
    assert result.ok, result.message
    assert game.host.infos["mini"].manifest.version == "1.1.0"
    assert game.store.meta("plugins")["mini"]["version"] == "1.1.0"


def test_a_reducer_writing_the_kernels_section_is_refused_naming_plugin_and_event(live):
    game, reloader, init = live
    before = game.state.to_json()
    edit(init, 'state["mini.notes"].lines.append(event.data["text"])',
         'state["mini.notes"].lines.append(event.data["text"]); state.kernel.turn = 99')
    result = reloader.reload("mini")
    assert not result.ok and "previous version kept" in result.message
    assert ("plugin 'mini': the reducer for Noted wrote section 'kernel' (of 'kernel'); "
            "a reducer writes only its own plugin's sections") in result.message
    still_playing(game, before)


BYSTANDER = """
from pydantic import BaseModel, Field
from kernel.hookspecs import hookimpl

class Log(BaseModel):
    lines: list[str] = Field(default_factory=list)

@hookimpl
def register_state(register):
    register("bystander.log", Log)
"""


def test_a_reducer_writing_another_plugins_section_is_refused(mini, save, plugin_dir):
    plugin_dir.add("bystander", BYSTANDER)
    game = Game.new("mini", save, seed=1, plugin_dirs=mini, extra_plugins=["bystander"])
    assert game.submit({"type": "Note", "actor": "n1", "text": "alpha"}).accepted
    reloader = PluginReloader(game)
    init = plugin_dir.path / "mini" / "__init__.py"
    edit(init, 'state["mini.notes"].lines.append(event.data["text"])',
         'state["mini.notes"].lines.append(event.data["text"]); state["bystander.log"].lines.append("mine")')
    result = reloader.reload("mini")
    assert not result.ok
    assert "plugin 'mini': the reducer for Noted wrote section 'bystander.log' (of 'bystander')" in result.message
    assert game.state["bystander.log"].lines == []
    game.close()


def test_a_reducer_of_another_plugins_event_is_refused_at_registration(mini, save, plugin_dir):
    from kernel.errors import PluginError

    plugin_dir.add("meddler", BYSTANDER + """
def _meddle(state, event):
    state["bystander.log"].lines.append(event.data["text"])

@hookimpl
def register_reducers(register):
    register("Chosen", _meddle)
""")
    with pytest.raises(PluginError, match="plugin 'meddler': reducer for Chosen, an event of plugin 'mini'"):
        Game.new("mini", save, seed=1, plugin_dirs=mini, extra_plugins=["meddler"])
