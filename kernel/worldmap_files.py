"""The world map's files (maps/world/*): their records, and the readers that check them line by line.

The format is described in maps/README.md ("Format"). A reader refuses bad input with the file,
line and hex named (MapFormatError). Only the standard library and pydantic are used.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kernel.hexgrid import Hex, HexGrid

MAP_FORMAT_VERSION = 1

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


class NamedWater(_Record):
    """A named part of one sea area (the Sea of Azov in the Black Sea area): a name for players and
    the atlas, never a sea area of its own, so the naval rules still see the one area."""

    name: str = Field(min_length=1)
    sea_area: str = Field(min_length=2, max_length=2)
    hexes: tuple[Hex, ...]

    @field_validator("hexes", mode="before")
    @classmethod
    def _hexes(cls, value):
        if isinstance(value, str):
            try:
                return tuple(tuple(int(v) for v in token.split(",")) for token in value.split())
            except ValueError:
                raise ValueError(f"expected 'col,row col,row ...', got {value!r}") from None
        return value


@dataclass(frozen=True)
class RailLine:
    name: str
    hexes: tuple[Hex, ...]



# ----------------------------------------------------------------------------- readers
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

