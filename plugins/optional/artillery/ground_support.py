"""Field artillery in ground support (seeds, "Air Attacks", Ground support missions: "ART units can
also provide ground support into adjacent hexes (see RAC 22.4.2)"; "Pick HQ", Land action: "You
can also double field artillery (see RAC 22.4.2) combat factors for ground support").

``ArtilleryGroundSupport {units}``: while a land combat is being resolved, before its die roll
(the window in which ground support is flown), a power names its organized field artillery (ART)
units next to the combat's hex, neither attacking nor defending in it; their combat factors are
added to their side's ground support (combat's ``GroundSupportAdded``), like bombers' tactical
factors, and the land combat rules ignore any above the side's land factors as for aircraft.
Each unit's factor is asked through the air rules' hook ``ground_support_factor`` (so an
offensive chit played in a land action doubles it within the HQ's range).

Authored (the seeds give the rule only by its RAC number): the ART unit becomes disorganized once
it has supported, as an aircraft does after its mission and an AA unit after firing at ground
support, so it supports once until reorganized; it must be in supply (like the AA divisions that
fire).  Handler, choices and preview ask ``support_problem``.
"""

from __future__ import annotations

from kernel.choices import Field as ChoiceField, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules import core
from plugins.rules.combat.events import GroundSupportAdded
from plugins.rules.combat.state import current_combat
from plugins.rules.supply import in_supply
from plugins.rules.units import UnitFlipped, units
from plugins.rules.core.names import power_name

rules = Registry()

RULE_ID = "artillery"
RULE = "Artillery (field artillery ground support)"
ART_TYPES = frozenset({"art", "artillery"})
OPEN_BEFORE_ROLL = ("selected", "typed")


class ArtilleryGroundSupport(Command):
    units: list[str]


@rules.event
class ArtilleryGroundSupportGiven(EventData):
    power: str
    combat: str  # the combat's id, its defending hex "col,row"
    side: str  # "attacker" / "defender"
    units: list[str]
    factors: float


def is_field_artillery(unit) -> bool:
    return unit.branch == "land" and unit.type.lower() in ART_TYPES


def open_combat(state, power: str):
    """The land combat ``power``'s artillery may support now, or (None, why not)."""
    if not is_on(state, RULE_ID):
        return None, f"{RULE}: the optional rule Artillery is not in play"
    c = current_combat(state)
    if c is None or c.stage not in OPEN_BEFORE_ROLL:
        return None, f"{RULE}: artillery supports a land combat being resolved, before its die roll"
    side = core.side_of(state, power)
    if side is None:
        return None, f"{RULE}: {power} is on no side"
    return c, None


def supporters(state, power: str, c) -> list[str]:
    """``power``'s organized, in-supply ART units next to combat ``c``'s hex, not in it and not
    attacking in it."""
    grid = core.world_map().grid
    return sorted(u.id for u in units(state).units.values()
                  if u.power == power and u.on_map and u.face_up and is_field_artillery(u)
                  and u.id not in c.attackers and tuple(u.hex) != tuple(c.hex)
                  and grid.distance(tuple(u.hex), tuple(c.hex)) == 1 and in_supply(state, u.id))


def support_problem(state, power: str, unit_ids: list[str]) -> str | None:
    """Why ``power`` may not give ground support with ``unit_ids`` now, or None."""
    c, problem = open_combat(state, power)
    if problem:
        return problem
    if not unit_ids:
        return f"{RULE}: name the artillery units"
    if len(set(unit_ids)) != len(unit_ids):
        return f"{RULE}: {', '.join(unit_ids)} names a unit twice"
    allowed = set(supporters(state, power, c))
    for uid in unit_ids:
        if uid not in allowed:
            return (f"{RULE}: {uid!r} is no organized, in-supply field artillery unit of {power} next to "
                    f"{c.id} and out of the combat")
    return None


def _role(state, power: str) -> str:
    return "attacker" if core.side_of(state, power) == state.kernel.active_side else "defender"


def support_factors(state, power: str, unit_ids: list[str], hook) -> float:
    """The ground support factors of ``unit_ids``: each one's combat factor, as the air rules'
    hook ``ground_support_factor`` may change it."""
    c = current_combat(state)
    us = units(state).units
    side = core.side_of(state, power)
    # the air rules publish the hook; a game without them has no rule that changes the factor
    ask = getattr(hook, "ground_support_factor", None) if hook is not None else None
    total = 0.0
    for uid in unit_ids:
        base = float(us[uid].factors.get("combat", 0))
        changed = ask(state=state, unit=us[uid], hex_=tuple(c.hex), side=side, factor=base) if ask else None
        total += base if changed is None else changed
    return total


def give_support(ctx, cmd: ArtilleryGroundSupport) -> None:
    problem = support_problem(ctx.state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    c = current_combat(ctx.state)
    role = _role(ctx.state, cmd.actor)
    factors = support_factors(ctx.state, cmd.actor, cmd.units, ctx.host.pm.hook)
    ctx.emit(ArtilleryGroundSupportGiven(power=cmd.actor, combat=c.id, side=role, units=sorted(cmd.units),
                                         factors=factors))
    ctx.emit(GroundSupportAdded(combat=c.id, side=role, factors=factors))
    for uid in sorted(cmd.units):
        ctx.emit(UnitFlipped(unit=uid, face_up=False))


def support_choices(state, actor: str, step_id: str):
    c, problem = open_combat(state, actor)
    if problem:
        return None
    found = supporters(state, actor, c)
    if not found:
        return None
    us = units(state).units
    return [ChoiceField("units", "units", [Option(uid, us[uid].name or uid) for uid in found], min=1,
                        max=len(found), label="field artillery to support the combat")]


def support_preview(state, cmd: ArtilleryGroundSupport, host=None) -> dict:
    problem = support_problem(state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    hook = host.pm.hook if host is not None else None
    return {"combat": current_combat(state).id, "side": _role(state, cmd.actor),
            "factors": support_factors(state, cmd.actor, cmd.units, hook), "disorganized": sorted(cmd.units)}


rules.command(ArtilleryGroundSupport, anytime=True, choices=support_choices, preview=support_preview)(give_support)


@rules.describe("ArtilleryGroundSupportGiven")
def _say_support(event, state):
    d = event.data
    us = units(state).units
    names = ", ".join(us[u].name or u if u in us else u for u in d["units"])
    return f"{power_name(d['power'])}'s field artillery ({names}) supports the {d['side']} at {d['combat']}: {d['factors']:g} factors"
