"""Setup Tray: placing the units of a power's tray on the map (seeds "Setup", "Setup Tray",
"Reinforcements").

``PlaceUnit`` puts a unit of the tray on a land hex of its setup area that its power
controls, free of enemy units, within the stacking limits (land's ``stacking_problems``, the
one home of Over-Stacked Hex), or a ship in a port (setup_naval_units.py, Ships in Flames
16.1/16.3; setup_tray_at_sea.py sets a ship up at sea instead, 16.1.1, and a ship placed at sea
and then in a port leaves its sea box); a unit placed this occasion may be placed again until the
power finishes the step.  ``RestoreSetup`` places every unit still in the tray at its saved
default position (or the nearest legal hex of its area).  Handler, choices and preview ask
``placement_problem`` / ``restore_problem``.
"""

from __future__ import annotations

from functools import cache

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.core import enemies, hex_controller, world_map
from plugins.rules.land.movement import stacking_problems
from plugins.rules.naval.previous_naval_moves import ShipsTakenFromSea
from plugins.rules.naval.sea_box_section import area_name
from plugins.rules.naval.state import naval
from plugins.rules.units import UnitMoved, units

from . import oob
from .setup_naval_units import default_port, is_scenario_ship, legal_ports, port_label, ship_placement_problem, ship_preview
from .state import PLACING_STEPS, TRAY, rules, scenario_state


class PlaceUnit(Command):
    """Place a unit from the setup tray (or re-place one placed this step) on a hex."""

    unit: str
    hex: tuple[int, int]


class RestoreSetup(Command):
    """Place every unit still in the setup tray at its saved default position."""


def _the(unit) -> str:
    return f"the {unit.name or unit.id}"


def stacking_problem(state, unit, hex_) -> str | None:
    """Over-Stacked Hex: would ``unit`` in ``hex_`` over-stack it?  A reason, or None."""
    return "; ".join(stacking_problems(state, tuple(hex_), adding=[unit], leaving={unit.id})) or None


def tray_problem(state, power: str, unit_id: str) -> str | None:
    """Why ``unit_id`` is no unit ``power`` may place from its tray now, or None."""
    unit = units(state).units.get(unit_id)
    if unit is None:
        return f"Setup Tray: there is no unit {unit_id!r}"
    if unit.power != power:
        return f"Setup Tray: {_the(unit)} is a {unit.power} unit; {power} cannot set it up"
    if unit_id not in scenario_state(state).tray.get(power, []) and unit_id not in tray_units(state, power):
        return (f"Setup Tray: {_the(unit)} is not in {power}'s setup tray "
                "(a unit set up earlier cannot return to the tray)")
    return None


def placement_problem(state, power: str, unit_id: str, hex_) -> str | None:
    """Why ``power`` may not place ``unit_id`` on ``hex_`` now (Setup Tray), or None."""
    hex_ = tuple(hex_)
    problem = tray_problem(state, power, unit_id)
    if problem:
        return problem
    unit = units(state).units[unit_id]
    if is_scenario_ship(unit_id):
        return ship_placement_problem(state, power, unit, hex_)
    udata = oob.unit_data(state, unit_id)
    area = oob.scenario_data().areas[udata.area]
    m = world_map()
    if not (0 <= hex_[1] < m.grid.rows) or not m.is_land(hex_):
        return f"Setup: land and air units set up on land hexes; {hex_} is not land"
    if hex_ not in oob.area_hexes(udata.area):
        return f"Setup: {_the(unit)} must be set up in the {area.name} ({area.note or 'its setup area'})"
    owner = hex_controller(state, hex_)
    if owner != power:
        return (f"Setup Tray: a unit cannot set up in a hex controlled by another major power "
                f"({hex_} is controlled by {owner or 'a neutral country'})")
    if any(enemies(state, u.power, power) for u in units(state).in_hex(hex_)):
        return f"Setup Tray: a unit cannot set up in a hex occupied by enemy units ({hex_})"
    return stacking_problem(state, unit, hex_)


def tray_units(state, power: str) -> list[str]:
    """The units still waiting in ``power``'s setup tray: this occasion's, then any other of its
    units an optional rule put in the tray (Pilots: an aircraft of the air reserve given a pilot)."""
    us = units(state).units
    listed = [uid for uid in scenario_state(state).tray.get(power, []) if uid in us and us[uid].where == TRAY]
    if state.kernel.turn < 1:
        return listed  # during setup every power's counters wait in the tray until its own turn
    seen = set(listed)
    return listed + sorted(uid for uid, u in us.items() if u.where == TRAY and u.power == power and uid not in seen)


def occasion_units(state, power: str) -> list[str]:
    """The units ``power`` may place now: those in its tray, then those it placed from it this
    occasion (which it may place again until it finishes the step)."""
    us = units(state).units
    waiting = tray_units(state, power)
    placed = [uid for uid in scenario_state(state).tray.get(power, [])
              if uid in us and uid not in waiting and us[uid].where == "map"]
    return waiting + placed


def _nearest_legal(state, power: str, unit_id: str) -> tuple[int, int] | None:
    if is_scenario_ship(unit_id):
        return default_port(state, power, units(state).units[unit_id])
    udata = oob.unit_data(state, unit_id)
    default = tuple(udata.hex)
    if placement_problem(state, power, unit_id, default) is None:
        return default
    for h in _nearest_first(udata.area, default):
        if placement_problem(state, power, unit_id, h) is None:
            return h
    return None


