"""Commands: every rejection has a reason a player can read and appends nothing."""

import pytest

from kernel.game import Game


@pytest.fixture
def game(tmp_path):
    g = Game.new("skirmish", tmp_path / "g.wif", seed=1, players={"alice": ["red"], "bob": ["blue", "green"]})
    yield g
    g.close()


def rejected(game, command, player="alice"):
    before = game.store.last()[0], game.state.to_json()
    out = game.submit(command, player=player)
    assert not out.accepted
    assert (game.store.last()[0], game.state.to_json()) == before, "a rejected command changed something"
    return out.reason


def test_unknown_command_type(game):
    assert "unknown command 'Teleport'" in rejected(game, {"type": "Teleport", "actor": "red"})


def test_command_without_a_type(game):
    assert '"type"' in rejected(game, {"actor": "red"})


def test_malformed_command_names_the_field(game):
    reason = rejected(game, {"type": "MoveCounter", "actor": "red", "counter": "r1", "to": "north"})
    assert reason.startswith("MoveCounter is malformed") and "to" in reason


def test_command_for_a_power_the_player_does_not_control(game):
    reason = rejected(game, {"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [2, 3]}, player="bob")
    assert reason == "player 'bob' does not control red (it is played by alice)"


def test_command_for_an_unknown_power(game):
    assert "'japan' is not a power or side" in rejected(game, {"type": "FinishStep", "actor": "japan"})


def test_command_illegal_in_the_current_step(game):
    reason = rejected(game, {"type": "Attack", "actor": "red", "attacker": "r1", "defender": "b1"})
    assert reason == "Attack is not allowed now: the current step is 'Movement' (allowed now: MoveCounter, FinishStep)"


def test_command_by_a_power_not_deciding_now(game):
    reason = rejected(game, {"type": "MoveCounter", "actor": "blue", "counter": "b1", "to": [6, 2]}, player="bob")
    assert "blue has nothing (more) to decide in 'Movement'" in reason


def test_rule_rejection_from_the_handler(game):
    reason = rejected(game, {"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [5, 5]})
    assert reason == "r1 at (1, 3) can only move to an adjacent hex, not (5, 5)"


def test_handler_that_raises_is_reported_with_plugin_and_nothing_is_kept(mini, tmp_path):
    g = Game.new("mini", tmp_path / "m.wif", seed=3, plugin_dirs=mini)
    reason = rejected(g, {"type": "Note", "actor": "n1", "text": "explode"}, player="solo")
    assert "plugin 'mini': handler for Note raised" in reason and "ValueError: the handler broke" in reason
    assert "__init__.py, line" in reason
    g.close()


def test_reducer_that_raises_on_a_new_event_rejects_and_restores_state(mini, tmp_path):
    g = Game.new("mini", tmp_path / "m.wif", seed=3, plugin_dirs=mini)
    reason = rejected(g, {"type": "Note", "actor": "n1", "text": "poison"}, player="solo")
    assert "plugin 'mini': reducer for Noted raised at event seq" in reason and "poisoned note" in reason
    assert g.submit({"type": "Note", "actor": "n1", "text": "fine"}).accepted
    g.close()
