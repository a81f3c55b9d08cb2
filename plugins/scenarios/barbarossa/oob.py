"""Barbarossa's authored data: order of battle, setup areas, starting political state,
objectives (``data/order_of_battle.json``; its ``source`` and ``approximations`` fields say
where each value comes from).  Loaded once per process, validated by pydantic; read-only.

Public functions other plugins and tools may use:
- ``scenario_data()``: the validated data (units, areas, political, objectives);
- ``area_hexes(area_id)``: the land hexes of a setup area (before the control test);
- ``start_control()``: (country -> power, hex -> power) of June 1941;
- ``east_european_cities()`` / ``objective_values()``: the Barbarossa victory objectives;
- ``naval_data()`` / ``ship_data()`` / ``port_hex(ship)``: Ships in Flames 16.3's fleets
  (``data/naval_order_of_battle.json``);
- ``sea_areas_in_play()``: the sea areas Barbarossa's ships may sail (the partial map at sea).
"""

from __future__ import annotations

import json
import threading
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from plugins.rules.core import world_map
from plugins.rules.naval.naval_units import naval_problem
from plugins.rules.naval.sea_box_section import ports_of_area

DATA = Path(__file__).parent / "data" / "order_of_battle.json"
NAVAL_DATA = Path(__file__).parent / "data" / "naval_order_of_battle.json"

LAND_TYPES = {"inf", "mtn", "cav", "arm", "mech", "hq-i", "hq-a"}
AIR_TYPES = {"ftr", "lnd"}
LAND_FACTORS = {"combat", "move"}
# an AA division's anti-aircraft value (Anti-Air Fire; the optional rule Anti-aircraft and anti-tank units)
OPTIONAL_LAND_FACTORS = {"aa"}
AIR_FACTORS = {"air", "tactical", "strategic", "naval", "range"}


class Clause(BaseModel):
    countries: list[str]
    cols: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    cities: bool = False


class Area(BaseModel):
    name: str
    power: str
    note: str = ""
    clauses: list[Clause]


class Transfer(BaseModel):
    to: str
    country: str
    lon_min: float | None = None
    lat_max: float | None = None
    rows: tuple[int, int] | None = None
    note: str = ""


class Political(BaseModel):
    countries: dict[str, str]
    transfers: list[Transfer]
    at_war: list[tuple[str, str]]


class UnitData(BaseModel):
    id: str
    power: str
    nationality: str = ""
    branch: str
    type: str
    size: str
    name: str
    year: int
    factors: dict[str, int]
    flags: list[str] = Field(default_factory=list)
    turn: int  # 1: set up at the start; N > 1: arrives as a reinforcement on turn N
    area: str
    hex: tuple[int, int]  # default position (the saved default setup)

    def check(self, land_types=LAND_TYPES) -> None:
        if self.branch == "land":
            if land_types is not None and self.type not in land_types:  # None: any (added units)
                raise ValueError(f"unit {self.id}: unknown land unit type {self.type!r}")
            if set(self.factors) - OPTIONAL_LAND_FACTORS != LAND_FACTORS:
                raise ValueError(f"unit {self.id}: land factors must be {sorted(LAND_FACTORS)} "
                                 f"(and may add {sorted(OPTIONAL_LAND_FACTORS)})")
        elif self.branch == "air":
            if self.type not in AIR_TYPES:
                raise ValueError(f"unit {self.id}: unknown air unit type {self.type!r}")
            if set(self.factors) != AIR_FACTORS:
                raise ValueError(f"unit {self.id}: air factors must be {sorted(AIR_FACTORS)}")
        else:
            raise ValueError(f"unit {self.id}: branch {self.branch!r} (Barbarossa has land and air units only)")


class ScenarioData(BaseModel):
    source: str
    approximations: str
    unit_types: dict[str, str]
    objectives: list[str]
    east_europe: dict[str, int]
    setup_order: list[str]
    areas: dict[str, Area]
    political: Political
    units: list[UnitData]

    def unit(self, unit_id: str) -> UnitData | None:
        return self.by_id.get(unit_id)

    @property
    def by_id(self) -> dict[str, UnitData]:
        return _by_id()


