"""Sea areas, their sea-box sections and their ports, as the naval rules read the map.

Seeds: "Sea Box Section" (L6350-6402): a stack moving into a sea area is placed in one
section (0-4) for the whole stack; convoys only in the 0 section.  "Naval Movement"
(L13538-13572): naval units move from a port into a sea area, from a sea area to a port,
or from a section to a lower-numbered section of the same sea area.  Ships in Flames 3.2.2:
"A unit's first point out of a port is spent entering a surrounding sea area"; a unit enters
a port only from a surrounding sea area.

Everything here is read from kernel.worldmap (sea areas with their ``sections`` range,
adjacent areas and coastal ports).  ``sections_of`` is the one place a section range is
read, so the map's own section API replaces it when it lands.

A canal port opens on the sea area across its canal too: Ships in Flames 3.2.2 "You can move
naval units directly to Kiel from the North Sea and vice versa. However, Kiel is a coastal hex
only on the Baltic Sea" (and Suez from the Eastern Mediterranean); the canal's control may
close that way (straits_and_canals.passage_problem).
"""

from __future__ import annotations

import json
from collections import deque
from functools import cache
from pathlib import Path

from plugins.rules.core import hex_key, world_map

from .state import data


def sections_of(area: str) -> range:
    """The sea-box sections of ``area`` (0-4 on this map)."""
    return world_map().sea_areas[area].section_range


def search_number(section: int) -> int:
    """The search number printed on a sea-box section (data/naval.json, authored)."""
    return data()["section_search"][str(section)]


def area_name(area: str) -> str:
    found = world_map().sea_areas.get(area)
    return found.name if found else area


@cache
def box_hex(area: str) -> tuple[int, int]:
    """The hex a ship at sea in ``area`` is drawn on: the area's all-sea hex nearest its middle."""
    m = world_map()
    hexes = m.hexes_of_sea_area(area)
    if not hexes:
        raise KeyError(f"sea area {area!r} has no hexes on the map")
    mid_col = sorted(h[0] for h in hexes)[len(hexes) // 2]
    mid_row = sorted(h[1] for h in hexes)[len(hexes) // 2]
    inner = [h for h in hexes if m.is_all_sea(h)] or hexes
    return min(inner, key=lambda h: (m.grid.distance(h, (mid_col, mid_row)), h))


CANALS = Path(__file__).with_name("data") / "straits_and_canals.json"


@cache
def _canal_ports() -> tuple[tuple[str, str], ...]:
    """(port name, sea area) for each port a canal joins to a sea area it has no coast on: the
    passages of data/straits_and_canals.json with a "port:<name>" end."""
    out = []
    for p in json.loads(CANALS.read_text(encoding="utf-8"))["passages"]:
        ports = [end.removeprefix("port:") for end in p["between"] if end.startswith("port:")]
        areas = [end for end in p["between"] if not end.startswith("port:")]
        if len(ports) == 1 and len(areas) == 1:
            out.append((ports[0], areas[0]))
    return tuple(out)


@cache
def _port_areas() -> dict[tuple[int, int], tuple[str, ...]]:
    m = world_map()
    out: dict[tuple[int, int], set[str]] = {}
    for code, area in m.sea_areas.items():
        for name in area.ports:
            port = m.port(name)
            if port is not None:
                out.setdefault(port.hex, set()).add(code)
    for name, code in _canal_ports():
        port = m.port(name)
        if port is None or code not in m.sea_areas:
            raise ValueError(f"{CANALS}: canal passage between port {name!r} and {code!r}: no such port or sea area")
        out.setdefault(port.hex, set()).add(code)
    return {h: tuple(sorted(a)) for h, a in out.items()}


def areas_of_port(hex_) -> tuple[str, ...]:
    """The sea areas a port opens on (a ship leaving it enters one of them first)."""
    return _port_areas().get(tuple(hex_), ())


def port_at(hex_):
    """The port (a worldmap City with ``port`` "major"/"minor") at ``hex_``, or None: a
    city's port or a port without a city (the map's minor ports are mostly the latter)."""
    return world_map().port_at(tuple(hex_))


def ports_of_area(area: str) -> list:
    return list(_ports_of_area(area))


@cache
def _ports_of_area(area: str) -> tuple:
    m = world_map()
    names = list(m.sea_areas[area].ports) + [n for n, a in _canal_ports() if a == area and n not in m.sea_areas[area].ports]
    return tuple(p for p in (m.port(n) for n in names) if p is not None)


@cache
def ports_by_distance(area: str) -> tuple[tuple[int, str, object], ...]:
    """Every port on a sea area reachable from ``area``, once, as (sea areas from ``area`` to
    the nearest area the port opens on, its hex key "col,row", the port), nearest first (the
    map is read-only, so this is worked out once per area)."""
    seen: dict[str, tuple[int, str, object]] = {}
    for other, d in area_distances(area).items():
        for port in _ports_of_area(other):
            key = hex_key(port.hex)
            if key not in seen or d < seen[key][0]:
                seen[key] = (d, key, port)
    return tuple(sorted(seen.values(), key=lambda entry: (entry[0], entry[1])))


@cache
def area_distances(area: str) -> dict[str, int]:
    """Sea areas reachable from ``area`` through adjacent sea areas -> how many areas entered."""
    m = world_map()
    dist = {area: 0}
    todo = deque([area])
    while todo:
        a = todo.popleft()
        for b in m.sea_areas[a].adjacent:
            if b not in dist and b in m.sea_areas:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist
