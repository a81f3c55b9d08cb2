"""Offensive chits in a land action (seeds, "Pick HQ", Land action): "you can double the combat
factors of this major power's land units within range of the HQ when you calculate the final
odds for the overrun or land combat.  You can do this for as many units in the impulse as twice
the HQ's reorganization value.  You can double the same unit in more than one overrun or land
combat but it counts against the total each time.  You can only double each unit once per
overrun or land combat; and every land unit reorganized by that HQ only costs half the usual
reorganization point cost".

``DoubleWithOffensiveChit {units}``:
- in a land combat being resolved, before its die roll: the attackers named are doubled in that
  combat (combat's hook ``land_attack_factor``);
- in Land Movement, before the units move: the units named are doubled in the overrun they make
  this impulse, judged from the hex they overrun from, which must be within the HQ's range too
  (land's ``overrun_odds`` asks combat's odds, which ask ``land_attack_factor``).  Authored: an
  overrun is judged inside the move that makes it, so the doubling is declared before the move
  and counts against the total whether or not the unit overruns.
Handler, choices and preview ask ``double_problem``.

Half-cost reorganization (supply's hook ``reorganization_cost``): in a land action, land units
reorganized by the chit's HQ; in an air action, aircraft reorganized by it ("every aircraft unit
reorganized by that HQ only costs half"); in a combined action every land, naval or aircraft
unit the power reorganizes ("It only costs half the normal reorganization point cost of a
combined action to reorganize each land, naval or aircraft unit").
"""

from __future__ import annotations

from kernel.choices import Field as ChoiceField, Option
from kernel.errors import Rejected
from kernel.events import Command
from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.combat.state import current_combat
from plugins.rules.land.movers import LAND_MOVE, movers
from plugins.rules.supply import reorg_value
from plugins.rules.supply.trace import REORG_COST
from plugins.rules.units import units

from .state import OVERRUN, RULE, RULE_ID, LandFactorsDoubled, chit_state, doubled_here, in_range, playing_hq, rules
from plugins.rules.core.names import power_name

OPEN_BEFORE_ROLL = ("selected", "typed")
LAND_MOVEMENT = "land-movement"  # the phase step's last part


class DoubleWithOffensiveChit(Command):
    units: list[str]


def _in_land_movement(state) -> bool:
    return state.kernel.sequence.current.rsplit(".", 1)[-1] == LAND_MOVEMENT


def doubles_left(state, power: str) -> int:
    """Units ``power`` may still double this impulse: twice the HQ's reorganization value, less
    those doubled (a unit doubled in two combats counts twice)."""
    hq = playing_hq(state, power)
    if hq is None:
        return 0
    return 2 * reorg_value(hq) - sum(len(ids) for ids in doubled_here(state, power).values())


def doubling_target(state, power: str) -> tuple[str | None, str | None]:
    """(the key of what ``power`` may double units for now: the combat being resolved, or
    ``OVERRUN`` in Land Movement; or None and the reason why nothing)."""
    if not is_on(state, RULE_ID):
        return None, f"{RULE}: this optional rule is not in play"
    if playing_hq(state, power) is None:
        return None, f"{RULE}: {power} played no offensive chit on an HQ this impulse"
    if core.action_of(state, power) != "land":
        return None, f"{RULE}: land units are doubled in a land action (Pick HQ, Land action)"
    if _in_land_movement(state):
        return OVERRUN, None
    c = current_combat(state)
    if c is None or c.stage not in OPEN_BEFORE_ROLL:
        return None, (f"{RULE}: units are doubled in a land combat being resolved, before its die roll, or "
                      "in Land Movement for their overrun")
    return c.id, None


def doublable(state, power: str, key: str) -> list[str]:
    """The land units ``power`` may double for ``key``: within the HQ's range and not doubled for
    it yet ("You can only double each unit once per overrun or land combat"); for a combat its
    attackers, for an overrun the units that may still move this impulse."""
    us = units(state).units
    done = set(doubled_here(state, power).get(key, []))
    if key == OVERRUN:
        candidates = [u.id for u in movers(state, power, LAND_MOVE) or []]
    else:
        c = current_combat(state)
        candidates = list(c.attackers) if c is not None and c.id == key else []
    return sorted(uid for uid in candidates if uid in us and us[uid].power == power and uid not in done
                  and in_range(state, power, us[uid].hex))


