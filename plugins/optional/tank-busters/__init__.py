"""Optional rule Tank busters (seeds, "Air Attacks"): units with a red-circled tactical factor
(unit flag ``tank-buster``) "double their tactical factor if any of the enemy units in the
combat is a MECH, ARM or HQ-A unit" in ground support, and "add an extra die roll if the
target unit is MECH, ARM or HQ-A" in a ground strike ("This benefit does not apply to ... a
self-propelled artillery unit": those are not MECH, ARM or HQ-A).  Through the air hooks
``ground_support_factor`` and ``ground_strike_extra_dice``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules import core

RULE_ID = "tank-busters"
FLAG = "tank-buster"
ARMOUR = frozenset({"arm", "armor", "armour", "mech", "hq-a", "hqa"})


def is_armour(unit) -> bool:
    return unit.type.lower() in ARMOUR


@hookimpl(optionalhook=True)
def ground_support_factor(state, unit, hex_, side, factor):
    if not is_on(state, RULE_ID) or FLAG not in unit.flags:
        return None
    enemies = [u for u in state["units"].units.values() if u.branch == "land" and u.on_map
               and core.enemies(state, unit.power, u.power)]
    attacked = tuple(hex_)
    if side == state.kernel.active_side:  # supporting the attack: the enemy defends the hex
        involved = [u for u in enemies if tuple(u.hex) == attacked]
    else:  # supporting the defence: the enemy attacks the hex (its units next to it)
        grid = core.world_map().grid
        involved = [u for u in enemies if grid.distance(tuple(u.hex), attacked) == 1]
    return factor * 2 if any(is_armour(u) for u in involved) else None


@hookimpl(optionalhook=True)
def ground_strike_extra_dice(state, bomber, target):
    if is_on(state, RULE_ID) and FLAG in bomber.flags and is_armour(target):
        return 1
    return None
