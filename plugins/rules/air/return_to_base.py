"""Returning air units to base: after a mission, at once when aborted, and at the end of the
turn for air units at sea.

Seeds: "Return to Base by Phasing Side" / "Return to Base by Non-Phasing Side" ("It is
possible that some air units will be destroyed because they are unable to return to
base"), "Return to Base Digression", "Return To Base" (end of turn: "the End of Phase
button is disabled until all the requisite units have been returned to base").
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from plugins.rules.core import world_map
from plugins.rules.units import UnitFlipped, UnitMoved

from .aircraft import (
    bases_in_reach,
    check_in_range,
    destroy,
    distance,
    friendly_base,
    has_base_in_reach,
    hex_label,
    name,
    other_side,
    reach,
    units_of,
)
from .events import AirUnitReturned
from .mission_kinds import KINDS
from .state import EOT_RTB, MISSION_RTB, RETURN_TO_BASE_DIGRESSION, air

RULE = "Return to Base"
NO_BASE = "no friendly base within range: the unit is destroyed"


def at_sea(state, unit) -> bool:
    return unit.on_map and world_map().is_sea(unit.hex)


def units_to_return(state, step_id: str, power: str) -> list[str]:
    """The air units ``power`` must still return to base before it may end ``step_id``."""
    m = air(state).mission
    if step_id in MISSION_RTB:
        return sorted(f.unit for f in m.flights.values() if f.power == power)
    if step_id == RETURN_TO_BASE_DIGRESSION:
        return sorted(u for u in m.returning if units_of(state)[u].power == power)
    if step_id in EOT_RTB:
        return sorted(u.id for u in units_of(state).values() if u.power == power and u.branch == "air" and at_sea(state, u))
    return []


def check_return(state, actor: str, unit_id: str, hex_, step_id: str):
    """May ``actor`` return ``unit_id`` to ``hex_`` now (None: it has no base in reach and is
    destroyed)?  The unit, or Rejected naming the rule."""
    unit = units_of(state).get(unit_id)
    if unit is None or unit.power != actor or unit.branch != "air":
        raise Rejected(f"{RULE}: {unit_id!r} is not an air unit of {actor}")
    m = air(state).mission
    if step_id in EOT_RTB:
        if not at_sea(state, unit):
            raise Rejected(f"{RULE}: {name(state, unit.id)} is not at sea")
    elif step_id == RETURN_TO_BASE_DIGRESSION:
        if unit_id not in m.returning:
            raise Rejected(f"Return to Base Digression: {name(state, unit.id)} did not abort "
                           "(it returns in its mission's Return to Base subphase)")
    elif unit_id not in m.flights:
        raise Rejected(f"{RULE}: {name(state, unit.id)} did not fly in this phase (or has returned)")
    if hex_ is None:
        if has_base_in_reach(state, unit):
            raise Rejected(f"{RULE}: {name(state, unit.id)} can reach a friendly base: return it there")
        return unit
    if not friendly_base(state, actor, hex_):
        raise Rejected(f"{RULE}: hex {tuple(hex_)} is not a land hex controlled by your side")
    check_in_range(state, unit, hex_, "return", RULE)
    return unit


def return_air_to_base(ctx, cmd) -> None:
    state = ctx.state
    step = state.kernel.sequence.current or ""
    unit = check_return(state, cmd.actor, cmd.unit, cmd.hex, step)
    if cmd.hex is None:
        destroy(ctx, unit.id, "no friendly base within range")
    else:
        ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(cmd.hex)))
        ctx.emit(AirUnitReturned(unit=unit.id, hex=tuple(cmd.hex)))
        if unit.face_up:  # after an air mission the units that flew are disorganized
            ctx.emit(UnitFlipped(unit=unit.id, face_up=False))
    if not units_to_return(state, step, cmd.actor):
        ctx.finish_decision(cmd.actor)


def return_choices(state, actor, step_id):
    ids = units_to_return(state, step_id, actor)
    if not ids:
        return None
    units = units_of(state)

    def destinations(unit) -> list[Field]:
        bases = bases_in_reach(state, unit)
        if not bases:
            return [Field("hex", "option", [Option(None, NO_BASE)], label="base")]
        return [Field("hex", "hex", [Option(h, hex_label(h)) for h in bases], label="base")]
    return [Field("unit", "unit", [Option(u, name(state, u), lambda u=u: destinations(units[u])) for u in ids],
                  label="air unit to return to base")]


def return_preview(state, cmd) -> dict:
    step = state.kernel.sequence.current or ""
    unit = check_return(state, cmd.actor, cmd.unit, cmd.hex, step)
    if cmd.hex is None:
        return {"unit": unit.id, "destroyed": True, "reason": NO_BASE}
    return {"unit": unit.id, "hex": list(cmd.hex), "distance": distance(unit.hex, cmd.hex),
            "reach": reach(unit, "return"), "destroyed": False, "disorganized": True}


def finish_refusal(state, step_id: str, power: str) -> str | None:
    # Return to Base by Phasing / Non-Phasing Side: flown units "are required to return to
    # base"; end of turn Return To Base: "the End of Phase button is disabled until all the
    # requisite units have been returned to base"; so too the digression's aborted units.
    left = units_to_return(state, step_id or "", power)
    if left:
        return f"{RULE}: {power} must first return to base " + ", ".join(name(state, u) for u in left) + " (ReturnAirToBase)"
    return None


def send_aborted_home(ctx) -> None:
    """Return to Base Digression: aborted units return to base at once; one with no
    friendly hex in range is destroyed ("resulting in the unit being destroyed")."""
    state = ctx.state
    kind = KINDS.get(air(state).mission.kind)
    if kind is not None and kind.return_aborted:
        # the kind returns the units it knows where to (carrier planes to their carriers); the
        # ones it leaves in ``returning`` go home through the digression below
        kind.return_aborted(ctx, list(air(state).mission.returning))
    units = units_of(state)
    for unit_id in list(air(state).mission.returning):
        if not has_base_in_reach(state, units[unit_id]):
            destroy(ctx, unit_id, "aborted with no friendly base within range")
    if air(state).mission.returning:
        ctx.push("digressions.return-to-base")


def deciders(state, step_id: str, kind: str) -> list[str] | None:
    """Who returns units: the owners of aborted units (digression); at the end of the turn,
    the powers of that side with air units at sea."""
    if step_id == RETURN_TO_BASE_DIGRESSION and kind == "rule:returning-power":
        units = units_of(state)
        return sorted({units[u].power for u in air(state).mission.returning}) or None
    if step_id in EOT_RTB and kind in ("rule:last-phasing-powers", "rule:last-non-phasing-powers"):
        side = state.kernel.active_side
        if side is None:
            return None
        if kind == "rule:last-non-phasing-powers":
            side = other_side(state, side)
        return sorted({u.power for u in units_of(state).values()
                       if u.branch == "air" and u.power in state.kernel.sides[side] and at_sea(state, u)})
    return None