@cache
def _nearest_first(area: str, default: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The hexes of a setup area, nearest ``default`` first (then by row and column): the map and
    the areas do not change, so once per process for each default position."""
    grid = world_map().grid
    return tuple(sorted(oob.area_hexes(area), key=lambda h: (grid.distance(default, h), h[1], h[0])))


def place_defaults(ctx, power: str) -> int:
    placed = 0
    for uid in tray_units(ctx.state, power):
        h = _nearest_legal(ctx.state, power, uid)
        if h is not None:
            ctx.emit(UnitMoved(unit=uid, to_hex=h, to_where="map"), actor=power)
            placed += 1
    return placed


def default_placements(state, power: str) -> list[dict]:
    """The ``PlaceUnit`` commands a default setup of ``power``'s tray would be (a preview;
    each later placement is checked against the earlier ones only by RestoreSetup itself)."""
    out = []
    for uid in tray_units(state, power):
        h = _nearest_legal(state, power, uid)
        if h is not None:
            out.append({"type": "PlaceUnit", "actor": power, "unit": uid, "hex": list(h)})
    return out


# ---------------------------------------------------------------- PlaceUnit
def place_unit(ctx, cmd: PlaceUnit) -> None:
    problem = placement_problem(ctx.state, cmd.actor, cmd.unit, cmd.hex)
    if problem:
        raise Rejected(problem)
    ctx.emit(UnitMoved(unit=cmd.unit, to_hex=tuple(cmd.hex), to_where="map"))
    if cmd.unit in naval(ctx.state).at_sea:  # set up at sea earlier this step (16.1.1)
        ctx.emit(ShipsTakenFromSea(units=[cmd.unit]))


def _hex_label(state, hex_) -> str:
    m = world_map()
    city = m.city_at(hex_)
    place = f"{city.name}, " if city is not None else ""
    return f"{hex_[0]},{hex_[1]} ({place}{m.terrain(hex_)})"


def _unit_label(state, unit_id: str) -> str:
    unit = units(state).units[unit_id]
    box = naval(state).at_sea.get(unit_id)
    if unit.where == TRAY:
        where = "in the tray"
    elif box is not None:
        where = f"placed at sea, {area_name(box.area)} section {box.section}"
    else:
        where = f"placed at {unit.hex[0]},{unit.hex[1]}"
    return f"{unit.name or unit.id} ({unit.type}, {where})"


def legal_hexes(state, power: str, unit_id: str) -> list[tuple[int, int]]:
    """The hexes of the unit's setup area (a ship: the ports of its seas) where it may be placed now."""
    if is_scenario_ship(unit_id):
        return legal_ports(state, power, units(state).units[unit_id])
    area = oob.unit_data(state, unit_id).area
    return sorted((h for h in oob.area_hexes(area) if placement_problem(state, power, unit_id, h) is None),
                  key=lambda h: (h[1], h[0]))


def place_unit_choices(state, actor: str, step_id: str):
    """Each unit the actor may place now, then (built when looked at) its legal hexes."""
    ids = occasion_units(state, actor)
    if not ids:
        return None

    def hexes(uid):
        label = port_label if is_scenario_ship(uid) else (lambda h: _hex_label(state, h))
        return [one_of("hex", "hex", legal_hexes(state, actor, uid), label=label)]

    return [one_of("unit", "unit", ids, label=lambda uid: _unit_label(state, uid), then=hexes)]


def place_unit_preview(state, cmd: PlaceUnit) -> dict:
    problem = placement_problem(state, cmd.actor, cmd.unit, cmd.hex)
    if problem:
        raise Rejected(problem)
    if is_scenario_ship(cmd.unit):
        ship = ship_preview(state, units(state).units[cmd.unit])
        return {"hex": list(cmd.hex), "place": port_label(tuple(cmd.hex)), **ship,
                "default": ship["default_port"] == world_map().port_at(tuple(cmd.hex)).name}
    udata = oob.unit_data(state, cmd.unit)
    return {"hex": list(cmd.hex), "place": _hex_label(state, tuple(cmd.hex)),
            "area": oob.scenario_data().areas[udata.area].name, "default": list(udata.hex) == list(cmd.hex)}


# ---------------------------------------------------------------- RestoreSetup
def restore_problem(state, actor: str) -> str | None:
    """Why ``actor`` may not restore its tray to the default setup now, or None."""
    seq = state.kernel.sequence
    # Registered "anytime" because the sequence lists it only for the setup placing step;
    # the Setup Tray's Restore Setup button serves the reinforcement tray as well.
    if seq.current not in PLACING_STEPS:
        return ("Setup Tray: Restore Setup is only possible while placing units from the setup tray "
                f"(the current step is {seq.current})")
    if actor not in seq.pending:
        return f"Setup Tray: {actor} is not placing units now (waiting for: {', '.join(seq.pending) or 'nobody'})"
    waiting = tray_units(state, actor)
    if not waiting:
        return f"Setup Tray: {actor}'s setup tray is empty; nothing to restore"
    # The first unit with a legal hex is placed whatever the others do, so one is enough.
    if not any(_nearest_legal(state, actor, uid) is not None for uid in waiting):
        return f"Setup Tray: no unit in {actor}'s setup tray has a legal hex left in its setup area"
    return None


def restore_setup(ctx, cmd: RestoreSetup) -> None:
    problem = restore_problem(ctx.state, cmd.actor)
    if problem:
        raise Rejected(problem)
    place_defaults(ctx, cmd.actor)


def restore_choices(state, actor: str, step_id: str):
    return None if restore_problem(state, actor) else []


def restore_preview(state, cmd: RestoreSetup) -> dict:
    problem = restore_problem(state, cmd.actor)
    if problem:
        raise Rejected(problem)
    return {"placements": default_placements(state, cmd.actor)}


rules.command(PlaceUnit, choices=place_unit_choices, preview=place_unit_preview)(place_unit)
rules.command(RestoreSetup, anytime=True, choices=restore_choices, preview=restore_preview)(restore_setup)
