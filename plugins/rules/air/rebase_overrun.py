"""Rebase Overrun Units Digression, for air units (seeds, "Rebase Overrun Units Digression"):
"an air or naval unit is in a hex ... and control of the hex changes to the other side.  All
of a sudden, the units are in enemy territory and have to be rebased by the owning player.
Rebasing an air unit is easy.  Although, if there's no friendly hex in range, the air unit
is destroyed."

The land plugin pushes the digression and keeps which units were overrun where
(``land(state).overrun``); ``RebaseAirUnit`` moves one of them to a friendly base within its
rebase range (as Air Rebase: twice its range, data/air.json), or, with ``hex`` null when no
base is in reach, destroys it.  It is not an activity and does not disorganize (as Air
Rebase).  Naval units (``RebaseNavalUnit``) are not in these rules.
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from plugins.rules.core import hex_key
from plugins.rules.land.events import land
from plugins.rules.units import UnitMoved

from .aircraft import bases_in_reach, destroy, has_base_in_reach, hex_label, name, units_of
from .events import AirUnitRebased
from .rebase import check_rebase_target

DIGRESSION = "wif.digressions.rebase-overrun-units"
RULE = "Rebase Overrun Units"


def overrun_air_units(state, power: str | None = None) -> list:
    """The air units (of ``power``) still in a hex where they were overrun."""
    units = units_of(state)
    out = []
    for key, ids in sorted(land(state).overrun.items()):
        for uid in ids:
            u = units.get(uid)
            if (u is not None and u.branch == "air" and u.on_map and hex_key(u.hex) == key
                    and (power is None or u.power == power)):
                out.append(u)
    return out


def _naval_left(state, power: str) -> bool:
    units = units_of(state)
    return any(u is not None and u.branch == "naval" and u.on_map and u.power == power and hex_key(u.hex) == key
               for key, ids in land(state).overrun.items() for u in (units.get(i) for i in ids))


def check_overrun_unit(state, actor: str, unit_id: str):
    if state.kernel.sequence.current != DIGRESSION:
        raise Rejected(f"{RULE}: overrun air units rebase only in the Rebase Overrun Units digression")
    unit = next((u for u in overrun_air_units(state, actor) if u.id == unit_id), None)
    if unit is None:
        raise Rejected(f"{RULE}: {name(state, unit_id)} is not an overrun air unit of {actor} left to rebase")
    return unit


def check_overrun_target(state, unit, hex_) -> None:
    if hex_ is None:
        if has_base_in_reach(state, unit, "rebase", besides=unit.hex):
            raise Rejected(f"{RULE}: {name(state, unit.id)} has a friendly base in reach; rebase it there")
        return
    check_rebase_target(state, unit, hex_)


def rebase_air_unit(ctx, cmd) -> None:
    unit = check_overrun_unit(ctx.state, cmd.actor, cmd.unit)
    check_overrun_target(ctx.state, unit, cmd.hex)
    if cmd.hex is None:
        destroy(ctx, unit.id, "overrun with no friendly base in range")
    else:
        ctx.emit(AirUnitRebased(unit=unit.id, from_hex=unit.hex, to_hex=tuple(cmd.hex)))
        ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(cmd.hex)))
    if not overrun_air_units(ctx.state, cmd.actor) and not _naval_left(ctx.state, cmd.actor):
        ctx.finish_decision(cmd.actor)  # nothing of this power is left to rebase


def rebase_overrun_choices(state, actor, step_id):
    if step_id != DIGRESSION or not overrun_air_units(state, actor):
        return None

    def where(unit) -> list[Field]:
        hexes = [h for h in bases_in_reach(state, unit, "rebase") if h != unit.hex]
        options = [Option(h, hex_label(h)) for h in hexes] or [Option(None, "no friendly base in reach: destroyed")]
        return [Field("hex", "hex", options, label="new base")]

    return [Field("unit", "unit", [Option(u.id, name(state, u.id), lambda u=u: where(u))
                                   for u in overrun_air_units(state, actor)], label="overrun air unit")]


def rebase_overrun_preview(state, cmd) -> dict:
    unit = check_overrun_unit(state, cmd.actor, cmd.unit)
    check_overrun_target(state, unit, cmd.hex)
    return {"unit": unit.id, "from": list(unit.hex), "hex": None if cmd.hex is None else list(cmd.hex),
            "destroyed": cmd.hex is None, "activities": {}}


def finish_refusal(state, step_id: str, power: str) -> str | None:
    if step_id == DIGRESSION and overrun_air_units(state, power):
        return f"{RULE}: rebase {name(state, overrun_air_units(state, power)[0].id)} first"
    return None
