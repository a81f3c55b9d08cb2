"""The world map: loads maps/world/* (text layers + CSV tables) and answers questions about it.

The files are written by tools/mapbuild/build.py; their format is described in
maps/README.md. Loading checks everything it reads and refuses bad input with the file,
line and hex named (MapFormatError). Only the standard library and pydantic are used, so
the game and its tests never need the builder's dependencies.
"""

from __future__ import annotations

import csv
import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kernel.hexgrid import DIRECTION_NAMES, WORLD, Hex, HexGrid

MAP_FORMAT_VERSION = 1
DEFAULT_MAP_DIR = Path(__file__).resolve().parents[1] / "maps" / "world"

# One character per terrain class, as written in terrain.txt.
TERRAIN_CODES: dict[str, str] = {
    ".": "sea",
    "~": "lake",
    "c": "clear",
    "f": "forest",
    "j": "jungle",
    "m": "mountain",
    "s": "swamp",
    "d": "desert",
    "D": "desert mountain",
    "t": "tundra",
    "i": "ice",
}

# ----------------------------------------------------------------------------- projection
# Miller cylindrical with regular hexes: 1 column = 1 degree of longitude; rows are sqrt(3)/2
# Miller-degrees apart; row 0's centres lie on 79.7N, so row 194 reaches about 56.7S.
LON_OF_COL0 = -179.5
ROW_SPACING_DEG = math.sqrt(3) / 2


def _miller_y(lat: float) -> float:
    return math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))


def _miller_lat(y: float) -> float:
    return math.degrees(2.5 * math.atan(math.exp(0.8 * math.radians(y))) - 0.625 * math.pi)


MILLER_Y_ROW0 = _miller_y(79.7)


def hex_to_lonlat(hex_: Hex) -> tuple[float, float]:
    """Longitude and latitude of a hex centre."""
    col, row = hex_
    lon = LON_OF_COL0 + col + 0.5 * (row & 1)
    lon = (lon + 180.0) % 360.0 - 180.0
    return lon, _miller_lat(MILLER_Y_ROW0 - row * ROW_SPACING_DEG)


def lonlat_to_pixel(lon: float, lat: float) -> tuple[float, float]:
    """Position in the hex grid's pixel space for hex size 1 (see HexGrid.hex_to_pixel)."""
    x = math.sqrt(3) * ((lon - LON_OF_COL0) % 360.0)
    y = 1.5 * (MILLER_Y_ROW0 - _miller_y(max(-85.0, min(85.0, lat)))) / ROW_SPACING_DEG
    return x, y


def lonlat_to_hex(lon: float, lat: float) -> Hex:
    """The hex containing a point; points beyond the top/bottom rows clamp to them."""
    x, y = lonlat_to_pixel(lon, lat)
    y = max(0.0, min(1.5 * (WORLD.rows - 1), y))
    found = WORLD.pixel_to_hex(x, y, 1.0)
    assert found is not None
    return found


# ----------------------------------------------------------------------------- errors
class MapFormatError(ValueError):
    """A map file that cannot be used. Names the file, the line and, where known, the hex."""

    def __init__(self, path: Path | str, line: int | None, message: str, hex_: Hex | None = None):
        where = f"{path}"
        if line is not None:
            where += f", line {line}"
        if hex_ is not None:
            where += f", hex {hex_[0]},{hex_[1]}"
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.hex = str(path), line, hex_


# ----------------------------------------------------------------------------- records
class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class City(_Record):
    """A city, or a port without a city (kind "port": a harbour the map marks but no city)."""

    name: str = Field(min_length=1)
    col: int
    row: int
    country: str = Field(min_length=2, max_length=2)
    kind: Literal["capital", "city", "port"]
    port: Literal["major", "minor", ""] = ""
    objective: bool = False
    aliases: tuple[str, ...] = ()
    iced_zone: int | None = None  # the weather zone whose snow or blizzard ices the port in

    @field_validator("iced_zone", mode="before")
    @classmethod
    def _zone(cls, value):
        return None if value in ("", None) else value

    @field_validator("objective", mode="before")
    @classmethod
    def _flag(cls, value):
        return value in (True, "1", 1)

    @field_validator("aliases", mode="before")
    @classmethod
    def _split(cls, value):
        if isinstance(value, str):
            return tuple(a for a in value.split(";") if a)
        return value

    @property
    def hex(self) -> Hex:
        return (self.col, self.row)

    @property
    def is_capital(self) -> bool:
        return self.kind == "capital"


