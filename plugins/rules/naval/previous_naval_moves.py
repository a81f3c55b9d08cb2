"""Previous Naval Moves: a naval unit set up at sea, as if it stayed there at the end of the
turn before the game starts.

Ships in Flames (seed 001) L1125-1133, "16.1.1 Previous Naval Moves": "you can make a naval
move with them before the next major power sets up.  Because this represents units which
stayed at sea at the end of the last turn, the units must end in a sea box section at least 1
below what they could have reached ... Neutral major powers can only use this free move to
start convoy points at sea ... Units which take advantage of this free move cannot carry
cargoes (except CVs can still carry carrier planes)."  The computer edition (seed 000)
L6715-6735, "Setup Tray", Naval Units: "All naval units placed at sea during setup are assumed
to have stayed at sea from the 'previous' turn ... moved down one sea box section during the
return to base phase ... Convoys and ASW units can remain at sea indefinitely, staying in the
zero section box ... it needs to be capable of legally moving from that port to the sea area
in which it sets up."

So a unit may set up in a section of a sea area when, from one of the ports it may set up in
(the scenario's to say), Naval Movement lets it reach a higher section there
(``highest_section``: range, movement allowance, search numbers, straits; the origin port's
ice and the scenario's closed sea areas as a move is checked), and staying at sea would have
brought it down to this one (Return To Base's ``section_after_staying``: one section down; a
convoy stays in the 0 section).  The scenario's set-up command asks ``at_sea_setup_problem``
and offers ``at_sea_setup_boxes``.

Authored: no unit type is an ASW unit on this project's counters (data/naval.json), so only
convoys keep the 0 section; the port a unit sailed from "last turn" costs no extra movement
point for other powers' ships in it (Ships in Flames 3.2.2's penalty is for the start of an
impulse, and that port's occupants then are unknown).
"""

from __future__ import annotations

from kernel.events import EventData
from plugins.rules.core import hex_key, world, world_map
from plugins.rules.units import units

from .describe import describes
from .naval_combat_results_form import names
from .iced_in_ports import iced_in_problem
from .naval_movement_moving_naval_units import closed_area_problem, destination_label, highest_section, unit_problem
from .naval_units import aboard, is_carrier_air, is_convoy, label
from .return_to_base import section_after_staying
from .sea_box_section import area_distances, area_name, areas_of_port, sections_of
from .state import naval, rules

RULE = "16.1.1 Previous Naval Moves"


def neutral_major_power(state, power: str) -> bool:
    """At war with no one (16.1.1's "Neutral major powers")."""
    return not any(power in pair for pair in world(state).at_war)


def _cargo(state, unit) -> list[str]:
    every = units(state).units
    return [c for c in aboard(state, unit.id) if not is_carrier_air(every[c])]


def _origins(state, ports) -> list[tuple[str, str | None]]:
    """(port key "col,row", why no ship moves out of it now: its ice) for each port."""
    return [(hex_key(h), iced_in_problem(state, h)) for h in ports]


def _reach(state, unit, origins, area: str, host=None, refusals: dict | None = None) -> tuple[int | None, str, str]:
    """(the highest section of ``area`` ``unit`` reaches from one of the ports ``origins``
    (``_origins``), that port's key, why not from the first port when none reaches it)."""
    best, best_port, why = None, "", ""
    own = frozenset({unit.power})  # Authored: no foreign-port penalty (the module's docstring)
    for origin, iced in origins:
        problem = iced or closed_area_problem(state, host, origin, area, refusals)
        top = None if problem else highest_section(state, unit, origin, area, own)
        if top is None:
            why = why or problem or unit_problem(state, unit, origin, area, 0, own) or ""
        elif best is None or top > best:
            best, best_port = top, origin
    return best, best_port, why


