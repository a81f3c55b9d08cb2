"""Air situations for the optional-rule tests (the base air tests' map facts: (201,51) is a
German land hex 3 hexes from the Soviet hex (203,54); (207,53) is Soviet)."""

from __future__ import annotations

from functools import partial

from helpers import air_unit, ok, unit
from plugins.optional.framework import new_game

AM = "wif.procedures.air-mission"
TARGET = (203, 54)
GE_BASE, SU_BASE = (201, 51), (207, 53)
SUPPORT = "turn.impulse.land.combat.ground-support.ground-support-mission"
DECLARATION = "turn.impulse.land.combat.land-combat-declaration"
land_unit = partial(unit, combat=3, move=3)  # a 3-3 infantry army


def air_lab(save, units, rules=(), seed=3, actions=None, start="turn.impulse.independent-air.ground-strike"):
    """A lab game with the air rules.  Started at the Ground Support mission, it starts at
    Land Combat Declaration instead and declares every German land unit's attack on the
    Soviet land units next to it (Ground Support flies only to attacked hexes)."""
    options = {"units": units, "actions": actions or {"germany": "air"},
               "start_at": DECLARATION if start == SUPPORT else start}
    game = new_game("lab", save, on=list(rules), options=options, extra_plugins=["air"], seed=seed)
    if start == SUPPORT:
        declare_attacks(game)
    return game


def declare_attacks(game, power="germany"):
    """Each of ``power``'s land units attacks an adjacent enemy land hex; then the declaration ends."""
    from plugins.rules.core import enemies, world_map

    units = game.state["units"].units.values()
    grid = world_map().grid
    targets = {u.hex for u in units if u.branch == "land" and u.on_map and enemies(game.state, power, u.power)}
    for u in [u for u in units if u.power == power and u.branch == "land" and u.on_map]:
        for hex_ in grid.neighbours(u.hex):
            if hex_ in targets:
                ok(game, type="DeclareAttack", actor=power, hex=list(hex_), units=[u.id])
                break
    ok(game, type="FinishStep", actor=power)


