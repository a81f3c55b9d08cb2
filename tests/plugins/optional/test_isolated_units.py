"""Optional rule Isolated units (seeds, "End of Turn Reorganization"): ON, a disorganized unit
that cannot trace a supply path stays disorganized at the end of the turn while the others are
reorganized; OFF, all are reorganized."""

from __future__ import annotations

import pytest
from helpers import control, ok, place, unit

from plugins.optional.framework import new_game
from plugins.rules import supply

DEEP = (222, 50)  # a German-held hex far inside the USSR: out of supply


def _eot(save, rules):
    game = new_game("barbarossa", save, on=list(rules), seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    control(game, DEEP, "germany")
    place(game, unit("g-cut", "germany", DEEP, "inf", 4, 3, face_up=False),
          unit("g-home", "germany", (201, 54), "inf", 4, 3, face_up=False))  # Warsaw
    assert not supply.in_supply(game.state, "g-cut") and supply.in_supply(game.state, "g-home")
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.end-of-turn.end-of-turn-reorganization", "turn": 2})
    return game


@pytest.mark.parametrize("on", [True, False])
def test_isolated_units_are_not_reorganized_at_the_end_of_turn(save, on):
    game = _eot(save, ["isolated-units"] if on else [])
    units = game.state["units"].units
    assert units["g-home"].face_up
    assert units["g-cut"].face_up is (not on)
