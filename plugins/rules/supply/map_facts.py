"""What a supply trace reads that never changes in a game: the supply data file (ranges by
weather, home countries, nationalities, HQ reorganization costs) and the map's facts about each
hex, kept once per process (seeds, "Supply Sources and Paths"; "Reorganize Units")."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from plugins.rules import core
from plugins.rules.land.movement import _adjacent as land_adjacent

DATA = json.loads((Path(__file__).parent / "data" / "supply.json").read_text(encoding="utf-8"))
RANGE: dict[str, int] = DATA["range"]
MAX_RANGE = max(RANGE.values())
MIN_RANGE = min(RANGE.values())
HOME_COUNTRIES: dict[str, list[str]] = DATA["home_countries"]
NATIONALITY_COUNTRIES: dict[str, str] = DATA["nationality_countries"]
# Reorganize Units, By HQ: the range is in *motorized* movement points, a cost table of its
# own (land movement has no motorized costs yet); weather and frozen terrain are land's.
MOTORIZED_COST: dict[str, int] = DATA["motorized_cost"]
REORG_COST: int = DATA["reorg_cost"]
DESERTS = ("desert", "desert mountain")
UNLIMITED = 10_000
ALWAYS_SUPPLIED_TYPES = {"partisan"}  # Partisans: "they are always in supply" (L4101, L4224)


# ---------------------------------------------------------------- static map facts (cached)
@cache
def _rail_edges() -> frozenset:
    edges = set()
    for line in core.world_map().rails:
        for a, b in zip(line.hexes, line.hexes[1:]):
            edges.add((a, b))
            edges.add((b, a))
    return frozenset(edges)


@cache
def _hex_facts(hex_) -> tuple[str, int, str | None, bool]:
    """(terrain, weather zone, country code, railway hex)."""
    m = core.world_map()
    return m.terrain(hex_), m.weather_zone(hex_), m.country_code(hex_), bool(m.rails_at(hex_))


@cache
def _adjacent(hex_) -> tuple[tuple[tuple[int, int], bool, bool, bool], ...]:
    """(neighbour, lake hexside, straits hexside, railway edge) for each neighbour: land's
    neighbour table (one table of the map's neighbours and hexside features, land movement's)
    with the railway edges supply paths read."""
    rails = _rail_edges()
    return tuple((n, kind == "lake", kind == "strait", (hex_, n) in rails) for n, kind in land_adjacent(hex_))


@cache
def _node(hex_) -> tuple[int, tuple, tuple]:
    """What a supply search reads of a hex it expands, in one lookup: the cost of entering it
    (2 for desert and desert mountain, else 1), its neighbours as (neighbour, lake hexside, free
    on a railway path) and the free ones alone.  A railway path enters a hex along a railway, or
    across a straits between two railway hexes, for free ("Railway supply paths")."""
    terrain, _zone, _country, rail = _hex_facts(hex_)
    edges = tuple((n, lake_side, rail_edge or (straits and rail and _hex_facts(n)[3]))
                  for n, lake_side, straits, rail_edge in _adjacent(hex_))
    return 2 if terrain in DESERTS else 1, edges, tuple(e for e in edges if e[2])


@cache
def _cities_of(country: str) -> tuple[tuple[int, int], ...]:
    return tuple(c.hex for c in core.world_map().cities.values() if c.country == country)


@cache
def _capital_of(country: str) -> tuple[int, int] | None:
    m = core.world_map()
    info = m.countries.get(country)
    city = m.city(info.capital) if info and info.capital else None
    return city.hex if city else None


def home_countries(power: str) -> list[str]:
    return list(HOME_COUNTRIES.get(power, []))


def country_of_nationality(nationality: str) -> str | None:
    """The home country (map code) of a unit of ``nationality``: Supply Sources and Paths,
    "any friendly city in the unit's unconquered home country" is a primary source."""
    if not nationality:
        return None
    found = core.world_map().country(NATIONALITY_COUNTRIES.get(nationality, nationality))
    return found.code if found else None


def warm_map_facts() -> int:
    """Fill the tables above for every land hex of the map at once (a server does it as it
    starts, app/net/warmup.py), so no game's first supply trace pays for them.  The number of
    land hexes."""
    m = core.world_map()
    count = 0
    for hex_ in m.grid.all_hexes():
        if m.is_land(hex_):
            _node(hex_)
            count += 1
    return count
