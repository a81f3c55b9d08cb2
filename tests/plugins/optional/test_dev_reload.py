"""`wif play --dev`: editing an optional rule's file while the game window runs reloads it and
replays the game under the new rule; a broken version is reported and the game survives."""

from __future__ import annotations

import time

import pygame
import pytest

from app import play
from kernel.hotreload import PluginReloader
from plugins.optional.framework import new_game


@pytest.fixture
def dev_window(field_repairs, tmp_path):
    """The window as `wif play --dev` builds it: a watchdog reloader whose queue each frame drains."""
    game = new_game("skirmish", tmp_path / "dev.wif", seed=5, on=["field-repairs"], plugin_dirs=[field_repairs])
    reloader = PluginReloader(game, debounce=0.05)
    reloader.start()
    pygame.display.init()
    pygame.font.init()
    window = play.GameWindow(game, screen=pygame.Surface((1024, 768)), reloader=reloader)
    yield window, game, field_repairs / "field_repairs" / "__init__.py"
    reloader.stop()
    pygame.quit()
    game.close()


def _frames_until_reload(window, reloader, plugin: str, seconds: float = 10.0):
    """Run frames until ``plugin`` has been reloaded (watchdog also reports files that are
    only read, e.g. another plugin's manifest, so other plugins may reload on the way)."""
    seen = len(reloader.results)
    deadline = time.time() + seconds
    while time.time() < deadline:
        window.tick()
        mine = [r for r in reloader.results[seen:] if r.plugin == plugin]
        if mine:
            window.draw()
            return mine[-1]
        time.sleep(0.05)
    raise AssertionError(f"no reload of {plugin} happened: {[r.message for r in reloader.results]}")


def _repair(game):
    actor = game.state.kernel.sequence.pending[0]
    board = game.state["skirmish.board"].counters
    counter = min((c for c, v in board.items() if v.power == actor), key=lambda c: board[c].strength)
    before = board[counter].strength
    outcome = game.submit({"type": "RepairCounter", "actor": actor, "counter": counter})
    return outcome, before, game.state["skirmish.board"].counters[counter].strength


def test_editing_a_rule_file_during_play_changes_behaviour_then_a_broken_edit_is_survived(dev_window):
    window, game, init = dev_window
    reloader = window.reloader
    time.sleep(0.2)  # let the observer start watching
    # the rule's own message and effect after an edit: repairs give 2 points instead of 1
    init.write_text(init.read_text().replace("REPAIR_POINTS = 1", "REPAIR_POINTS = 2"))
    result = _frames_until_reload(window, reloader, "field-repairs")
    assert result.ok, result.message
    assert result.plugin == "field-repairs" and "events replayed" in result.message
    assert any("field-repairs reloaded" in text for text, _ in window.messages)
    outcome, before, after = _repair(game)
    assert outcome.accepted, outcome.reason
    assert after == min(4, before + 2)
    assert result.seconds < 1.0  # the kernel's budget (a 50k-event figure: tools/bench_hotreload.py)

    # a broken version: reported with file and line, the previous version stays, the game goes on
    events_before = game.store.last()[0]
    state_before = game.state.to_json()
    init.write_text(init.read_text() + "\ndef broken(:\n")
    result = _frames_until_reload(window, reloader, "field-repairs")
    assert not result.ok
    assert "previous version kept" in result.message and "__init__.py, line" in result.message
    assert any("previous version kept" in text for text, _ in window.messages)
    assert game.state.to_json() == state_before and game.store.last()[0] == events_before
    actor = game.state.kernel.sequence.pending[0]
    assert game.submit({"type": "FinishStep", "actor": actor}).accepted
    # the save still opens with the last good version of the rule recorded
    assert game.store.meta("plugins")["field-repairs"]["hash"] != "broken"
