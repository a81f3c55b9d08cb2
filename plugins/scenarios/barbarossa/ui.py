"""What the window asks Barbarossa beyond its commands (the front end's hooks, specified in
app/uihooks.py; optional here, so a game without a window does not need them): the victory
objectives as they stand (seeds, "Victory" form; Barbarossa Special Victory Conditions) and
the set-up areas of the Setup Tray (seeds, "Setup Tray")."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.core.scenario import victory_form

from . import oob
from plugins.rules.units import units

from .setup_naval_units import legal_ports, seas_name
from .state import SCENARIO, ours, victory_rules
from .victory import count_objectives

__all__ = ["setup_areas", "victory_standing"]


@hookimpl(optionalhook=True)
def victory_standing(state):
    if not victory_rules(state):
        return None
    totals, rows = count_objectives(state)
    return victory_form(state, SCENARIO, totals, rows)


@hookimpl(optionalhook=True)
def setup_areas(state, power):
    """Every set-up area of ``power`` with the units the order of battle sets up there, then its
    ships by the seas whose ports they set up in (16.3: "Any Russian Baltic Sea port"...)."""
    if not ours(state):
        return None
    data = oob.scenario_data()
    members: dict[str, list[str]] = {}
    for u in oob.all_units(state):
        if u.power == power:
            members.setdefault(u.area, []).append(u.id)
    areas = [{"id": area_id, "name": area.name, "units": members.get(area_id, []),
              "hexes": [list(h) for h in sorted(oob.area_hexes(area_id))]}
             for area_id, area in data.areas.items() if area.power == power]
    fleets: dict[tuple[str, ...], list[str]] = {}
    for ship in oob.naval_data().units:
        if ship.power == power:
            fleets.setdefault(tuple(ship.setup_seas), []).append(ship.id)
    counters = units(state).units
    for seas, ids in fleets.items():  # the area's hexes: the ports its ships may set up in now
        ports = sorted({h for uid in ids if uid in counters for h in legal_ports(state, power, counters[uid])})
        name = seas_name(seas).removeprefix("the ")
        areas.append({"id": "ports-" + "-".join(seas), "name": f"Ports on the {name}", "units": ids,
                      "hexes": [list(h) for h in ports]})
    return areas
