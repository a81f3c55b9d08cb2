"""kernel/position_memo.py: an answer kept for one position (a state object at an event seq),
worked out again once an event moves the state on, for another state object, or on another
thread (a server decides each game on its own thread)."""

import random
import threading

from kernel.game import Game
from kernel.position_memo import per_position
from tools.bench_kernel import _commands


def test_an_answer_is_kept_for_one_position_only(save):
    game = Game.new("skirmish", save, seed=3)
    calls = []

    def compute():
        calls.append(game.state.kernel.seq)
        return len(calls)

    first = per_position(game.state, "k", compute)
    assert per_position(game.state, "k", compute) == first and len(calls) == 1
    assert per_position(game.state, "other key", compute) == 2
    assert game.submit(next(_commands(game, random.Random(5)))).accepted  # an event: a new position
    assert per_position(game.state, "k", compute) == 3
    copy = type(game.state).from_json(game.state.to_snapshot_json(), game.host.state_models)
    assert per_position(copy, "k", compute) == 4  # the same seq in another object
    seen = []
    thread = threading.Thread(target=lambda: seen.append(per_position(copy, "k", compute)))
    thread.start()
    thread.join()
    assert seen == [5]
    game.close()