@cache
def scenario_data() -> ScenarioData:
    try:
        data = ScenarioData.model_validate(json.loads(DATA.read_text()))
    except Exception as exc:  # name the file, as every bad-input error does
        raise ValueError(f"{DATA}: {exc}") from exc
    seen = set()
    for u in data.units:
        if u.id in seen:
            raise ValueError(f"{DATA}: unit id {u.id!r} appears twice")
        seen.add(u.id)
        u.check()
        if u.area not in data.areas:
            raise ValueError(f"{DATA}: unit {u.id}: unknown setup area {u.area!r}")
        if data.areas[u.area].power != u.power:
            raise ValueError(f"{DATA}: unit {u.id}: area {u.area!r} belongs to {data.areas[u.area].power}")
    return data


class ShipData(BaseModel):
    """A naval counter of 16.3 in the naval plugin's format: its owner sets it up in a port on one
    of ``setup_seas`` (setup_naval_units.py); ``at`` is its saved default port."""
    id: str
    power: str
    nationality: str = ""
    type: str
    name: str
    year: int
    factors: dict[str, int]
    at: str
    setup_seas: list[str]

    def problem(self, powers: set[str]) -> str | None:
        """Why this is not a valid Barbarossa ship, or None (16.1 "Set up each naval unit
        (including convoy points) in a port controlled by its major power")."""
        problem = naval_problem({**self.model_dump(), "branch": "naval"})
        if problem:
            return problem
        if self.power not in powers:
            return f"ship {self.id}: {self.power!r} is not a major power of Barbarossa"
        city = world_map().city(self.at)
        if city is None or not city.port:
            return f"ship {self.id}: {self.at!r} is not a port on the map"
        if not self.setup_seas:
            return f"ship {self.id}: setup_seas is empty (the sea areas of the ports it may set up in)"
        return None


class NavalData(BaseModel):
    source: str
    approximations: str
    sea_areas_in_play: list[str]
    units: list[ShipData]


@cache
def naval_data() -> NavalData:
    """Ships in Flames 16.3's fleets (``data/naval_order_of_battle.json``), loaded once."""
    return load_naval_data(NAVAL_DATA)


def load_naval_data(path: Path) -> NavalData:
    """A fleets file, checked: ids unique and apart from the land and air counters', naval
    factors, ports on the map, sea areas on the map; an error names the file."""
    try:
        data = NavalData.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except Exception as exc:  # name the file, as every bad-input error does
        raise ValueError(f"{path}: {exc}") from exc
    powers = {a.power for a in scenario_data().areas.values()}
    taken = set(_by_id())
    for u in data.units:
        if u.id in taken:
            raise ValueError(f"{path}: unit id {u.id!r} appears twice")
        taken.add(u.id)
        problem = u.problem(powers)
        if problem:
            raise ValueError(f"{path}: {problem}")
    for code in data.sea_areas_in_play:
        if code not in world_map().sea_areas:
            raise ValueError(f"{path}: sea_areas_in_play: {code!r} is not a sea area of the map")
    for u in data.units:
        off_map = [code for code in u.setup_seas if code not in data.sea_areas_in_play]
        if off_map:
            raise ValueError(f"{path}: ship {u.id}: setup_seas {off_map} are not in sea_areas_in_play")
        if u.at not in {port.name for code in u.setup_seas for port in ports_of_area(code)}:
            raise ValueError(f"{path}: ship {u.id}: its default port {u.at!r} is not on its setup_seas {u.setup_seas}")
    return data


@cache
def ship_data() -> dict[str, ShipData]:
    """unit id -> its 16.3 data."""
    return {u.id: u for u in naval_data().units}


def port_hex(ship: ShipData) -> tuple[int, int]:
    return tuple(world_map().city(ship.at).hex)


@cache
def sea_areas_in_play() -> frozenset[str]:
    """The seas 16.3 puts the fleets in (the Baltic Sea, the Black Sea): Barbarossa's map at sea."""
    return frozenset(naval_data().sea_areas_in_play)


@cache
def _by_id() -> dict[str, UnitData]:
    return {u.id: u for u in scenario_data().units}


def unit_data(state, unit_id: str) -> UnitData | None:
    """A unit of the order of battle, or one an optional rule added (``ScenarioUnitsAdded``)."""
    added = state["barbarossa"].added.get(unit_id)
    return UnitData.model_validate(added) if added is not None else scenario_data().unit(unit_id)


def all_units(state) -> list[UnitData]:
    """The order of battle and the units optional rules added to it."""
    return scenario_data().units + [UnitData.model_validate(d) for d in state["barbarossa"].added.values()]


