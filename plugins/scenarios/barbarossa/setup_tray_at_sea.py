"""Setup Tray, naval units set up at sea (seed 000 L6715-6735; Ships in Flames 16.1.1 Previous
Naval Moves, L1125-1133).

The computer edition puts a ship at sea in its Setup Tray as it puts one in a port: "All naval
units placed at sea during setup are assumed to have stayed at sea from the 'previous' turn
... Naval units that are permitted to start at sea can do so based on the ports in their
assigned setup area ... it needs to be capable of legally moving from that port to the sea
area in which it sets up."  ``PlaceUnitAtSea`` is that placement: a ship of the power's tray
(or one it placed this step) goes to a sea box "AREA:section" that the naval plugin's 16.1.1
(``at_sea_setup_problem``) allows from the ports the ship may set up in
(setup_naval_units.py).  Like ``PlaceUnit`` it may be repeated until the power finishes the
step, and a ship placed at sea may be placed again in a port (``PlaceUnit``) or elsewhere at
sea.

Authored: it is a command of its own beside ``PlaceUnit`` (whose ``hex`` a sea box is not:
a unit at sea has no hex), listed by the sequence in the set-up's placing step only ("After you've set
up a major power's units, you can make a naval move with them before the next major power
sets up"), not when reinforcements are placed; the sea areas offered are those of the
scenario's partial map (the ``sea_area_refusal`` hook, as Naval Movement asks it).
"""

from __future__ import annotations

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.naval.rig_naval import place_at_sea
from plugins.rules.units import UnitMoved, units

from .setup_naval_units import is_scenario_ship, legal_seas, parse_sea, sea_label, ship_at_sea_problem
from .setup_tray import occasion_units, tray_problem
from .state import SETUP_PLACING, rules

RULE = "Setup Tray"


class PlaceUnitAtSea(Command):
    """Set a ship of the setup tray (or one placed this step) up at sea, in a sea box section."""

    unit: str
    sea: str  # "AREA:section", e.g. "BA:1"


def step_problem(state, actor: str) -> str | None:
    seq = state.kernel.sequence
    if seq.current != SETUP_PLACING:
        return (f"{RULE}: ships set up at sea only while a major power sets up its units "
                f"(the current step is {seq.current})")
    if actor not in seq.pending:
        return f"{RULE}: {actor} is not setting up now (waiting for: {', '.join(seq.pending) or 'nobody'})"
    return None


def at_sea_problem(state, actor: str, unit_id: str, sea: str, host=None) -> str | None:
    """Why ``actor`` may not set ``unit_id`` up at sea in ``sea`` now, or None."""
    problem = step_problem(state, actor) or tray_problem(state, actor, unit_id)
    if problem:
        return problem
    unit = units(state).units[unit_id]
    if not is_scenario_ship(unit_id):
        return f"{RULE}: only naval units set up at sea; the {unit.name or unit.id} is a {unit.branch} unit"
    return ship_at_sea_problem(state, actor, unit, sea, host)


def place_at_sea_choices(state, actor: str, step_id: str, host=None):
    """Each ship the actor may set up at sea now, with its sea boxes."""
    if step_problem(state, actor):
        return None
    every = units(state).units
    seas = {uid: legal_seas(state, actor, every[uid], host) for uid in occasion_units(state, actor)
            if is_scenario_ship(uid)}
    ids = [uid for uid, boxes in seas.items() if boxes]
    if not ids:
        return None

    def boxes(uid):
        return [one_of("sea", "option", seas[uid], label=sea_label)]

    return [one_of("unit", "unit", ids, label=lambda uid: f"{every[uid].name or uid} ({every[uid].type})", then=boxes)]


def place_at_sea_preview(state, cmd: PlaceUnitAtSea, host=None) -> dict:
    problem = at_sea_problem(state, cmd.actor, cmd.unit, cmd.sea, host)
    if problem:
        raise Rejected(problem)
    area, section = parse_sea(cmd.sea)
    return {"sea": cmd.sea, "place": sea_label(cmd.sea), "area": area, "section": section, "at_sea": True}


def place_unit_at_sea(ctx, cmd: PlaceUnitAtSea) -> None:
    problem = at_sea_problem(ctx.state, cmd.actor, cmd.unit, cmd.sea, ctx.host)
    if problem:
        raise Rejected(problem)
    area, section = parse_sea(cmd.sea)
    unit = units(ctx.state).units[cmd.unit]
    if unit.where != "map":  # from the tray: on the map first, then in its sea box (no hex)
        ctx.emit(UnitMoved(unit=cmd.unit, to_hex=None, to_where="map"))
    place_at_sea(ctx, [cmd.unit], area, section)  # the naval plugin's set-up placement at sea


# the sequence lists it in the set-up's placing step (plugins/rules/sequence/wif_sequence.json)
rules.command(PlaceUnitAtSea, choices=place_at_sea_choices, preview=place_at_sea_preview)(place_unit_at_sea)
