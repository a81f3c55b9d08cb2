"""Lab games: put ships at sea, cargo and carrier air units aboard, damage a ship.

Ships in port are placed like any counter (the lab's ``units`` option, ``RigUnit``: a naval
unit whose hex is a port).  These rig commands build the rest; every one is refused in a
normal game (kernel.lab.lab_refusal).  A scenario's setup places ships at sea with
``place_at_sea`` and loads them with ``load``.
"""

from __future__ import annotations

from kernel.choices import Field, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command
from kernel.lab import lab_refusal
from plugins.rules.core import world_map
from plugins.rules.units import UnitMoved, units

from .embark import cargo_problem
from .events import NavalUnitDamaged, NavalUnitRepaired, ShipsPlacedAtSea, UnitsLoaded
from .naval_units import at_sea, is_convoy, label
from .sea_box_section import area_name, box_hex, sections_of
from .state import naval, rules


def _refuse(problem: str | None) -> None:
    if problem:
        raise Rejected(problem)


# ---------------------------------------------------------------- for scenario setups too
def at_sea_problem(state, unit_ids: list[str], area: str, section: int, rule: str = "Sea Box Section") -> str | None:
    """Why ``unit_ids`` may not be placed in ``area``'s ``section``, or None."""
    if area not in world_map().sea_areas:
        return f"{rule}: {area!r} is not a sea area of the map"
    if section not in sections_of(area):
        return f"{rule}: {area_name(area)} has sections {sections_of(area).start}-{sections_of(area).stop - 1}, not {section}"
    if not unit_ids:
        return f"{rule}: no unit named"
    all_units = units(state).units
    for uid in unit_ids:
        u = all_units.get(uid)
        if u is None or u.branch != "naval":
            return f"{rule}: {uid!r} is not a naval unit in play"
        if u.where != "map":
            return f"{rule}: {label(state, uid)} is not on the map ({u.where})"
        if is_convoy(u) and section != 0:
            return f"{rule}: convoys \"can only be placed in the zero section box\" ({label(state, uid)})"
    return None


def place_at_sea(ctx, unit_ids: list[str], area: str, section: int) -> None:
    """Put naval units (and what is aboard them) in a sea-box section: setup, not a naval move."""
    _refuse(at_sea_problem(ctx.state, unit_ids, area, section))
    for uid in unit_ids:
        if units(ctx.state).units[uid].hex is not None:
            ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="map"))  # at sea: in a sea box, on no hex
    ctx.emit(ShipsPlacedAtSea(units=list(unit_ids), area=area, section=section))


def load(ctx, ship: str, cargo: list[str]) -> None:
    """Put cargo aboard a transport, or carrier air units aboard a carrier (their ``where``
    becomes "aboard")."""
    _refuse(cargo_problem(ctx.state, ship, cargo))
    for c in cargo:
        ctx.emit(UnitMoved(unit=c, to_hex=None, to_where="aboard"))
    ctx.emit(UnitsLoaded(ship=ship, units=list(cargo)))


# ---------------------------------------------------------------- RigShipsAtSea
class RigShipsAtSea(Command):
    """Lab: naval units in play go to ``area``'s ``section`` (with what is aboard them)."""

    units: list[str]
    area: str
    section: int


def why_not_rig_ships_at_sea(state, cmd: RigShipsAtSea) -> str | None:
    return lab_refusal(state, "RigShipsAtSea") or at_sea_problem(state, cmd.units, cmd.area, cmd.section,
                                                                   rule="RigShipsAtSea")


def rig_ships_at_sea_choices(state, actor, step_id):
    if lab_refusal(state, "RigShipsAtSea"):
        return None
    ships = [u for u in units(state).units.values() if u.branch == "naval" and u.where == "map"]
    if not ships:
        return None

    def sections(area):
        def for_section(section):
            fit = [Option(u.id, label(state, u.id)) for u in ships if section == 0 or not is_convoy(u)]
            return [Field("units", "units", fit, min=1)] if fit else []
        return [one_of("section", "option", list(sections_of(area)), then=for_section)]

    return [one_of("area", "option", sorted(world_map().sea_areas), label=area_name, then=sections)]


