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
