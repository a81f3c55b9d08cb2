"""The world map: loads maps/world/* (text layers + CSV tables) and answers questions about it.

The files are written by tools/mapbuild/build.py; their format is described in
maps/README.md. Loading checks everything it reads and refuses bad input with the file,
line and hex named (MapFormatError). Only the standard library and pydantic are used, so
the game and its tests never need the builder's dependencies.

The parts: kernel.worldmap_projection (hex <-> longitude/latitude), kernel.worldmap_files (records
and readers), kernel.worldmap_places (look-ups by name), kernel.worldmap_seas (sea areas, coasts,
ports, named waters). Every public name stays importable from here.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Iterable

from pydantic import ValidationError

from kernel.hexgrid import DIRECTION_NAMES, WORLD, Hex, HexGrid
from kernel.worldmap_files import (  # noqa: F401  (re-exported: the public API of the map)
    MAP_FORMAT_VERSION, TERRAIN_CODES, City, Country, EconomyFeature, HexsideFeature, MapFormatError, NamedWater,
    RailLine, SeaArea, _LAYERS, _read_layer, _read_table,
)
from kernel.worldmap_places import PlaceQueries
from kernel.worldmap_projection import (  # noqa: F401
    LON_OF_COL0, MILLER_Y_ROW0, ROW_SPACING_DEG, hex_to_lonlat, lonlat_to_hex, lonlat_to_pixel,
)
from kernel.worldmap_seas import SeaQueries

DEFAULT_MAP_DIR = Path(__file__).resolve().parents[1] / "maps" / "world"


class WorldMap(PlaceQueries, SeaQueries):
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
        self._load_named_waters()

    def _load_named_waters(self) -> None:
        """named_waters.csv: each hex a sea hex of the water's sea area, in one named water at most."""
        path = self.directory / "named_waters.csv"
        self.named_waters: dict[str, NamedWater] = {}
        self._water_at: dict[Hex, NamedWater] = {}
        for number, water in self._records("named_waters.csv", NamedWater):
            if water.sea_area not in self.sea_areas:
                raise MapFormatError(path, number, f"{water.name}: unknown sea area {water.sea_area}")
            for hex_ in water.hexes:
                if not (0 <= hex_[1] < self.grid.rows and 0 <= hex_[0] < self.grid.cols):
                    raise MapFormatError(path, number, f"{water.name}: hex does not exist on the map", hex_)
                if self.sea_area_code(hex_) != water.sea_area:
                    raise MapFormatError(path, number, f"{water.name}: hex is not a sea hex of {water.sea_area}", hex_)
                if hex_ in self._water_at:
                    raise MapFormatError(path, number, f"{water.name}: hex is already in {self._water_at[hex_].name}",
                                         hex_)
                self._water_at[hex_] = water
            self.named_waters[water.name] = water

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
        col, row = self._norm(hex_)
        terrain = self._terrain  # the grid's neighbours come normalized: read them directly
        return terrain[row][col] == "." and all(terrain[r][c] == "." for c, r in self.grid.neighbours((col, row)))

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

    def hexes_of_country(self, code: str) -> list[Hex]:
        """The hexes of a country, row by row then column (str.find: a whole-map scan in Python
        took 40 ms a country, and set-up areas ask for several)."""
        out = []
        for row, text in enumerate(self._country):
            i = text.find(code)
            while i != -1:
                if i % 2 == 0:  # two characters a hex: an odd offset straddles two codes
                    out.append((i // 2, row))
                i = text.find(code, i + 1)
        return out

    def terrain_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for text in self._terrain:
            for ch in text:
                counts[TERRAIN_CODES[ch]] = counts.get(TERRAIN_CODES[ch], 0) + 1
        return counts

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
