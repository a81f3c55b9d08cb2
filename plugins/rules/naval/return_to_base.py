"""Return to base at sea: Stay At Sea and Return To Base at the end of the turn, and the port
an aborting unit goes to.

Seeds: "Stay At Sea" (L11036-11061): the last impulse's phasing side, then the other side,
chooses which units at sea stay there; "Return To Base" (L11062-11090): "the End of Phase
button is disabled until all the requisite units have been returned to base".  Ships in
Flames 4 (Returning To Base, where the base text relies on it): returning "works like a
reverse move", limited by the unit's movement allowance "reduced by the search number of the
section it occupies" and its range; only a transport carrying cargo and a unit in the 0
section (except convoy points) must return; "A unit that stays must immediately move into a
lower section"; "A unit that must return and can't ... is destroyed", and one that need not
return "is destroyed at the end of the return-to-base phase if it could not have returned".
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import hex_key, key_hex
from plugins.rules.units import UnitMoved, units

from .events import NavalGroupMoved, NavalUnitLost
from .iced_in_ports import iced_in_move_problem
from .naval_movement_moving_naval_units import (
    destination_label,
    origin_label,
    origin_of,
    perform_move,
    route,
    unit_problem,
)
from .naval_units import aboard, friendly_port, is_carrier_air, is_convoy, label
from .sea_box_section import ports_by_distance
from .state import RETURN_TO_BASE, STAY_AT_SEA, naval, rules

RULE = "Return To Base"


def reachable_ports(state, unit) -> list[str]:
    """Friendly ports ``unit`` at sea can return to now, nearest first (then by hex)."""
    box = naval(state).at_sea.get(unit.id)
    if box is None:
        return []
    origin = f"{box.area}:{box.section}"
    reach = unit.factors.get("range", 0)
    found = []
    for distance, to, port in ports_by_distance(box.area):
        if distance + 1 > reach:
            break  # farther ports cost more range than the unit has (unit_problem's range check)
        if not friendly_port(state, unit.power, port.hex):
            continue
        if iced_in_move_problem(state, to, to):
            continue  # Weather Report: at the end of the turn, the last impulse's weather
        if unit_problem(state, unit, origin, to, None, returning=True) is None:
            found.append((route(origin, to).range_cost, to))
    return [to for _, to in sorted(found)]


def nearest_port(state, unit) -> tuple[int, int] | None:
    ports = reachable_ports(state, unit)
    return key_hex(ports[0]) if ports else None


def must_return(state, unit) -> bool:
    box = naval(state).at_sea.get(unit.id)
    if box is None:
        return False
    cargo = [c for c in aboard(state, unit.id) if not is_carrier_air(units(state).units[c])]
    return bool(cargo) or section_after_staying(unit, box.section) is None


def section_after_staying(unit, section: int) -> int | None:
    """The section a unit in ``section`` moves to when it stays at sea (Ships in Flames 4: "A
    unit that stays must immediately move into a lower section"; a convoy stays in the 0
    section), or None: a unit in the 0 section other than convoy points must return."""
    if is_convoy(unit):
        return max(0, section - 1)
    return section - 1 if section > 0 else None


def side_powers(state, step_id: str) -> list[str]:
    side = state.kernel.active_side
    if side is None:
        return []
    if step_id.endswith("non-phasing"):
        side = next((s for s in state.kernel.sides if s != side), side)
    return list(state.kernel.sides.get(side, []))


def at_sea_units(state, power: str, naval_only: bool = False) -> list:
    out = [units(state).units[u] for u in naval(state).at_sea if units(state).units[u].power == power]
    return [u for u in out if u.branch == "naval"] if naval_only else out


def stayed_this_turn(state, unit_id: str) -> bool:
    return naval(state).moved.get(unit_id) == [state.kernel.turn, -1]


# ---------------------------------------------------------------- Stay At Sea
class StayAtSea(Command):
    """Units at sea that stay there: each moves to the next lower section (a convoy stays in 0)."""

    units: list[str]


def why_not_stay(state, power: str, unit_ids: list[str]) -> str | None:
    if not unit_ids:
        return "Stay At Sea: no unit named"
    # "Stay At Sea" covers air and naval units
    for uid in unit_ids:
        u = units(state).units.get(uid)
        if u is None or uid not in naval(state).at_sea or u.power != power:
            return f"Stay At Sea: {uid!r} is not a unit of {power} at sea"
        if must_return(state, u):
            return (f"Stay At Sea: {label(state, uid)} must return to base (a transport carrying cargo, or a unit "
                    "in the 0 section other than convoy points)")
        if stayed_this_turn(state, uid):
            return f"Stay At Sea: {label(state, uid)} already stays at sea this turn"
    return None


def stay_choices(state, actor, step_id):
    fit = [u for u in at_sea_units(state, actor) if why_not_stay(state, actor, [u.id]) is None]
    if not fit:
        return None
    return [Field("units", "units", [Option(u.id, label(state, u.id)) for u in fit], min=1)]


def stay_preview(state, cmd: StayAtSea):
    problem = why_not_stay(state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    every = units(state).units
    return {"units": {u: section_after_staying(every[u], naval(state).at_sea[u].section) for u in cmd.units}}


@rules.command(StayAtSea, choices=stay_choices, preview=stay_preview)
def stay_at_sea(ctx, cmd: StayAtSea) -> None:
    problem = why_not_stay(ctx.state, cmd.actor, cmd.units)
    if problem:
        raise Rejected(problem)
    for uid in cmd.units:
        box = naval(ctx.state).at_sea[uid]
        ctx.emit(NavalGroupMoved(power=cmd.actor, units=[uid], origin=f"{box.area}:{box.section}", path=[],
                                 area=box.area, section=section_after_staying(units(ctx.state).units[uid], box.section),
                                 turn=ctx.state.kernel.turn,
                                 impulse=-1, counts_as_entry=False))


# ---------------------------------------------------------------- Return To Base
class ReturnNavalToBase(Command):
    """Units at sea in one section return to a friendly port."""

    origin: str  # "AREA:section"
    to: str  # the port's hex "col,row"
    units: list[str]


def to_return(state, power: str) -> list:
    """The power's units at sea that must still return and can."""
    return [u for u in at_sea_units(state, power, naval_only=True)
            if not stayed_this_turn(state, u.id) and reachable_ports(state, u)]