def double_problem(state, power: str, unit_ids: list[str]) -> str | None:
    """Why ``power`` may not double ``unit_ids`` now, or None."""
    key, problem = doubling_target(state, power)
    if problem:
        return problem
    if not unit_ids:
        return f"{RULE}: name the land units to double"
    if len(set(unit_ids)) != len(unit_ids):
        return f"{RULE}: a unit is doubled once per combat; {', '.join(unit_ids)} names one twice"
    allowed = set(doublable(state, power, key))
    what = "its overrun this impulse" if key == OVERRUN else f"the combat at {key}"
    for uid in unit_ids:
        if uid not in allowed:
            who = "unit that may still move" if key == OVERRUN else "attacker"
            return (f"{RULE}: {uid!r} is no {who} of {power} within the HQ's range not doubled yet "
                    f"for {what}")
    left = doubles_left(state, power)
    if len(unit_ids) > left:
        return f"{RULE}: {power} may double {left} more unit(s) this impulse (twice the HQ's reorganization value)"
    return None


def double_with_chit(ctx, cmd: DoubleWithOffensiveChit) -> None:
    problem = double_problem(ctx.state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    key, _ = doubling_target(ctx.state, cmd.actor)
    ctx.emit(LandFactorsDoubled(power=cmd.actor, combat=key, units=list(cmd.units)))


def double_choices(state, actor: str, step_id: str):
    key, problem = doubling_target(state, actor)
    if problem:
        return None
    found, left = doublable(state, actor, key), doubles_left(state, actor)
    if not found or left < 1:
        return None
    us = units(state).units
    label = "land units to double in their overrun" if key == OVERRUN else "land units to double"
    return [ChoiceField("units", "units", [Option(uid, us[uid].name or uid) for uid in found], min=1,
                        max=min(left, len(found)), label=label)]


def double_preview(state, cmd: DoubleWithOffensiveChit) -> dict:
    problem = double_problem(state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    us = units(state).units
    key, _ = doubling_target(state, cmd.actor)
    return {"doubled": list(cmd.units), "for": "overrun" if key == OVERRUN else f"combat at {key}",
            "combat_factors_added": sum(us[u].factors.get("combat", 0) for u in cmd.units),
            "doubles_left": doubles_left(state, cmd.actor) - len(cmd.units)}


rules.command(DoubleWithOffensiveChit, anytime=True, choices=double_choices, preview=double_preview)(double_with_chit)


@hookimpl(optionalhook=True)
def land_attack_factor(state, unit, hex_, factor):
    """A unit doubled in the combat at ``hex_`` attacks with twice its factors; in Land Movement a
    unit doubled for its overrun, judged from the hex it overruns from (``unit.hex`` in land's
    scratch state), if that hex is within the HQ's range."""
    if not is_on(state, RULE_ID) or unit.power not in chit_state(state).playing:
        return None
    doubled = doubled_here(state, unit.power)
    if _in_land_movement(state):
        hit = unit.id in doubled.get(OVERRUN, []) and in_range(state, unit.power, unit.hex)
    else:
        hit = unit.id in doubled.get(core.hex_key(hex_), [])
    return factor * 2 if hit else None


@rules.describe("LandFactorsDoubled")
def _say_doubled(event, state):
    d = event.data
    us = units(state).units
    names = ", ".join(us[u].name or u if u in us else u for u in d["units"])
    where = "for their overrun" if d["combat"] == OVERRUN else f"in the combat at {d['combat']}"
    return f"{power_name(d['power'])} doubles with its offensive chit, {where}: {names}"


# ---------------------------------------------------------------- half-cost reorganization
HALVED_BRANCHES = {"land": ("land",), "air": ("air",), "combined": ("land", "naval", "air")}


@hookimpl(optionalhook=True)
def reorganization_cost(state, hq, unit):
    """Half the usual reorganization point cost, as the chit's action says (module docstring)."""
    if not is_on(state, RULE_ID):
        return None
    hq_of_chit = playing_hq(state, hq.power)
    if hq_of_chit is None:
        return None
    action = core.action_of(state, hq.power)
    if unit.branch not in HALVED_BRANCHES.get(action, ()):
        return None
    if action != "combined" and hq_of_chit.id != hq.id:
        return None  # land and air actions: "reorganized by that HQ"
    return REORG_COST / 2
