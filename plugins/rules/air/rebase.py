"""Air Rebase (seeds, "Air Rebase"): the phasing side moves air units to friendly bases within
twice their range; "not an air mission": it cannot be intercepted and does not disorganize.
How many may rebase is the action's activity limit (counted by the turn plugin)."""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from plugins.rules.turn.activities import use_activity
from plugins.rules.units import UnitMoved

from .aircraft import (
    bases_in_reach,
    check_activity,
    check_in_range,
    distance,
    friendly_base,
    has_base_in_reach,
    hex_label,
    name,
    reach,
    units_of,
)
from .events import AirUnitRebased

RULE = "Air Rebase"


def check_rebaser(state, actor: str, unit_id: str):
    unit = units_of(state).get(unit_id)
    if unit is None or unit.power != actor or unit.branch != "air":
        raise Rejected(f"{RULE}: {unit_id!r} is not an air unit of {actor}")
    if not unit.on_map:
        raise Rejected(f"{RULE}: {name(state, unit.id)} is not on the map")
    return unit


def check_rebase_target(state, unit, hex_) -> None:
    if tuple(hex_) == unit.hex:
        raise Rejected(f"{RULE}: {name(state, unit.id)} is already at {tuple(hex_)}")
    if not friendly_base(state, unit.power, hex_):
        raise Rejected(f"{RULE}: hex {tuple(hex_)} is not a land hex controlled by your side")
    check_in_range(state, unit, hex_, "rebase", RULE)


def check_rebase_allowed(state, actor: str) -> int:
    """Action Choice and Activity Limits (the turn plugin's ``use_activity`` checks both): may
    ``actor`` rebase one more unit?"""
    return check_activity(state, actor, "air-rebase")


def rebase_air(ctx, cmd) -> None:
    state = ctx.state
    unit = check_rebaser(state, cmd.actor, cmd.unit)
    check_rebase_target(state, unit, cmd.hex)
    check_rebase_allowed(state, cmd.actor)
    use_activity(ctx, cmd.actor, "air-rebase")
    ctx.emit(AirUnitRebased(unit=unit.id, from_hex=unit.hex, to_hex=tuple(cmd.hex)))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(cmd.hex)))


def rebase_choices(state, actor, step_id):
    try:
        check_rebase_allowed(state, actor)
    except Rejected:
        return None

    def destinations(unit) -> list[Field]:
        hexes = [h for h in bases_in_reach(state, unit, "rebase") if h != unit.hex]
        return [Field("hex", "hex", [Option(h, hex_label(h)) for h in hexes], label="new base")]

    def units() -> list[Option]:
        out = []
        for u in sorted(units_of(state).values(), key=lambda u: u.id):
            if u.power != actor or u.branch != "air" or not u.on_map:
                continue
            if has_base_in_reach(state, u, "rebase", besides=u.hex):
                out.append(Option(u.id, f"{name(state, u.id)}, range {u.factors.get('range', 0)}",
                                  lambda u=u: destinations(u)))
        return out
    return [Field("unit", "unit", units, label="air unit to rebase")]


def rebase_preview(state, cmd) -> dict:
    unit = check_rebaser(state, cmd.actor, cmd.unit)
    check_rebase_target(state, unit, cmd.hex)
    charged = check_rebase_allowed(state, cmd.actor)
    return {"unit": unit.id, "from": list(unit.hex), "hex": list(cmd.hex), "distance": distance(unit.hex, cmd.hex),
            "reach": reach(unit, "rebase"), "activities": {"air-rebase": charged}, "disorganized": False}
