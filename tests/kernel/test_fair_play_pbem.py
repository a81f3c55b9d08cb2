"""PBEM dice, the kernel part (docs/FAIRPLAY.md "PBEM"): a roll's key needs both players'
contributions; the roller's is committed before the other's nonce exists."""

from __future__ import annotations

import secrets

from kernel.dice import JointDice, check_reveal, commit
from kernel.game import Game


def test_neither_contribution_alone_fixes_the_roll_and_a_false_reveal_is_named(save):
    game = Game.new("skirmish", save, seed=1)
    roller, nonce = secrets.token_bytes(32), secrets.token_bytes(32)
    sealed = commit(roller, "g1", 40)
    assert check_reveal(sealed, roller, "g1", 40) is None
    assert check_reveal(sealed, secrets.token_bytes(32), "g1", 40) == \
        "seq 40: the revealed roll secret does not match the roller's commitment"
    roll = JointDice(roller, nonce, "g1", 40, game.state).draw("attack", 10, 20)
    assert roll == JointDice(roller, nonce, "g1", 40, game.state).draw("attack", 10, 20)  # re-derivable
    assert roll != JointDice(roller, secrets.token_bytes(32), "g1", 40, game.state).draw("attack", 10, 20)
    assert roll != JointDice(secrets.token_bytes(32), nonce, "g1", 40, game.state).draw("attack", 10, 20)
    assert all(1 <= r <= 10 for r in roll)
    game.close()


def test_host_dice_are_uniform_enough(save):
    game = Game.new("skirmish", save)
    from kernel.dice import HostDice

    counts = [0] * 6
    for r in HostDice(b"k" * 32, "g", game.state).draw("uniformity", 6, 6000):
        counts[r - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts
    game.close()
