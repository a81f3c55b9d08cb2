"""Naval transport: embarking in port, unloading at sea into a coastal hex, and invasion.

Seeds: "Embark/Debark Units" (L1775-1849): "Only organized units may embark"; a TRS "embarks
units it started the impulse stacked with"; "Embarking and transport don't count against
land or air activity limits"; debarking at sea: "organized land units from an organized TRS
during the land movement step ... the TRS is then disorganized".  "Naval Movement": "This is
also the phase where naval units pick up units from ports".  "Unload Land Units" (actions
Naval, Land, Combined: the turn plugin's gate).  "Invasion" (L10611-10630): "players on the
phasing side that chose a Land or Combined action may invade enemy controlled hexes using
land units that are at sea ... Each land unit that invades counts as a land move.  In
addition, invading a hex means that the invading major power must conduct a land attack on
the hex" (the combat plugin's ``declare_forced_attack``; the defender then decides on its
notional unit, Ignore Notional).
"""

from __future__ import annotations

from functools import cache

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.combat.declaration import declare_forced_attack, is_new_attack
from plugins.rules.land.movement import stacking_breaches
from plugins.rules.turn.activities import action_problem, activity_problem, use_activity
from plugins.rules.units import UnitFlipped, UnitMoved, units

from .embark import cargo_problem
from .events import UnitsLoaded, UnitsUnloaded
from .naval_units import aboard, is_carrier_air, kind, label
from .sea_box_section import area_name
from .state import IMPULSE, NAVAL_MOVEMENT, naval, rules, this_impulse

UNLOAD = f"{IMPULSE}.land.movement.unload-land-units"
INVASION = f"{IMPULSE}.land.movement.invasion"


@cache
def coastal_hexes(area: str) -> frozenset:
    """Land hexes beside a sea hex of ``area``: where its ships unload, invade and bombard."""
    m = core.world_map()
    out = set()
    for h in m.hexes_of_sea_area(area):
        for n in m.grid.neighbours(h):
            if m.is_land(n):
                out.add(tuple(n))
    return frozenset(out)


def _hex(text: str):
    return core.key_hex(text)


# ---------------------------------------------------------------- Embark (Naval Movement)
class EmbarkUnits(Command):
    ship: str
    units: list[str]


def why_not_embark(state, power: str, ship_id: str, cargo: list[str]) -> str | None:
    problem = action_problem(state, power, NAVAL_MOVEMENT)
    if problem:
        return problem
    all_units = units(state).units
    ship = all_units.get(ship_id)
    if ship is None or ship.branch != "naval" or ship.power != power:
        return f"Embark/Debark Units: {ship_id!r} is not a naval unit of {power}"
    if kind(ship) != "transport":
        return f"Embark/Debark Units: {label(state, ship_id)} is not a transport"
    if not ship.face_up or naval(state).moved.get(ship_id) == this_impulse(state):
        return f"Embark/Debark Units: {label(state, ship_id)} must be organized and not yet moved this impulse"
    if ship_id in naval(state).at_sea or not ship.on_map:
        return f"Embark/Debark Units: {label(state, ship_id)} embarks in port"
    for c in cargo:
        u = all_units.get(c)
        if u is None or not u.on_map or u.hex != ship.hex:
            return f"Embark/Debark Units: {c!r} is not in {label(state, ship_id)}'s port"
        if not u.face_up:
            return f"Embark/Debark Units: only organized units may embark ({label(state, c)} is face down)"
    return cargo_problem(state, ship_id, cargo)


def embark_choices(state, actor, step_id):
    if action_problem(state, actor, NAVAL_MOVEMENT):
        return None
    options = []
    for ship in units(state).units.values():
        if ship.branch != "naval" or ship.power != actor or kind(ship) != "transport":
            continue
        if not ship.on_map or ship.id in naval(state).at_sea:
            continue
        fits = [u for u in units(state).in_hex(ship.hex) if u.branch in ("land", "air") and not is_carrier_air(u)
                and why_not_embark(state, actor, ship.id, [u.id]) is None]
        if fits:
            options.append(Option(ship.id, label(state, ship.id), [Field("units", "units", [
                Option(u.id, label(state, u.id)) for u in fits], min=1, max=1)]))
    return [Field("ship", "unit", options)] if options else None


def embark_preview(state, cmd: EmbarkUnits):
    problem = why_not_embark(state, cmd.actor, cmd.ship, cmd.units)
    if problem:
        raise Rejected(problem)
    everyone = units(state).units
    # "land_units": what of the cargo could later unload or invade (bots and players weigh it)
    return {"ship": cmd.ship, "aboard": aboard(state, cmd.ship) + cmd.units, "activities": {},
            "land_units": [c for c in cmd.units if everyone[c].branch == "land"]}


@rules.command(EmbarkUnits, choices=embark_choices, preview=embark_preview)
def embark_units(ctx, cmd: EmbarkUnits) -> None:
    problem = why_not_embark(ctx.state, cmd.actor, cmd.ship, cmd.units)
    if problem:
        raise Rejected(problem)
    for c in cmd.units:
        ctx.emit(UnitMoved(unit=c, to_hex=None, to_where="aboard"))
    ctx.emit(UnitsLoaded(ship=cmd.ship, units=list(cmd.units)))


# ---------------------------------------------------------------- Unload Land Units / Invasion
class DebarkUnit(Command):
    ship: str
    unit: str
    hex: tuple[int, int]


class Invade(Command):
    ship: str
    unit: str
    hex: tuple[int, int]