def added_unit_problem(data: dict, taken: set[str]) -> str | None:
    """Why a unit an optional rule adds is not a valid Barbarossa counter, or None."""
    try:
        u = UnitData.model_validate(data)
        u.check(land_types=None)
    except (ValueError, TypeError) as exc:
        return f"added unit {data.get('id')!r}: {exc}"
    if u.id in taken:
        return f"added unit {u.id!r}: the id is taken"
    area = scenario_data().areas.get(u.area)
    if area is None or area.power != u.power:
        return f"added unit {u.id!r}: {u.area!r} is not a setup area of {u.power}"
    return None


def _map():
    return world_map()


_AREAS_LOCK = threading.Lock()  # a server decides many games at once, one thread each


def area_hexes(area_id: str) -> frozenset[tuple[int, int]]:
    """The land hexes of a setup area, computed once per process (every area at the first
    call: a game's first placing would pay it otherwise, and every game decided at that
    moment with it)."""
    return _all_area_hexes()[area_id]


def _all_area_hexes() -> dict[str, frozenset[tuple[int, int]]]:
    with _AREAS_LOCK:
        return _compute_area_hexes()


@cache
def _compute_area_hexes() -> dict[str, frozenset[tuple[int, int]]]:
    m = _map()
    return {area_id: _area_hexes(m, area) for area_id, area in scenario_data().areas.items()}


def _area_hexes(m, area: Area) -> frozenset[tuple[int, int]]:
    out = set()
    for clause in area.clauses:
        for code in clause.countries:
            for h in _country_hexes(m, code, clause):
                h = tuple(h)
                if clause.cols and not clause.cols[0] <= h[0] <= clause.cols[1]:
                    continue
                if clause.rows and not clause.rows[0] <= h[1] <= clause.rows[1]:
                    continue
                if not m.is_land(h):
                    continue
                if clause.cities and m.city_at(h) is None:
                    continue
                out.add(h)
    return frozenset(out)


def _country_hexes(m, code: str, clause: Clause) -> list[tuple[int, int]]:
    """The hexes of ``code`` a clause may take: a clause bounded both ways looks only in its box
    (the USSR has some 20,000 hexes; the whole country took most of the areas' time)."""
    if not (clause.cols and clause.rows):
        return m.hexes_of_country(code)
    cols = range(max(0, clause.cols[0]), min(m.grid.cols - 1, clause.cols[1]) + 1)
    rows = range(max(0, clause.rows[0]), min(m.grid.rows - 1, clause.rows[1]) + 1)
    return [(c, r) for r in rows for c in cols if m.country_code((c, r)) == code]


@cache
def start_control() -> tuple[dict[str, str], dict[tuple[int, int], str]]:
    """June 1941: country controllers, and the hexes whose control differs from their
    1939 country's (the 1939-41 annexations)."""
    from kernel.worldmap import hex_to_lonlat

    m = _map()
    pol = scenario_data().political
    hexes: dict[tuple[int, int], str] = {}
    for t in pol.transfers:
        for h in m.hexes_of_country(t.country):
            h = tuple(h)
            lon, lat = hex_to_lonlat(h)
            if t.lon_min is not None and lon < t.lon_min:
                continue
            if t.lat_max is not None and lat > t.lat_max:
                continue
            if t.rows and not t.rows[0] <= h[1] <= t.rows[1]:
                continue
            hexes[h] = t.to
    return dict(pol.countries), hexes


@cache
def east_european_cities() -> tuple[tuple[str, tuple[int, int]], ...]:
    """Every city of the USSR of June 1941 west of the Urals ("East European map portion
    of the USSR (including Bessarabia)", Barbarossa Special Victory Conditions)."""
    m = _map()
    countries, hexes = start_control()
    box = scenario_data().east_europe
    out = []
    for city in m.cities.values():
        h = city.hex
        if h[0] > box["max_col"] or h[1] > box["max_row"]:
            continue
        owner = hexes.get(h) or countries.get(m.country_code(h))
        if owner == "ussr":
            out.append((city.name, h))
    return tuple(sorted(out, key=lambda c: (c[1][1], c[1][0])))


@cache
def objective_values() -> dict[tuple[int, int], tuple[str, int]]:
    """hex -> (name, objectives it is worth): each of the 8 on-map objectives counts 1 and
    each East European USSR city 1 more (Leningrad counts 2)."""
    m = _map()
    out: dict[tuple[int, int], tuple[str, int]] = {}
    for name in scenario_data().objectives:
        city = m.city(name)
        if city is None:
            raise ValueError(f"{DATA}: objective {name!r} is not a city on the map")
        out[city.hex] = (city.name, 1)
    for name, h in east_european_cities():
        prev = out.get(h)
        out[h] = (name, (prev[1] if prev else 0) + 1)
    return out