def _setup_sections(unit, top: int | None) -> range:
    """The sections a unit that reached ``top`` may set up in: each one staying at sea brings it to."""
    last = None if top is None else section_after_staying(unit, top)
    if last is None:
        return range(0)
    return range(0, 1) if is_convoy(unit) else range(0, last + 1)


def at_sea_setup_problem(state, power: str, unit, ports, area: str, section: int, host=None) -> str | None:
    """Why ``power`` may not set ``unit`` up at sea in ``area``'s ``section`` (16.1.1), when it
    may set up in the ports at the hexes ``ports``; or None."""
    if unit.power != power:
        return f"{RULE}: {label(state, unit.id)} is {unit.power}'s; {power} cannot set it up"
    if unit.branch != "naval":
        return f"{RULE}: only naval units set up at sea; {label(state, unit.id)} is no naval unit"
    if area not in world_map().sea_areas:
        return f"{RULE}: {area!r} is no sea area"
    if section not in sections_of(area):
        return f"{RULE}: {area_name(area)} has sections {sections_of(area).start}-{sections_of(area).stop - 1}, not {section}"
    if _cargo(state, unit):
        return (f"{RULE}: units which take this free move cannot carry cargoes (except CVs their carrier "
                f"planes); {label(state, unit.id)} carries {', '.join(label(state, c) for c in _cargo(state, unit))}")
    if neutral_major_power(state, power) and not is_convoy(unit):
        return f"{RULE}: neutral major powers can only use this free move to start convoy points at sea ({power} is neutral)"
    ports = list(ports)
    if not ports:
        return f"{RULE}: {label(state, unit.id)} has no port it may set up in, so none it sailed from"
    top, origin, why = _reach(state, unit, _origins(state, ports), area, host)
    if top is None:
        return (f"{RULE}: {label(state, unit.id)} could not have reached {area_name(area)} from a port it may set "
                f"up in ({why})")
    allowed = _setup_sections(unit, top)
    if section not in allowed:
        if not allowed:
            return (f"{RULE}: {label(state, unit.id)} reaches only the 0 section of {area_name(area)} (from "
                    f"{destination_label(origin)}); it must end at least 1 section below, so it cannot set up there")
        return (f"{RULE}: {label(state, unit.id)} could have reached section {top} of {area_name(area)} (from "
                f"{destination_label(origin)}); it sets up in a section at least 1 below what it could have "
                f"reached" + (" (a convoy: the 0 section)" if is_convoy(unit) else f": {allowed.stop - 1} at most")
                + f", not {section}")
    return None


def at_sea_setup_boxes(state, power: str, unit, ports, host=None) -> list[tuple[str, int]]:
    """Every (sea area, section) ``unit`` may set up in at sea (16.1.1), by area then section."""
    if unit.power != power or unit.branch != "naval" or _cargo(state, unit):
        return []
    if neutral_major_power(state, power) and not is_convoy(unit):
        return []
    ports = list(ports)
    reach = unit.factors.get("range", 0)
    # the sea areas within range of a port (range_cost = areas entered)
    areas = sorted({a for h in ports for s in areas_of_port(h) for a, d in area_distances(s).items() if d < reach})
    refusals: dict = {}
    origins = _origins(state, ports)
    out = []
    for area in areas:
        top, _, _ = _reach(state, unit, origins, area, host, refusals)
        out.extend((area, s) for s in _setup_sections(unit, top))
    return out


# ---------------------------------------------------------------- taken from the sea at set-up
@rules.event
class ShipsTakenFromSea(EventData):
    """Units set up at sea that their player placed again in a port before finishing the set-up
    (not a naval move): they are in no sea box any more."""

    units: list[str]


@rules.reducer("ShipsTakenFromSea")
def _taken_from_sea(state, event):
    for u in event.data["units"]:
        naval(state).at_sea.pop(u, None)


@describes("ShipsTakenFromSea")
def _say_taken(event, state):
    return f"{names(state, event.data['units'])} set up in port instead of at sea"
