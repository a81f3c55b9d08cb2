"""Setting up Barbarossa's ships in the Setup Tray (Ships in Flames "16.1 Set Up Rules", Naval
units; "16.3 1941 Barbarossa Scenario", Place on Map).

16.1: "Set up each naval unit (including convoy points) in a port controlled by its major power
(unless other ports are specified in the set up).  Make sure you don't exceed stacking."  16.3
names the sea: "Any Russian Baltic Sea port", "Any Russian Black Sea port", Germany's "Baltic
Sea" and "Black Sea"; the data file's ``setup_seas`` says which sea areas each ship's ports
open on (its header: how 16.3's "European map" is read).

A ship waits in its power's setup tray like a land unit and is placed with the same
``PlaceUnit`` (setup_tray.py asks ``ship_placement_problem`` for a naval unit); its hexes are
ports.  Iced-in ports are allowed: "Weather Report" forbids moving into or out of one, and
setting up is no move (16.3's "any Russian Baltic Sea port" includes iced Leningrad).

At sea (Ships in Flames 16.1.1 Previous Naval Moves; seed 000 "Setup Tray" L6715-6735: "based
on the ports in their assigned setup area"): a ship may instead set up in a sea box it could
have reached from one of its set-up ports, however full (``sailing_ports``), one section below
(the naval plugin's ``at_sea_setup_problem``); setup_tray_at_sea.py's ``PlaceUnitAtSea`` asks
``ship_at_sea_problem`` and offers ``legal_seas``.
"""

from __future__ import annotations

from functools import cache

from plugins.rules.core import hex_controller, world_map
from plugins.rules.naval.naval_movement import port_room_problem
from plugins.rules.naval.previous_naval_moves import RULE as PREVIOUS
from plugins.rules.naval.previous_naval_moves import at_sea_setup_boxes, at_sea_setup_problem
from plugins.rules.naval.sea_box_section import areas_of_port, port_at, ports_of_area

from . import oob

RULE = "16.1 Set Up Rules"


def is_scenario_ship(unit_id: str) -> bool:
    return unit_id in oob.ship_data()


def seas_name(codes) -> str:
    """'the Baltic Sea', 'the Baltic Sea or the Black Sea'."""
    return " or ".join(f"the {world_map().sea_areas[c].name}" for c in codes)


@cache
def setup_ports(unit_id: str) -> tuple[tuple[int, int], ...]:
    """The port hexes on the ship's ``setup_seas`` (before control and stacking), by row then
    column; the map does not change, so once per process."""
    seas = oob.ship_data()[unit_id].setup_seas
    hexes = {tuple(port.hex) for code in seas for port in ports_of_area(code)}
    return tuple(sorted(hexes, key=lambda h: (h[1], h[0])))


def ship_placement_problem(state, power: str, unit, hex_) -> str | None:
    """Why ``power`` may not set ``unit`` (a ship of 16.3, in its tray) up in ``hex_``, or None
    ("Make sure you don't exceed stacking": the naval plugin's ``port_room_problem``)."""
    return setup_port_problem(state, power, unit, hex_) or port_room_problem(state, tuple(hex_), [unit])


def setup_port_problem(state, power: str, unit, hex_) -> str | None:
    """Why the port at ``hex_`` is none ``power``'s ``unit`` may set up in (its sea, its
    control), whatever the port holds; or None."""
    hex_ = tuple(hex_)
    ship = oob.ship_data()[unit.id]
    port = port_at(hex_) if 0 <= hex_[1] < world_map().grid.rows else None
    if port is None:
        return f"{RULE}: a naval unit sets up in a port; {hex_} is no port"
    if not set(areas_of_port(hex_)) & set(ship.setup_seas):
        return (f"16.3 1941 Barbarossa Scenario: the {ship.name} sets up in a port on {seas_name(ship.setup_seas)}; "
                f"{port.name} is not one")
    owner = hex_controller(state, hex_)
    if owner != power:
        return (f"{RULE}: a naval unit sets up in a port controlled by its major power ({power}); "
                f"{port.name} is controlled by {owner or 'a neutral country'}")
    return None


def legal_ports(state, power: str, unit) -> list[tuple[int, int]]:
    return [h for h in setup_ports(unit.id) if ship_placement_problem(state, power, unit, h) is None]


def default_port(state, power: str, unit) -> tuple[int, int] | None:
    """The ship's saved default port if it may set up there, else its legal port nearest it."""
    default = oob.port_hex(oob.ship_data()[unit.id])
    if ship_placement_problem(state, power, unit, default) is None:
        return default
    grid = world_map().grid
    return min(legal_ports(state, power, unit), key=lambda h: (grid.distance(default, h), h[1], h[0]), default=None)


def port_label(hex_) -> str:
    port = port_at(tuple(hex_))
    return f"{hex_[0]},{hex_[1]} ({port.name}, {port.port} port on {seas_name(areas_of_port(tuple(hex_)))})"


def ship_preview(state, unit) -> dict:
    ship = oob.ship_data()[unit.id]
    return {"seas": list(ship.setup_seas), "area": f"ports on {seas_name(ship.setup_seas)}",
            "default_port": ship.at}


# ---------------------------------------------------------------- at sea (16.1.1)
def sailing_ports(state, power: str, unit) -> list[tuple[int, int]]:
    """The ports a ship set up at sea may have sailed from (seed 000, "Setup Tray": "based on
    the ports in their assigned setup area"): those it may set up in, however full."""
    return [h for h in setup_ports(unit.id) if setup_port_problem(state, power, unit, h) is None]


def sea_key(area: str, section: int) -> str:
    return f"{area}:{section}"


def parse_sea(sea: str) -> tuple[str, int] | None:
    """``"AREA:section"`` -> (area, section), or None when it is not written so."""
    area, colon, section = str(sea).partition(":")
    if not colon or not section.isdigit():
        return None
    return area, int(section)


def sea_label(sea: str) -> str:
    """'At sea: Baltic Sea, section 1'."""
    area, section = parse_sea(sea)
    found = world_map().sea_areas.get(area)
    return f"At sea: {found.name if found else area}, section {section}"


def ship_at_sea_problem(state, power: str, unit, sea: str, host=None) -> str | None:
    """Why ``power`` may not set ``unit`` (a ship of 16.3) up at sea in ``sea`` ("AREA:section"),
    or None: the naval plugin's 16.1.1 from the ports it may set up in."""
    parsed = parse_sea(sea)
    if parsed is None:
        return f'{PREVIOUS}: {sea!r} is no sea box; write "AREA:section" (e.g. "BA:1")'
    area, section = parsed
    return at_sea_setup_problem(state, power, unit, sailing_ports(state, power, unit), area, section, host)


def legal_seas(state, power: str, unit, host=None) -> list[str]:
    """The sea boxes "AREA:section" ``unit`` may set up in (16.1.1)."""
    return [sea_key(a, s) for a, s in at_sea_setup_boxes(state, power, unit, sailing_ports(state, power, unit), host)]
