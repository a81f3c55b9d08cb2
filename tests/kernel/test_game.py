"""Game engine contracts: new/open/submit, state_at, history, fork, dice, views."""

import random

import pytest

from helpers import finish
from kernel.errors import SaveFileError, WifError
from kernel.game import Game
from kernel.verify import verify


def play_some(game, moves=6):
    """Shuffle red's r1 back and forth when red moves; everyone else just finishes."""
    while not (game.state.kernel.sequence.current.endswith("movement")
               and "red" in game.state.kernel.sequence.pending):
        finish(game)
    at = game.state["skirmish.board"].counters["r1"].hex
    for i in range(moves):
        to = [2, 3] if game.state["skirmish.board"].counters["r1"].hex == at else list(at)
        assert game.submit({"type": "MoveCounter", "actor": "red", "counter": "r1", "to": to}).accepted
    finish(game)


def test_new_game_runs_setup_and_stops_at_the_first_decision(save):
    game = Game.new("skirmish", save, seed=1)
    k = game.state.kernel
    assert k.scenario == "skirmish" and k.seed == 1
    assert len(game.state["skirmish.board"].counters) == 7
    assert k.sequence.current == "skirmish.turn.impulse.movement"
    assert k.sequence.waiting and k.sequence.pending == [k.sides[k.active_side][0]]
    assert game.legal_commands() == ["MoveCounter", "FinishStep"]
    game.close()


def test_accepted_command_returns_its_events_and_changes_state(save):
    game = Game.new("skirmish", save, seed=1)
    out = game.submit({"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [2, 3]})
    assert out.accepted
    assert [e.type for e in out.events] == ["CounterMoved"]
    assert game.state["skirmish.board"].counters["r1"].hex == (2, 3)
    game.close()


def test_reopening_rebuilds_the_same_state(save):
    game = Game.new("skirmish", save, seed=1)
    play_some(game)
    before = game.state.to_json()
    game.close()
    with Game.open(save) as again:
        assert again.state.to_json() == before


def test_state_at_any_seq_equals_a_fold_from_the_start(save):
    game = Game.new("skirmish", save, seed=1, snapshot_every=7)
    for _ in range(3):
        play_some(game)
    last = game.state.kernel.seq
    for seq in (1, 5, 17, last // 2, last):
        from kernel.engine import fold_rows
        from kernel.state import GameState

        fresh = GameState.empty(game.host.state_models)
        fold_rows(game.host, fresh, game.store.rows(1, seq))
        assert game.state_at(seq).to_json() == fresh.to_json()
        assert game.state_at(seq).kernel.seq == seq
    game.close()


def test_dice_are_recorded_and_replay_never_rolls(save, monkeypatch):
    game = Game.new("skirmish", save, seed=1)
    rolls = [e for e in game.history() if e.type == "DiceRolled"]
    assert rolls and all(e.data["faces"] == 10 and 1 <= e.data["results"][0] <= 10 for e in rolls)
    assert rolls[0].data["purpose"] == "initiative west"
    expected = game.state.to_json()
    game.close()

    def no_dice(*a, **k):
        raise AssertionError("replay rolled a die")

    monkeypatch.setattr(random.Random, "randint", no_dice)
    monkeypatch.setattr(random.Random, "random", no_dice)
    with Game.open(save) as again:
        assert again.state.to_json() == expected


def test_same_seed_same_game(tmp_path):
    a = Game.new("skirmish", tmp_path / "a.wif", seed=42)
    b = Game.new("skirmish", tmp_path / "b.wif", seed=42)
    def played(game):  # each game has its own id and salt (kernel/fairplay.py); everything else is the same
        return [{k: v for k, v in e.data.items() if k not in ("game_id", "head_salt")} for e in game.history()]

    assert played(a) == played(b)
    a.close(); b.close()


def test_history_in_range_and_describe(save):
    game = Game.new("skirmish", save, seed=1)
    play_some(game)
    events = game.history(3, 6)
    assert [e.seq for e in events] == [3, 4, 5, 6]
    moved = [e for e in game.history() if e.type == "CounterMoved"][0]
    assert game.describe(moved) == "red: r1 moves (1, 3) → (2, 3)"
    game.close()


def test_fork_copies_the_first_k_events_and_leaves_the_original(tmp_path):
    game = Game.new("skirmish", tmp_path / "a.wif", seed=1, snapshot_every=5)
    for _ in range(2):
        play_some(game)
    k = game.state.kernel.seq - 4
    original_last = game.state.kernel.seq
    forked = game.fork(k, tmp_path / "b.wif")
    assert forked.state.to_json() == game.state_at(k).to_json()
    assert forked.store.meta("forked_from") == {"path": str(tmp_path / "a.wif"), "seq": k}
    assert game.store.last()[0] == original_last
    forked.close(); game.close()
    assert verify(tmp_path / "b.wif").ok
    assert verify(tmp_path / "a.wif").ok


def test_fork_refuses_a_seq_out_of_range_or_an_existing_file(tmp_path):
    game = Game.new("skirmish", tmp_path / "a.wif", seed=1)
    with pytest.raises(WifError, match="cannot fork at seq 0"):
        game.fork(0, tmp_path / "b.wif")
    with pytest.raises(SaveFileError, match="exists already"):
        game.fork(2, tmp_path / "a.wif")
    game.close()


def test_player_view_hides_enemy_strength_far_away(tmp_path):
    game = Game.new("skirmish", tmp_path / "a.wif", seed=1,
                    players={"alice": ["red"], "bob": ["blue", "green"]})
    alice = game.view("alice")["sections"]["skirmish.board"]["counters"]
    assert alice["r1"]["strength"] == 4 and alice["b1"]["strength"] is None
    bob = game.view("bob")["sections"]["skirmish.board"]["counters"]
    assert bob["b1"]["strength"] == 3 and bob["r1"]["strength"] is None
    assert game.view(None)["sections"]["skirmish.board"]["counters"]["b1"]["strength"] == 3
    game.close()


def test_a_new_game_refuses_to_overwrite_a_save(save):
    Game.new("skirmish", save, seed=1).close()
    with pytest.raises(SaveFileError, match="exists already"):
        Game.new("skirmish", save, seed=1)


def test_unknown_scenario_names_the_installed_ones(save):
    with pytest.raises(WifError, match="no scenario 'nowhere'.*skirmish"):
        Game.new("nowhere", save)
    assert not save.exists()


def test_listeners_hear_each_accepted_command(save):
    game = Game.new("skirmish", save, seed=1)
    heard = []
    game.listeners.append(lambda g, events: heard.append([e.type for e in events]))
    game.submit({"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [2, 3]})
    game.submit({"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [9, 9]})
    assert heard == [["CounterMoved"]]
    game.close()


def test_refresh_folds_what_another_writer_appended(save):
    writer = Game.new("skirmish", save, seed=1)
    reader = Game.open(save, read_only=True)
    assert reader.refresh() == 0
    writer.submit({"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [2, 3]})
    assert reader.refresh() == 1
    assert reader.state.to_json() == writer.state.to_json()
    writer.close(); reader.close()