def why_not_return(state, power: str, origin: str, to: str, unit_ids: list[str]) -> str | None:
    if not unit_ids:
        return f"{RULE}: no unit named"
    for uid in unit_ids:
        u = units(state).units.get(uid)
        if u is None or u.power != power or uid not in naval(state).at_sea:
            return f"{RULE}: {uid!r} is not a unit of {power} at sea"
        if origin_of(state, u) != origin:
            return f"{RULE}: a returning group starts in one section; {label(state, uid)} is not in {origin_label(origin)}"
        if stayed_this_turn(state, uid):
            return f"{RULE}: {label(state, uid)} stays at sea this turn"
        if "," not in to or to not in reachable_ports(state, u):
            return f"{RULE}: {label(state, uid)} cannot reach {destination_label(to)} (a friendly port within its range and movement)"
    return None


def return_choices(state, actor, step_id):
    groups: dict[str, list] = {}
    for u in to_return(state, actor):
        groups.setdefault(origin_of(state, u), []).append(u)
    if not groups:
        return None
    options = []
    for origin, group in sorted(groups.items()):
        ports = sorted({p for u in group for p in reachable_ports(state, u)})

        def then(origin=origin, group=group, ports=ports):
            reach = {u.id: set(reachable_ports(state, u)) for u in group}
            return [Field("to", "option", [
                Option(p, destination_label(p), [Field("units", "units", [
                    Option(u.id, label(state, u.id)) for u in group if p in reach[u.id]], min=1)])
                for p in ports])]
        options.append(Option(origin, origin_label(origin), then))
    return [Field("origin", "option", options)]


def return_preview(state, cmd: ReturnNavalToBase):
    problem = why_not_return(state, cmd.actor, cmd.origin, cmd.to, cmd.units)
    if problem:
        raise Rejected(problem)
    return {"to": destination_label(cmd.to), "range_used": route(cmd.origin, cmd.to).range_cost}


@rules.command(ReturnNavalToBase, choices=return_choices, preview=return_preview)
def return_naval_to_base(ctx, cmd: ReturnNavalToBase) -> None:
    problem = why_not_return(ctx.state, cmd.actor, cmd.origin, cmd.to, cmd.units)
    if problem:
        raise Rejected(problem)
    perform_move(ctx, cmd.actor, cmd.origin, cmd.to, None, cmd.units)


def finish_refusal(state, step_id: str, power: str) -> str | None:
    if step_id not in RETURN_TO_BASE:
        return None
    left = to_return(state, power)
    if left:
        return f"{RULE}: {power} must first return to base " + ", ".join(label(state, u.id) for u in left) + " (ReturnNavalToBase)"
    return None


def destroy_stranded(ctx, step_id: str) -> None:
    """At the end of Return To Base: units at sea that neither stay nor could return are destroyed."""
    state = ctx.state
    for power in side_powers(state, step_id):
        for u in at_sea_units(state, power, naval_only=True):
            if not stayed_this_turn(state, u.id):
                for passenger in aboard(state, u.id):
                    ctx.emit(UnitMoved(unit=passenger, to_hex=None, to_where="eliminated"))
                ctx.emit(UnitMoved(unit=u.id, to_hex=None, to_where="eliminated"))
                ctx.emit(NavalUnitLost(unit=u.id))


def deciders(state, step_id: str) -> list[str]:
    """The powers of the step's side with units at sea."""
    return sorted({p for p in side_powers(state, step_id) if at_sea_units(state, p)})


def stay_skip(state, step_id: str) -> str | None:
    if step_id in STAY_AT_SEA and any(u.branch == "air" for p in side_powers(state, step_id)
                                      for u in at_sea_units(state, p)):
        return None  # the step's end brings home the aircraft at sea that do not stay
    if step_id in STAY_AT_SEA and not any(why_not_stay(state, p, [u.id]) is None
                                          for p in side_powers(state, step_id) for u in at_sea_units(state, p)):
        return "Stay At Sea: no unit of this side at sea may stay (none at sea, or each must return to base)"
    return None