class Country(_Record):
    code: str = Field(min_length=2, max_length=2)
    name: str
    controller: str = ""
    hexes: int = Field(ge=0)
    capital: str = ""


class SeaArea(_Record):
    code: str = Field(min_length=2, max_length=2)
    name: str
    hexes: int = Field(ge=0)
    sections: str
    adjacent: tuple[str, ...]
    ports: tuple[str, ...]

    @field_validator("adjacent", mode="before")
    @classmethod
    def _words(cls, value):
        return tuple(value.split()) if isinstance(value, str) else value

    @field_validator("ports", mode="before")
    @classmethod
    def _names(cls, value):
        return tuple(p for p in value.split(";") if p) if isinstance(value, str) else value

    @property
    def section_range(self) -> range:
        low, high = self.sections.split("-")
        return range(int(low), int(high) + 1)


class EconomyFeature(_Record):
    feature: Literal["resource", "factory"]
    kind: Literal["oil", "resource", "factory"]
    col: int
    row: int
    count: int = Field(ge=1)
    place: str


class HexsideFeature(_Record):
    """One hexside feature. For rivers, canals, straits and lakes col,row is the hex that owns
    the edge and side is E, SE or SW. For a fortification (kind "fort") col,row is the
    fortified hex and side any of its six sides: the fort faces out across that side."""

    col: int
    row: int
    side: Literal["E", "SE", "SW", "W", "NW", "NE"]
    kind: Literal["river", "canal", "strait", "lake", "fort"]
    name: str

    @property
    def hex(self) -> Hex:
        return (self.col, self.row)


@dataclass(frozen=True)
class RailLine:
    name: str
    hexes: tuple[Hex, ...]


# ----------------------------------------------------------------------------- loader
_LAYERS = {  # file -> characters per hex
    "terrain": 1,
    "country": 2,
    "sea_area": 2,
    "weather": 1,
    "half_map": 1,
}


