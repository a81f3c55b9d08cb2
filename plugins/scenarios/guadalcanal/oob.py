"""Guadalcanal's authored data (``data/order_of_battle.json``; its ``source`` and
``approximations`` fields say where each value comes from): the order of battle, the
playable area, the political state of May/June 1942 and the victory points.  Loaded once
per process, validated by pydantic; read-only.

Public functions:
- ``scenario_data()``: the validated data;
- ``unit_hex(u)``: where a unit of the order of battle sets up or arrives;
- ``place(name)``: the city or port named in a unit's ``at``;
- ``in_play(hex_)``: is a hex inside the Pacific playable area (Scenarios: "limited to just
  the Pacific ... does not include any combat in China or the USSR");
- ``start_control()``: (country -> power, hex -> power) of May/June 1942;
- ``start_controller(hex_)``: who controlled a hex when the game began;
- ``objectives()`` / ``resources()``: the objective hexes and resource points in play;
- ``sea_areas_in_play()``: the sea areas of the playable area.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from plugins.rules.core import world_map
from plugins.rules.naval.naval_units import CARRIER_AIR_TYPES, naval_problem

DATA = Path(__file__).parent / "data" / "order_of_battle.json"
NAVAL_DATA = Path(__file__).parent / "data" / "naval_order_of_battle.json"

LAND_TYPES = {"inf", "hq-i"}
AIR_TYPES = {"ftr", "lnd"}
LAND_FACTORS = {"combat", "move"}
AIR_FACTORS = {"air", "tactical", "strategic", "naval", "range"}


class Start(BaseModel):
    year: int
    bimonth: str
    turns: int


class PlayArea(BaseModel):
    half_map: str
    out_countries: list[str]
    note: str = ""


class HexTransfer(BaseModel):
    to: str
    country: str | None = None
    cols: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    hexes: list[tuple[int, int]] = Field(default_factory=list)
    note: str = ""


class Political(BaseModel):
    countries: dict[str, str]
    conquered: dict[str, str] = Field(default_factory=dict)
    hex_control: list[HexTransfer]
    at_war: list[tuple[str, str]]


class Victory(BaseModel):
    objective_points: int
    cv_points: int
    convoy_areas: list[str]
    convoy_quota: int
    oil_points: int
    resource_points: int
    margins: list[tuple[int, str]]  # (lowest margin, level), highest first


class SeaBox(BaseModel):
    area: str  # sea area code (maps/world/sea_areas.csv)
    section: int  # sea-box section 0-4


class UnitData(BaseModel):
    id: str
    power: str
    nationality: str = ""
    branch: str
    type: str
    size: str = ""
    name: str
    year: int
    factors: dict[str, int]
    flags: list[str] = Field(default_factory=list)
    turn: int  # 1: sets up at the start; N > 1: arrives on turn N (Reinforcements)
    at: str = ""  # the city or port where it sets up or arrives
    sea: SeaBox | None = None  # a naval unit at sea: where it starts (created in port ``at`` first)
    aboard: str = ""  # a carrier air unit: the carrier it starts aboard; a land unit: its transport
    pool: str = ""  # "repair": a naval unit that starts in its power's repair pool (16.4 "Repair pool")

    def problem(self) -> str | None:
        """Why this is not a valid Guadalcanal counter, or None (naval counters in the naval
        plugin's format: ``naval_units.naval_problem``)."""
        if self.branch == "naval":
            return naval_problem(self.model_dump())
        if self.branch == "air" and self.type in CARRIER_AIR_TYPES:
            if set(self.factors) != AIR_FACTORS | {"class"}:
                return f"unit {self.id}: carrier air factors must be {sorted(AIR_FACTORS | {'class'})}"
            if self.aboard or self.turn > 1:
                return None  # a reinforcement without a carrier boards one in port (see __init__._arrive)
            return f"unit {self.id}: a carrier air unit starts aboard a carrier"
        if self.branch == "land":
            if self.type not in LAND_TYPES:
                return f"unit {self.id}: unknown land unit type {self.type!r}"
            if set(self.factors) != LAND_FACTORS:
                return f"unit {self.id}: land factors must be {sorted(LAND_FACTORS)}"
        elif self.branch == "air":
            if self.type not in AIR_TYPES:
                return f"unit {self.id}: unknown air unit type {self.type!r}"
            if set(self.factors) != AIR_FACTORS:
                return f"unit {self.id}: air factors must be {sorted(AIR_FACTORS)}"
        else:
            return f"unit {self.id}: branch {self.branch!r} (land and air units are listed here)"
        return None


class PlaneCount(BaseModel):
    planes: int
    pilots: int = 0


class CarrierPlanes(PlaneCount):
    """Seed 001 16.4 "Carrier Planes" / "Carrier Pilots" of one major power and its carrier
    planes (and pilots) on the production chart, by turn (16.1 "Carrier planes")."""
    arrivals: dict[int, PlaneCount] = Field(default_factory=dict)

    def at_start(self) -> int:
        """16.1: "You can keep one [carrier plane] for every 'Carrier Pilot' you get in the
        scenario. This is true even if you're not playing with Planes in Flames"; plus those due
        in the first turn."""
        first = self.arrivals.get(1)
        return min(self.planes, self.pilots) + (first.planes if first else 0)


class NavalData(BaseModel):
    source: str
    approximations: str
    carrier_planes: dict[str, CarrierPlanes]
    units: list[UnitData]


def carrier_planes_problem(counts: dict[str, CarrierPlanes], listed: list[UnitData], turns: int) -> str | None:
    """Why the carrier air units listed do not match 16.4's carrier planes by power and turn, or None."""
    for power, count in counts.items():
        for turn in range(1, turns + 1):
            due = count.at_start() if turn == 1 else (count.arrivals[turn].planes if turn in count.arrivals else 0)
            have = sum(1 for u in listed if u.power == power and u.type in CARRIER_AIR_TYPES and u.turn == turn)
            if have != due:
                return f"carrier_planes: {power} has {have} carrier air units on turn {turn}; 16.4 gives {due}"
    return None


class ScenarioData(BaseModel):
    source: str
    approximations: str
    unit_types: dict[str, str]
    start: Start
    sides: dict[str, list[str]]
    side_names: dict[str, str]
    power_names: dict[str, str]
    play_area: PlayArea
    political: Political
    victory: Victory
    units: list[UnitData]


def _load(path: Path, model):
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except Exception as exc:  # name the file, as every bad-input error does
        raise ValueError(f"{path}: {exc}") from exc


@cache
def scenario_data() -> ScenarioData:
    """The scenario's data, the naval order of battle's units appended to the land and air ones."""
    data = _load(DATA, ScenarioData)
    naval = _load(NAVAL_DATA, NavalData)
    naval_units = naval.units
    problem = carrier_planes_problem(naval.carrier_planes, naval_units, data.start.turns)
    if problem:
        raise ValueError(f"{NAVAL_DATA}: {problem}")
    powers = {p for ps in data.sides.values() for p in ps}
    by_id: dict[str, UnitData] = {}
    for path, listed in ((DATA, data.units), (NAVAL_DATA, naval_units)):
        for u in listed:
            problem = unit_problem(u, by_id, powers, data.start.turns)
            if problem:
                raise ValueError(f"{path}: {problem}")
            by_id[u.id] = u
    for path, listed in ((DATA, data.units), (NAVAL_DATA, naval_units)):
        for u in listed:
            if not u.aboard:
                continue
            ship = by_id.get(u.aboard)
            kinds = ("cv",) if u.branch == "air" else ("trs", "amph")
            # a carrier plane may be due after its carrier (it boards it in port on arrival)
            if ship is None or ship.type not in kinds or ship.power != u.power or ship.pool \
                    or (ship.turn != u.turn if u.branch != "air" else ship.turn > u.turn):
                raise ValueError(f"{path}: unit {u.id}: {u.aboard!r} is not a {' or '.join(kinds)} of {u.power} "
                                 f"in play on turn {u.turn}")
    data.units = data.units + naval_units
    return data


def unit_problem(u: UnitData, taken: dict, powers: set, turns: int) -> str | None:
    """Why ``u`` is not a valid counter of the order of battle, or None."""
    if u.id in taken:
        return f"unit id {u.id!r} appears twice"
    problem = u.problem()
    if problem:
        return problem
    if u.power not in powers:
        return f"unit {u.id}: {u.power!r} is not a major power of the scenario"
    if not 1 <= u.turn <= turns:
        return f"unit {u.id}: turn {u.turn} is outside turns 1-{turns}"
    if u.pool:
        if u.pool != "repair" or u.branch != "naval" or u.turn != 1 or u.at or u.sea:
            return f"unit {u.id}: pool {u.pool!r}: only a naval unit may start in the repair pool, with no 'at' or 'sea'"
        return None
    if u.aboard or (u.branch == "air" and u.type in CARRIER_AIR_TYPES and not u.at):
        return None
    city = place(u.at)
    if city is None:
        return f"unit {u.id}: {u.at!r} is not a city or port on the map"
    if u.branch == "naval" and not city.port:
        return f"unit {u.id}: {u.at!r} is not a port"
    if u.sea is not None and u.sea.area not in world_map().sea_areas:
        return f"unit {u.id}: {u.sea.area!r} is not a sea area"
    return None


def place(name: str):
    """The city, or else the port without a city (e.g. Port Vila), of that name; None if neither."""
    m = world_map()
    return m.city(name) or m.port(name)


def unit_hex(u: UnitData) -> tuple[int, int]:
    return place(u.at).hex


def power_name(power: str) -> str:
    return scenario_data().power_names.get(power, power)


# ---------------------------------------------------------------- the playable area
@cache
def _out_countries() -> frozenset[str]:
    return frozenset(scenario_data().play_area.out_countries)


def in_play(hex_) -> bool:
    """Scenarios (Guadalcanal): the game is "limited to just the Pacific" and "does not include
    any combat in China or the USSR": the Pacific half-map less those countries."""
    m = world_map()
    hex_ = m.grid.normalize(tuple(hex_))
    area = scenario_data().play_area
    return m.half_map(hex_) == area.half_map and m.country_code(hex_) not in _out_countries()


# ---------------------------------------------------------------- May/June 1942
@cache
def start_control() -> tuple[dict[str, str], dict[tuple[int, int], str]]:
    """(country -> power, hex -> power where it differs from its country's controller)."""
    m = world_map()
    pol = scenario_data().political
    hexes: dict[tuple[int, int], str] = {}
    for t in pol.hex_control:
        for h in t.hexes:
            if not m.is_land(tuple(h)):
                raise ValueError(f"{DATA}: hex_control {t.note!r}: hex {tuple(h)} is not land")
            hexes[tuple(h)] = t.to
        if t.country:
            for h in m.hexes_of_country(t.country):
                h = tuple(h)
                if t.cols and not t.cols[0] <= h[0] <= t.cols[1]:
                    continue
                if t.rows and not t.rows[0] <= h[1] <= t.rows[1]:
                    continue
                if m.is_land(h):
                    hexes[h] = t.to
    return dict(pol.countries), hexes


def start_controller(hex_) -> str | None:
    countries, hexes = start_control()
    hex_ = tuple(hex_)
    return hexes.get(hex_) or countries.get(world_map().country_code(hex_))


@cache
def objectives() -> tuple[tuple[str, tuple[int, int]], ...]:
    """The objective cities of the map ("Victory": the 67, names in red) inside the playable area."""
    return tuple(sorted(((c.name, c.hex) for c in world_map().objectives if in_play(c.hex)),
                        key=lambda c: (c[1][1], c[1][0])))


@cache
def resources() -> tuple[tuple[str, tuple[int, int], str, int], ...]:
    """(place, hex, kind "oil" or "resource", points) of every resource in the playable area."""
    out = []
    for f in world_map().economy:
        h = (f.col, f.row)
        if f.kind in ("oil", "resource") and in_play(h):
            out.append((f.place or f"{h[0]},{h[1]}", h, f.kind, f.count))
    return tuple(sorted(out, key=lambda r: (r[1][1], r[1][0])))


@cache
def sea_areas_in_play() -> frozenset[str]:
    """The sea areas wholly on the Pacific half-map: where Guadalcanal's ships may sail (the
    Indian Ocean, Arabian Sea and the Atlantic lie off the scenario)."""
    m = world_map()
    half = scenario_data().play_area.half_map
    return frozenset(code for code in m.sea_areas if all(m.half_map(h) == half for h in m.hexes_of_sea_area(code)))