def rig_ships_at_sea_preview(state, cmd: RigShipsAtSea):
    _refuse(why_not_rig_ships_at_sea(state, cmd))
    return {"area": cmd.area, "section": cmd.section, "hex": box_hex(cmd.area), "units": cmd.units}


@rules.command(RigShipsAtSea, anytime=True, choices=rig_ships_at_sea_choices, preview=rig_ships_at_sea_preview)
def rig_ships_at_sea(ctx, cmd: RigShipsAtSea) -> None:
    _refuse(why_not_rig_ships_at_sea(ctx.state, cmd))
    place_at_sea(ctx, cmd.units, cmd.area, cmd.section)


# ---------------------------------------------------------------- RigAboard
class RigAboard(Command):
    """Lab: ``units`` go aboard the transport or carrier ``ship``."""

    ship: str
    units: list[str]


def why_not_rig_aboard(state, cmd: RigAboard) -> str | None:
    return lab_refusal(state, "RigAboard") or cargo_problem(state, cmd.ship, cmd.units)


def rig_aboard_choices(state, actor, step_id):
    if lab_refusal(state, "RigAboard"):
        return None
    all_units = units(state).units
    options = []
    for ship in all_units.values():
        if ship.branch != "naval" or ship.where != "map":
            continue
        if ship.hex is None:
            continue
        fits = [Option(u.id, label(state, u.id)) for u in units(state).in_hex(ship.hex)
                if u.id != ship.id and u.branch != "naval" and cargo_problem(state, ship.id, [u.id]) is None]
        if fits:
            options.append(Option(ship.id, label(state, ship.id), [Field("units", "units", fits, min=1, max=1)]))
    return [Field("ship", "unit", options)] if options else None


def rig_aboard_preview(state, cmd: RigAboard):
    _refuse(why_not_rig_aboard(state, cmd))
    return {"ship": cmd.ship, "units": cmd.units}


@rules.command(RigAboard, anytime=True, choices=rig_aboard_choices, preview=rig_aboard_preview)
def rig_aboard(ctx, cmd: RigAboard) -> None:
    _refuse(why_not_rig_aboard(ctx.state, cmd))
    load(ctx, cmd.ship, cmd.units)


# ---------------------------------------------------------------- RigNavalDamage
class RigNavalDamage(Command):
    """Lab: the naval unit ``unit`` is damaged (``damaged`` true) or repaired."""

    unit: str
    damaged: bool = True


def why_not_rig_naval_damage(state, cmd: RigNavalDamage) -> str | None:
    refusal = lab_refusal(state, "RigNavalDamage")
    if refusal:
        return refusal
    u = units(state).units.get(cmd.unit)
    if u is None or u.branch != "naval":
        return f"RigNavalDamage: {cmd.unit!r} is not a naval unit in play"
    if (cmd.unit in naval(state).damaged) == cmd.damaged:
        return f"RigNavalDamage: {label(state, cmd.unit)} is {'already' if cmd.damaged else 'not'} damaged"
    return None


def rig_naval_damage_choices(state, actor, step_id):
    if lab_refusal(state, "RigNavalDamage"):
        return None
    ships = [u for u in units(state).units.values() if u.branch == "naval" and u.where == "map"]
    if not ships:
        return None
    return [Field("unit", "unit", [Option(u.id, label(state, u.id), [Field("damaged", "bool", [
        Option(u.id not in naval(state).damaged, "damage" if u.id not in naval(state).damaged else "repair")])])
        for u in ships])]


def rig_naval_damage_preview(state, cmd: RigNavalDamage):
    _refuse(why_not_rig_naval_damage(state, cmd))
    return {"unit": cmd.unit, "damaged": cmd.damaged, "at_sea": at_sea(state, cmd.unit) is not None}


@rules.command(RigNavalDamage, anytime=True, choices=rig_naval_damage_choices, preview=rig_naval_damage_preview)
def rig_naval_damage(ctx, cmd: RigNavalDamage) -> None:
    _refuse(why_not_rig_naval_damage(ctx.state, cmd))
    ctx.emit(NavalUnitDamaged(unit=cmd.unit) if cmd.damaged else NavalUnitRepaired(unit=cmd.unit))
