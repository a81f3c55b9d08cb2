"""The sea as the greedy bot reads it off the world map (data, not a rule): the sea areas beside a
hex or a port, how many areas apart two places are, and a naval move's origin or destination as
sea areas (app/bot_sea.py and app/bot_carrier_air.py use them)."""

from __future__ import annotations

from collections import deque
from functools import cache


@cache
def _world():
    from kernel.worldmap import WorldMap

    return WorldMap()


@cache
def coastal_areas(hex_: tuple[int, int]) -> frozenset[str]:
    """The sea areas with a sea hex beside ``hex_`` (ships there can reach it)."""
    m = _world()
    out = set()
    for n in [hex_, *m.grid.neighbours(hex_)]:
        code = m.sea_area_code(tuple(n)) if m.is_sea(tuple(n)) else None
        if code:
            out.add(code)
    return frozenset(out)


@cache
def _port_areas(hex_: tuple[int, int]) -> frozenset[str]:
    """The sea areas whose list of ports names the port at ``hex_`` (or that touch it)."""
    m = _world()
    port = m.port_at(hex_)
    named = {code for code, area in m.sea_areas.items() if port is not None and port.name in area.ports}
    return frozenset(named) or coastal_areas(hex_)


@cache
def _distances(targets: frozenset[str]) -> dict[str, int]:
    """Sea area -> how many areas away the nearest of ``targets`` is (through adjacent areas)."""
    areas = _world().sea_areas
    dist = {t: 0 for t in targets if t in areas}
    todo = deque(dist)
    while todo:
        a = todo.popleft()
        for b in areas[a].adjacent:
            if b in areas and b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def _hex(key: str) -> tuple[int, int]:
    col, row = key.split(",")
    return int(col), int(row)


def place_areas(place: str) -> frozenset[str]:
    """A naval move's origin or destination as sea areas: "CS" or "CS:2" (at sea) or "col,row"
    (a port: the areas it opens on)."""
    if "," in place:
        return _port_areas(_hex(place))
    return frozenset([place.split(":")[0]])