def _read_layer(path: Path, grid: HexGrid, width: int) -> tuple[list[str], dict[str, str]]:
    """Row strings and legend of one layer file, checked line by line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapFormatError(path, None, "file is missing") from None
    rows: list[str] = []
    legend: dict[str, str] = {}
    seen_grid = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("@grid"):
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            expect = {"cols": str(grid.cols), "rows": str(grid.rows), "width": str(width)}
            if fields != expect:
                raise MapFormatError(path, number, f"grid header {fields} does not match {expect}")
            seen_grid = True
            continue
        if line.startswith("@code"):
            parts = line.split(" ", 2)
            if len(parts) != 3 or len(parts[1]) != width:
                raise MapFormatError(path, number, f"legend line must be '@code <{width} chars> <name>'")
            legend[parts[1]] = parts[2]
            continue
        if not seen_grid:
            raise MapFormatError(path, number, "data before the @grid header")
        label, bar, data = line.partition("|")
        row = len(rows)
        if not bar or not label.isdigit() or int(label) != row:
            raise MapFormatError(path, number, f"expected row {row:03d} as 'RRR|data'")
        if row >= grid.rows:
            raise MapFormatError(path, number, f"more than {grid.rows} rows")
        if len(data) != grid.cols * width:
            raise MapFormatError(path, number, f"row {row} has {len(data) / width:g} hexes, expected {grid.cols}",
                                 (min(len(data) // width, grid.cols - 1), row))
        for col in range(grid.cols):
            code = data[col * width:(col + 1) * width]
            if code not in legend:
                raise MapFormatError(path, number, f"unknown code {code!r}", (col, row))
        rows.append(data)
    if len(rows) != grid.rows:
        raise MapFormatError(path, None, f"file ends after {len(rows)} rows, expected {grid.rows} (truncated?)")
    return rows, legend


def _read_table(path: Path) -> list[tuple[int, dict]]:
    """CSV rows with their line numbers, comment lines skipped."""
    try:
        handle = open(path, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise MapFormatError(path, None, "file is missing") from None
    with handle:
        numbered = [(n, line) for n, line in enumerate(handle, start=1) if not line.startswith("#")]
    if not numbered:
        raise MapFormatError(path, None, "file is empty")
    reader = csv.reader([line for _, line in numbered])
    header = next(reader)
    out = []
    for (number, _), values in zip(numbered[1:], reader):
        if len(values) != len(header):
            raise MapFormatError(path, number, f"{len(values)} fields, expected {len(header)} ({','.join(header)})")
        out.append((number, dict(zip(header, values))))
    return out


class WorldMap:
    """The loaded map. Read-only after loading."""

    def __init__(self, directory: Path | str = DEFAULT_MAP_DIR, grid: HexGrid = WORLD):
        self.directory = Path(directory)
        self.grid = grid
        layers = {}
        legends = {}
        for name, width in _LAYERS.items():
            layers[name], legends[name] = _read_layer(self.directory / f"{name}.txt", grid, width)
        unknown_terrain = set(legends["terrain"]) - set(TERRAIN_CODES)
        if unknown_terrain:
            raise MapFormatError(self.directory / "terrain.txt", None,
                                 f"legend has unknown terrain codes {sorted(unknown_terrain)}")
        self._terrain = layers["terrain"]
        self._country = layers["country"]
        self._sea = layers["sea_area"]
        self._weather = layers["weather"]
        self._half = layers["half_map"]
        self._load_tables(legends)
        self._check_consistency()

    # -- loading helpers ---------------------------------------------------------------
    def _records(self, filename: str, model):
        path = self.directory / filename
        out = []
        for number, values in _read_table(path):
            try:
                record = model.model_validate(values)
            except ValidationError as error:
                first = error.errors()[0]
                field = ".".join(str(x) for x in first["loc"])
                raise MapFormatError(path, number, f"{field}: {first['msg']}") from None
            if hasattr(record, "col"):
                hex_ = (record.col, record.row)
                if not (0 <= record.row < self.grid.rows and 0 <= record.col < self.grid.cols):
                    raise MapFormatError(path, number, "hex does not exist on the map", hex_)
            out.append((number, record))
        return out

    def _load_tables(self, legends) -> None:
        d = self.directory
        self.countries: dict[str, Country] = {}
        for number, c in self._records("countries.csv", Country):
            if c.code not in legends["country"]:
                raise MapFormatError(d / "countries.csv", number, f"country {c.code} is not in country.txt's legend")
            self.countries[c.code] = c
        self.sea_areas: dict[str, SeaArea] = {}
        for number, s in self._records("sea_areas.csv", SeaArea):
            if s.code not in legends["sea_area"]:
                raise MapFormatError(d / "sea_areas.csv", number, f"sea area {s.code} is not in sea_area.txt's legend")
            self.sea_areas[s.code] = s
        self.cities: dict[str, City] = {}  # cities and capitals (ports too when in a city)
        self.port_towns: dict[str, City] = {}  # ports without a city (kind "port")
        self._city_at: dict[Hex, City] = {}
        self._place_at: dict[Hex, City] = {}
        self._names: dict[str, City] = {}
        self._port_names: dict[str, City] = {}
        for number, c in self._records("cities.csv", City):
            if self.terrain(c.hex) in ("sea", "lake"):
                raise MapFormatError(d / "cities.csv", number, f"city {c.name} is on water", c.hex)
            if c.country not in self.countries:
                raise MapFormatError(d / "cities.csv", number, f"unknown country {c.country}", c.hex)
            if c.hex in self._place_at:
                raise MapFormatError(d / "cities.csv", number, f"two cities in one hex ({c.name})", c.hex)
            if c.kind == "port" and not c.port:
                raise MapFormatError(d / "cities.csv", number, f"{c.name} is a port without a port class", c.hex)
            if c.iced_zone is not None and (not c.port or c.iced_zone != self.weather_zone(c.hex)):
                raise MapFormatError(d / "cities.csv", number,
                                     f"{c.name}: iced_zone {c.iced_zone} must be the weather zone of a port's hex "
                                     f"({self.weather_zone(c.hex)})", c.hex)
            self._place_at[c.hex] = c
            if c.kind == "port":
                self.port_towns[c.name] = c
            else:
                self.cities[c.name] = c
                self._city_at[c.hex] = c
            for key in (c.name, *c.aliases):
                (self._port_names if c.kind == "port" else self._names)[key.casefold()] = c
        self.economy: list[EconomyFeature] = [r for _, r in self._records("economy.csv", EconomyFeature)]
        self._economy_at: dict[Hex, list[EconomyFeature]] = {}
        for f in self.economy:
            self._economy_at.setdefault((f.col, f.row), []).append(f)
        self._hexsides: dict[int, HexsideFeature] = {}
        self._forts: dict[int, HexsideFeature] = {}
        for number, f in self._records("hexsides.csv", HexsideFeature):
            if f.kind != "fort" and f.side not in ("E", "SE", "SW"):
                raise MapFormatError(d / "hexsides.csv", number,
                                     f"a {f.kind} hexside is written by the hex owning it (E, SE or SW), not {f.side}",
                                     (f.col, f.row))
            side = self.grid.hexside((f.col, f.row), DIRECTION_NAMES.index(f.side))
            if side is None:
                raise MapFormatError(d / "hexsides.csv", number, f"{f.side} side is on the map edge", (f.col, f.row))
            if f.kind == "fort":
                if side in self._forts:
                    raise MapFormatError(d / "hexsides.csv", number,
                                         "a second fortification on one hexside (only one is permitted)", (f.col, f.row))
                self._forts[side] = f
            else:
                self._hexsides[side] = f
        self.rails: list[RailLine] = []
        self._rail_hexes: dict[Hex, list[str]] = {}
        path = d / "rails.txt"
        try:
            rail_text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise MapFormatError(path, None, "file is missing") from None
        for number, line in enumerate(rail_text.splitlines(), start=1):
            if not line or line.startswith("#"):
                continue
            name, colon, rest = line.partition(": ")
            if not colon:
                raise MapFormatError(path, number, "expected 'Name: col,row col,row ...'")
            hexes = []
            for token in rest.split():
                try:
                    col, row = (int(v) for v in token.split(","))
                except ValueError:
                    raise MapFormatError(path, number, f"bad hex {token!r}") from None
                if not (0 <= row < self.grid.rows and 0 <= col < self.grid.cols):
                    raise MapFormatError(path, number, "hex does not exist on the map", (col, row))
                hexes.append((col, row))
                self._rail_hexes.setdefault((col, row), []).append(name)
            self.rails.append(RailLine(name, tuple(hexes)))

    def _check_consistency(self) -> None:
        for code, area in self.sea_areas.items():
            for other in area.adjacent:
                if other not in self.sea_areas:
                    raise MapFormatError(self.directory / "sea_areas.csv", None,
                                         f"{area.name} is adjacent to unknown sea area {other}")

    # -- per-hex queries ---------------------------------------------------------------
    def _norm(self, hex_: Hex) -> Hex:
        return self.grid.normalize(hex_)

    def terrain(self, hex_: Hex) -> str:
        col, row = self._norm(hex_)
        return TERRAIN_CODES[self._terrain[row][col]]

    def is_sea(self, hex_: Hex) -> bool:
        col, row = self._norm(hex_)
        return self._terrain[row][col] == "."

    def is_lake(self, hex_: Hex) -> bool:
        col, row = self._norm(hex_)
        return self._terrain[row][col] == "~"

    def is_land(self, hex_: Hex) -> bool:
        col, row = self._norm(hex_)
        return self._terrain[row][col] not in ".~"

    def is_coastal(self, hex_: Hex) -> bool:
        """A land hex with at least one sea neighbour."""
        return self.is_land(hex_) and any(self.is_sea(n) for n in self.grid.neighbours(hex_))

    def is_all_sea(self, hex_: Hex) -> bool:
        """A sea hex whose neighbours are all sea."""
        return self.is_sea(hex_) and all(self.is_sea(n) for n in self.grid.neighbours(hex_))

    def country_code(self, hex_: Hex) -> str | None:
        col, row = self._norm(hex_)
        code = self._country[row][2 * col:2 * col + 2]
        return None if code == ".." else code

    def country_of(self, hex_: Hex) -> Country | None:
        code = self.country_code(hex_)
        return self.countries[code] if code else None

    def sea_area_code(self, hex_: Hex) -> str | None:
        col, row = self._norm(hex_)
        code = self._sea[row][2 * col:2 * col + 2]
        return None if code == ".." else code

    def sea_area_of(self, hex_: Hex) -> SeaArea | None:
        code = self.sea_area_code(hex_)
        return self.sea_areas[code] if code else None

    def weather_zone(self, hex_: Hex) -> int:
        col, row = self._norm(hex_)
        return int(self._weather[row][col])

    def half_map(self, hex_: Hex) -> str:
        col, row = self._norm(hex_)
        return self._half[row][col]

    def city_at(self, hex_: Hex) -> City | None:
        return self._city_at.get(self._norm(hex_))

    def port_at(self, hex_: Hex) -> City | None:
        """The port in a hex (in a city or not), or None."""
        place = self._place_at.get(self._norm(hex_))
        return place if place is not None and place.port else None

    def place_at(self, hex_: Hex) -> City | None:
        """The city or port without a city in a hex, or None."""
        return self._place_at.get(self._norm(hex_))

    def economy_at(self, hex_: Hex) -> list[EconomyFeature]:
        return list(self._economy_at.get(self._norm(hex_), ()))

    def rails_at(self, hex_: Hex) -> list[str]:
        return list(self._rail_hexes.get(self._norm(hex_), ()))

    def hexside_feature(self, side_id: int) -> HexsideFeature | None:
        """The river, canal, strait or lake on a hexside (fortifications: see ``fort``)."""
        return self._hexsides.get(side_id)

    # -- fortifications (kind "fort"; a hexside may also carry a river) --------------------
    def fort(self, side_id: int) -> HexsideFeature | None:
        """The printed fortification on a hexside, or None; its col,row is the fortified hex."""
        return self._forts.get(side_id)

    def fortified_hex(self, side_id: int) -> Hex | None:
        """The hex a fort hexside protects (attacks into it across the side are affected)."""
        f = self._forts.get(side_id)
        return f.hex if f else None

    def fort_hexsides(self) -> dict[int, HexsideFeature]:
        return dict(self._forts)

    def forts_of(self, hex_: Hex) -> list[tuple[str, HexsideFeature]]:
        """(direction name, fort) for every fortified side of ``hex_`` (as the fortified hex)."""
        hex_ = self._norm(hex_)
        out = []
        for d in range(6):
            side = self.grid.hexside(hex_, d)
            f = self._forts.get(side) if side is not None else None
            if f is not None and f.hex == hex_:
                out.append((DIRECTION_NAMES[d], f))
        return out

    def hexside_kind(self, side_id: int) -> str:
        """'all-sea', 'coastal' or 'land' from the hexes either side."""
        a, b = self.grid.hexside_hexes(side_id)
        sea = self.is_sea(a) + self.is_sea(b)
        return ("land", "coastal", "all-sea")[sea]

    def hexsides_of(self, hex_: Hex) -> list[tuple[str, HexsideFeature]]:
        """(direction name, feature) for every side of the hex that carries a feature."""
        out = []
        for d in range(6):
            side = self.grid.hexside(hex_, d)
            if side is not None and side in self._hexsides:
                out.append((DIRECTION_NAMES[d], self._hexsides[side]))
        return out

    def hexsides_named(self, name: str) -> list[int]:
        """Hexsides carrying the named river, canal, strait, lake or fortification line."""
        key = name.casefold()
        return sorted({s for table in (self._hexsides, self._forts) for s, f in table.items()
                       if f.name.casefold() == key})

    def hexside_features(self) -> dict[int, HexsideFeature]:
        return dict(self._hexsides)

    def hexes_of_sea_area(self, code: str) -> list[Hex]:
        out = []
        for row, text in enumerate(self._sea):
            start = 0
            while True:
                i = text.find(code, start)
                if i < 0:
                    break
                if i % 2 == 0:
                    out.append((i // 2, row))
                start = i + 1
        return out

    def hexes_of_country(self, code: str) -> list[Hex]:
        out = []
        for row, text in enumerate(self._country):
            for col in range(self.grid.cols):
                if text[2 * col:2 * col + 2] == code:
                    out.append((col, row))
        return out

    def terrain_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for text in self._terrain:
            for ch in text:
                counts[TERRAIN_CODES[ch]] = counts.get(TERRAIN_CODES[ch], 0) + 1
        return counts

    # -- named look-ups -------------------------------------------------------------------
    def city(self, name: str) -> City | None:
        """A city or port by name or alias (case-insensitive)."""
        return self._names.get(name.casefold())

    def port(self, name: str) -> City | None:
        """A port by name or alias, in a city or not (case-insensitive)."""
        found = self.city(name) or self._port_names.get(name.casefold())
        return found if found and found.port else None

    def place(self, name: str) -> City | None:
        """A city or a port without a city, by name or alias."""
        return self.city(name) or self._port_names.get(name.casefold())

    @property
    def ports(self) -> list[City]:
        """Every port: those in cities, then those without a city."""
        return [c for c in self.cities.values() if c.port] + list(self.port_towns.values())

    @property
    def iced_ports(self) -> list[City]:
        """Ports that snow or blizzard in their hex's weather zone ices in (seeds, Weather Report:
        no naval movement into or out of them; Supply Sources and Paths: no overseas supply path
        and no transport of resources through them)."""
        return [p for p in self.ports if p.iced_zone is not None]

    @property
    def objectives(self) -> list[City]:
        return [c for c in self.cities.values() if c.objective]

    @property
    def capitals(self) -> list[City]:
        return [c for c in self.cities.values() if c.is_capital]

    def country(self, name_or_code: str) -> Country | None:
        key = name_or_code.casefold()
        for c in self.countries.values():
            if c.code.casefold() == key or c.name.casefold() == key:
                return c
        return None

    def sea_area(self, name_or_code: str) -> SeaArea | None:
        key = name_or_code.casefold()
        for s in self.sea_areas.values():
            if s.code.casefold() == key or s.name.casefold() == key:
                return s
        return None

    def find(self, text: str, limit: int = 20) -> list[tuple[str, str]]:
        """Type-ahead search: (kind, name) of cities, ports, countries and sea areas.

        Names starting with the text come first, then names containing it; each group in
        alphabetical order (as the seeds' Find City/Port, Find Country and Find Sea Area lists).
        """
        key = text.casefold().strip()
        if not key:
            return []
        candidates: list[tuple[str, str]] = []
        for c in self.cities.values():
            candidates.append(("port" if c.port else "city", c.name))
            candidates.extend(("city", alias) for alias in c.aliases)
        candidates.extend(("port", c.name) for c in self.port_towns.values())
        candidates.extend(("country", c.name) for c in self.countries.values())
        candidates.extend(("sea area", s.name) for s in self.sea_areas.values())
        starts = sorted({x for x in candidates if x[1].casefold().startswith(key)}, key=lambda x: (x[1], x[0]))
        inside = sorted({x for x in candidates if key in x[1].casefold() and x not in starts},
                        key=lambda x: (x[1], x[0]))
        return (starts + inside)[:limit]

    def resolve(self, text: str) -> tuple[str, list[Hex]]:
        """A place typed by a player: 'COL,ROW', a city/port name, or a sea-area name/code.

        Returns a label and the hexes it stands for (one for a hex or city, all of a sea area's
        hexes for a sea area). Raises KeyError with a readable reason otherwise.
        """
        text = text.strip()
        parts = text.replace(" ", "").split(",")
        if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
            col, row = int(parts[0]), int(parts[1])
            if not 0 <= row < self.grid.rows:
                raise KeyError(f"hex {col},{row}: row must be 0..{self.grid.rows - 1}")
            hex_ = self.grid.normalize((col, row))
            return f"hex {hex_[0]},{hex_[1]}", [hex_]
        city = self.place(text)
        if city:
            return city.name, [city.hex]
        area = self.sea_area(text)
        if area:
            return area.name, self.hexes_of_sea_area(area.code)
        raise KeyError(f"{text!r} is not a hex (COL,ROW), a city, a port or a sea area")

    # -- sea areas: coasts, ports and the approach to the sea-box sections ------------------
    def touching_sea_areas(self, hex_: Hex) -> tuple[str, ...]:
        """The codes of the sea areas whose hexes border a hex (sorted)."""
        return tuple(sorted({code for n in self.grid.neighbours(hex_) if (code := self.sea_area_code(n))}))

    def port_areas(self, port: str | City) -> tuple[str, ...]:
        """The sea areas a port opens on (those listing it in sea_areas.csv)."""
        city = port if isinstance(port, City) else self.port(port)
        if city is None:
            raise KeyError(f"{port!r} is not a port on the map")
        return tuple(code for code, area in self.sea_areas.items() if city.name in area.ports)

    def approach(self, hex_: Hex, area: str) -> int | None:
        """Hexes from ``hex_`` to the first all-sea hex of sea area ``area`` (0 inside it).

        The map's part of the seeds' "Sea Box Section": an aircraft's range is reduced by the
        hexes it moves to reach the first all sea hex in the sea area, and what is left decides
        which sections (0-4) it may enter; the naval rules apply that table.  A hex of this map
        is land or sea (land where land and sea share a hex), so each sea hex is an all-sea hex
        in the board game's sense and a port on an area's coast is 1 hex from it.  None when
        farther than APPROACH_LIMIT (25) hexes.
        """
        if area not in self.sea_areas:
            raise KeyError(f"{area!r} is not a sea area code")
        return self._approach_from(self._norm(hex_), area)

    def port_approaches(self, port: str | City) -> dict[str, int]:
        """{sea area: approach(port hex, area)} for each sea area the port opens on."""
        city = port if isinstance(port, City) else self.port(port)
        if city is None:
            raise KeyError(f"{port!r} is not a port on the map")
        return {code: self.approach(city.hex, code) for code in self.port_areas(city)}

    def coast_of(self, area: str) -> list[Hex]:
        """The coastal land hexes bordering sea area ``area`` (each 1 hex from it)."""
        coast = {n for h in self.hexes_of_sea_area(area) for n in self.grid.neighbours(h) if self.is_land(n)}
        return sorted(coast, key=lambda x: (x[1], x[0]))

    APPROACH_LIMIT = 25  # hexes; beyond any range the sea-box table reads

    def _approach_from(self, start: Hex, area: str) -> int | None:
        """Breadth-first from ``start`` to the nearest sea hex of ``area`` (cached per hex and area)."""
        cache = self.__dict__.setdefault("_approach_cache", {})
        key = (start, area)
        if key not in cache:
            found = None
            seen, frontier, d = {start}, [start], 0
            while frontier and d <= self.APPROACH_LIMIT:
                if any(self.sea_area_code(h) == area for h in frontier):
                    found = d
                    break
                d += 1
                nxt = []
                for h in frontier:
                    for n in self.grid.neighbours(h):
                        if n not in seen:
                            seen.add(n)
                            nxt.append(n)
                frontier = nxt
            if len(cache) > 100_000:
                cache.clear()
            cache[key] = found
        return cache[key]

    # -- distances ----------------------------------------------------------------------
    def distance(self, a: Iterable[Hex], b: Iterable[Hex]) -> int:
        """Fewest hex steps between two places (each a set of hexes: the closest pair counts)."""
        a, b = list(a), list(b)
        if len(a) * len(b) <= 4096:
            return min(self.grid.distance(x, y) for x in a for y in b)
        return self._bfs(a, set(b), blocked=lambda h: False)

    def air_distance(self, a: Iterable[Hex], b: Iterable[Hex], neutral: set[str] | None = None) -> int | None:
        """Hex steps flying around hexes of neutral countries (seeds, Distance Calculations).

        ``neutral`` are country codes to avoid; by default those with no controlling major
        power in countries.csv. The start and end hexes themselves are always allowed.
        Returns None when no route exists.
        """
        if neutral is None:
            neutral = {c.code for c in self.countries.values() if not c.controller}
        a, b = list(a), set(b)
        ends = set(a) | b
        return self._bfs(a, b, blocked=lambda h: h not in ends and self.country_code(h) in neutral)

    def _bfs(self, sources: list[Hex], targets: set[Hex], blocked) -> int | None:
        seen = set(sources)
        queue = deque((h, 0) for h in sources)
        while queue:
            h, d = queue.popleft()
            if h in targets:
                return d
            for n in self.grid.neighbours(h):
                if n not in seen and not blocked(n):
                    seen.add(n)
                    queue.append((n, d + 1))
        return None


_cached: dict[Path, WorldMap] = {}


def load_world_map(directory: Path | str = DEFAULT_MAP_DIR) -> WorldMap:
    """The map at ``directory``, loaded once per process (it is read-only)."""
    key = Path(directory).resolve()
    if key not in _cached:
        _cached[key] = WorldMap(key)
    return _cached[key]
