"""A game's state holds its dicts in the same order however it was built: played live,
reopened from a snapshot, replayed from the first event, copied for a dry run
(kernel/state.py to_snapshot_json; event data reduced in its stored order, engine.emit).
A rule that walks a dict then decides the same in each, and ``wif verify`` needs no second
try on a reopened game's state (kernel/redecide.py)."""

import random

from kernel.engine import fold_rows
from kernel.game import Game
from kernel.state import GameState
from kernel.verify import verify
from tools.bench_kernel import _commands


def key_orders(value, path="") -> list[tuple[str, tuple]]:
    """Every dict's keys in order, with where the dict is."""
    found = []
    if isinstance(value, dict):
        found.append((path, tuple(value)))
        for key, item in value.items():
            found += key_orders(item, f"{path}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += key_orders(item, f"{path}[{i}]")
    return found


def play(game, commands, rng):
    source = _commands(game, rng)
    for _ in range(commands):
        assert game.submit(next(source)).accepted


def test_live_reopened_replayed_and_dry_run_states_hold_their_dicts_in_one_order(save):
    game = Game.new("skirmish", save, seed=3, snapshot_every=10)
    play(game, 45, random.Random(5))
    live = key_orders(game.state.to_dict())
    counters = dict(live)["/sections/skirmish.board/counters"]
    assert list(counters) != sorted(counters)  # the setup's order, which sorted keys would lose
    copy = GameState.from_json(game.state.to_snapshot_json(), game.host.state_models)
    assert key_orders(copy.to_dict()) == live  # what a dry run decides on
    seq = game.state.kernel.seq
    game.close()
    with Game.open(save) as reopened:
        assert reopened.store.snapshot_seqs(reopened.plugins_hash)[-1] > seq - 10  # rebuilt from a snapshot
        assert key_orders(reopened.state.to_dict()) == live
        replayed = GameState.empty(reopened.host.state_models)
        fold_rows(reopened.host, replayed, reopened.store.rows())
        assert key_orders(replayed.to_dict()) == live


def test_a_game_reopened_midway_verifies_with_no_second_try(save):
    game = Game.new("skirmish", save, seed=4, snapshot_every=7)
    rng = random.Random(8)
    play(game, 25, rng)
    game.close()
    for _ in range(3):  # each reopening restores the state from its newest snapshot
        with Game.open(save) as game:
            play(game, 20, rng)
    report = verify(save)
    assert report.ok, report.problems
    assert report.snapshots_checked > 3
    assert not [w for w in report.warnings if "order of a dict" in w]