def _landing_problem(state, power: str, ship_id: str, unit_id: str, hex_, invading: bool, rule: str) -> str | None:
    phase = INVASION if invading else UNLOAD
    problem = action_problem(state, power, phase) or activity_problem(state, power, "land-move")
    if problem:
        return problem
    all_units = units(state).units
    ship = all_units.get(ship_id)
    box = naval(state).at_sea.get(ship_id)
    if ship is None or ship.power != power or box is None:
        return f"{rule}: {ship_id!r} is not a ship of {power} at sea"
    if unit_id not in aboard(state, ship_id) or all_units[unit_id].branch != "land":
        return f"{rule}: {unit_id!r} is not a land unit aboard {label(state, ship_id)}"
    if not ship.face_up or not all_units[unit_id].face_up:
        return f"{rule}: the transport and the land unit must be organized ({label(state, ship_id)}, {label(state, unit_id)})"
    hex_ = tuple(hex_)
    if hex_ not in coastal_hexes(box.area):
        return f"{rule}: hex {hex_} is not a coastal hex of {area_name(box.area)}"
    owner = core.hex_controller(state, hex_)
    if invading:
        if owner is None or not core.enemies(state, power, owner):
            return f"{rule}: hex {hex_} is not controlled by an enemy of {power}"
        if is_new_attack(state, power, hex_):
            problem = activity_problem(state, power, "land-attack")
            if problem:
                return f"{rule}: invading forces a land attack: {problem}"
        return None
    if owner is None or core.side_of(state, owner) != core.side_of(state, power):
        return f"{rule}: hex {hex_} is not controlled by {power}'s side"
    breaches = stacking_breaches(state, hex_, adding=[all_units[unit_id]])
    problems = [breaches[k] for k in ("land", "sides") if k in breaches]
    return f"{rule}: {problems[0]}" if problems else None


def _landing_choices(state, actor, invading: bool, rule: str):
    options = []
    for ship_id, box in naval(state).at_sea.items():
        ship = units(state).units[ship_id]
        if ship.power != actor or not ship.face_up:
            continue
        for unit_id in aboard(state, ship_id):
            if units(state).units[unit_id].branch != "land":
                continue
            hexes = [h for h in sorted(coastal_hexes(box.area))
                     if _landing_problem(state, actor, ship_id, unit_id, h, invading, rule) is None]
            if hexes:
                options.append(Option(ship_id, f"{label(state, ship_id)} with {label(state, unit_id)}", [
                    Field("unit", "unit", [Option(unit_id, label(state, unit_id), [
                        Field("hex", "hex", [Option(list(h), f"{h}") for h in hexes])])])]))
    return [Field("ship", "unit", options)] if options else None


def debark_choices(state, actor, step_id):
    return _landing_choices(state, actor, False, "Unload Land Units")


def invade_choices(state, actor, step_id):
    return _landing_choices(state, actor, True, "Invasion")


def _preview(state, cmd, invading: bool):
    rule = "Invasion" if invading else "Unload Land Units"
    problem = _landing_problem(state, cmd.actor, cmd.ship, cmd.unit, cmd.hex, invading, rule)
    if problem:
        raise Rejected(problem)
    out = {"hex": list(cmd.hex), "land_moves": 1, "transport_disorganized": True}
    if invading:
        out["invasion"] = True
        out["land_attack"] = 1 if is_new_attack(state, cmd.actor, tuple(cmd.hex)) else 0
    return out


def _land(ctx, cmd, invading: bool) -> None:
    rule = "Invasion" if invading else "Unload Land Units"
    problem = _landing_problem(ctx.state, cmd.actor, cmd.ship, cmd.unit, cmd.hex, invading, rule)
    if problem:
        raise Rejected(problem)
    new_attack = invading and is_new_attack(ctx.state, cmd.actor, tuple(cmd.hex))
    ctx.emit(UnitsUnloaded(ship=cmd.ship, units=[cmd.unit]))
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=tuple(cmd.hex), to_where="map"))
    # Embark/Debark Units: "the TRS is then disorganized"
    ctx.emit(UnitFlipped(unit=cmd.ship, face_up=False))
    use_activity(ctx, cmd.actor, "land-move")
    if invading:
        if new_attack:
            use_activity(ctx, cmd.actor, "land-attack")
        declare_forced_attack(ctx, cmd.actor, tuple(cmd.hex), [cmd.unit], "invasion")


@rules.command(DebarkUnit, choices=debark_choices, preview=lambda state, cmd: _preview(state, cmd, False))
def debark_unit(ctx, cmd: DebarkUnit) -> None:
    _land(ctx, cmd, False)


@rules.command(Invade, choices=invade_choices, preview=lambda state, cmd: _preview(state, cmd, True))
def invade(ctx, cmd: Invade) -> None:
    _land(ctx, cmd, True)


def landing_skip(state, step_id: str) -> str | None:
    """Unload Land Units and Invasion: skipped when no phasing power has a land unit at sea."""
    if step_id not in (UNLOAD, INVASION):
        return None
    phasing = set(state.kernel.sides.get(state.kernel.active_side, []))
    for ship_id in naval(state).at_sea:
        if units(state).units[ship_id].power in phasing and any(
                units(state).units[c].branch == "land" for c in aboard(state, ship_id)):
            return None
    title = "Invasion" if step_id == INVASION else "Unload Land Units"
    return f"{title}: no phasing power has a land unit aboard a ship at sea"
