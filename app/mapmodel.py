"""What the renderer needs to know about the map and the game, in one place.

``MapModel`` adapts ``kernel.worldmap.WorldMap`` (read-only map data) and the game state
(units, and — once rules plugins provide them — hex control and weather) to quick per-hex
look-ups. Everything the renderer reads from the game goes through here, so a rules plugin
that adds a state section changes one adapter, not the drawing code.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kernel.hexgrid import Hex
from kernel.worldmap import WorldMap, load_world_map

from . import mapstyle
from .wording import power_name

log = logging.getLogger("wif.app")


def weather_zone_names(world: WorldMap) -> dict[int, str]:
    """Zone names from the weather layer's legend (WorldMap keeps only the numbers)."""
    names: dict[int, str] = {}
    try:
        for line in (Path(world.directory) / "weather.txt").read_text(encoding="utf-8").splitlines():
            if line.startswith("@code"):
                parts = line.split(" ", 2)
                if len(parts) == 3 and parts[1].isdigit():
                    names[int(parts[1])] = parts[2]
            elif line[:1].isdigit():
                break
    except OSError:
        pass
    return names


@dataclass
class HexInfo:
    hex: Hex
    terrain: str
    country: str | None
    controller: str
    weather_zone: int
    weather_zone_name: str
    weather: str
    sea_area: str | None
    city: str | None

    def lines(self) -> list[str]:
        out = [f"hex {self.hex[0]},{self.hex[1]}  {self.terrain}"]
        if self.city:
            out.append(self.city)
        if self.country:
            out.append(f"{self.country}, neutral" if self.controller == "neutral"
                       else f"{self.country}, controlled by {power_name(self.controller)}")
        if self.sea_area:
            out.append(f"sea area {self.sea_area}")
        out.append(f"weather zone {self.weather_zone_name}: {self.weather}")
        return out


class MapModel:
    def __init__(self, world: WorldMap | None = None, game=None):
        self.world = world or load_world_map()
        self.grid = self.world.grid
        self.game = game
        self.zone_names = weather_zone_names(self.world)
        # Per-hex grids [row][col] read once through the public API (about 50 ms in all),
        # so drawing never calls back into WorldMap per pixel.
        w, cols, rows = self.world, self.grid.cols, self.grid.rows
        self.terrain_grid: list[list[str]] = [[w.terrain((c, r)) for c in range(cols)] for r in range(rows)]
        self.country_grid: list[list[str | None]] = [[w.country_code((c, r)) for c in range(cols)] for r in range(rows)]
        self.sea_grid: list[list[str | None]] = [[w.sea_area_code((c, r)) for c in range(cols)] for r in range(rows)]
        self.zone_grid: list[list[int]] = [[w.weather_zone((c, r)) for c in range(cols)] for r in range(rows)]
        self.start_controller = {code: self.controller_of_country(code) for code in w.countries}
        self.sea_label_hex = self._sea_label_hexes()
        self.objective_hexes = {c.hex for c in self.world.objectives}
        self._warned_types: set[str] = set()
        self._zone_hexes: dict[int, list[Hex]] | None = None
        self._country_hexes: dict[str | None, list[Hex]] | None = None

    # ------------------------------------------------------------------ hexes by area
    def zone_hexes(self, zone: int) -> list[Hex]:
        """The hexes of one weather zone (what a weather change repaints)."""
        if self._zone_hexes is None:
            self._zone_hexes = self._index(self.zone_grid)
        return self._zone_hexes.get(zone, [])

    def country_hexes(self, code: str) -> list[Hex]:
        """The hexes of one country (what a change of its controller repaints)."""
        if self._country_hexes is None:
            self._country_hexes = self._index(self.country_grid)
        return self._country_hexes.get(code, [])

    @staticmethod
    def _index(grid) -> dict:
        out: dict = {}
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                out.setdefault(value, []).append((c, r))
        return out

    # ------------------------------------------------------------------ state
    @property
    def state(self):
        return self.game.state if self.game is not None else None

    def section(self, name: str) -> Any:
        state = self.state
        if state is None:
            return None
        return state.sections.get(name)

    def units(self):
        """The ``units`` state section, or None when the game has no units plugin."""
        return self.section("units")

    def controller_of_country(self, code: str | None) -> str:
        if not code:
            return "neutral"
        country = self.world.countries.get(code)
        return mapstyle.power_id(country.controller) if country and country.controller else "neutral"

    def _control_tables(self) -> tuple[dict[str, str], dict[str, str]] | None:
        """(hex overrides, country controllers) from the game's state, or None.

        WiF games keep them in the core plugin's ``core.world`` section; other scenarios
        may keep a ``control`` section with ``hexes`` ({"col,row": power})."""
        world = self.section("core.world")
        if world is not None:
            return dict(world.hex_control), {code: mapstyle.power_id(p) for code, p in world.countries.items()}
        control = self.section("control")
        if control is not None:
            return dict(getattr(control, "hexes", None) or {}), {}
        return None

    def controller(self, hex_: Hex) -> str:
        """Who controls a hex now: its control marker, else its country's controller in
        the game (else the country's starting controller on the map)."""
        tables = self._control_tables()
        code = self.world.country_code(hex_)
        if tables is not None:
            hexes, countries = tables
            found = hexes.get(f"{hex_[0]},{hex_[1]}") or countries.get(code)
            if found:
                return found
            if countries:
                return "neutral"
        return self.controller_of_country(code)

    def controllers_at(self, hexes) -> list[str]:
        """The controller of many land hexes as ``controller_grid`` has it, reading the
        state's tables once (a country changing hands repaints thousands of hexes)."""
        changed, countries = self._control_tables() or ({}, {})
        base = countries if countries else self.start_controller
        return [changed.get(f"{col},{row}") or base.get(self.country_grid[row][col], "neutral") for col, row in hexes]

    def weather(self, zone: int) -> str:
        """Current weather in a zone, from the game's state (core.world or a ``weather``
        section with ``zones``), else fine."""
        world = self.section("core.world")
        if world is not None:
            return world.weather.get(str(zone), "fine")
        weather = self.section("weather")
        if weather is not None:
            zones = getattr(weather, "zones", None) or {}
            return zones.get(str(zone), "fine")
        return "fine"

    def side_of(self, power: str) -> str | None:
        state = self.state
        if state is None:
            return None
        for side, powers in state.kernel.sides.items():
            if power in powers:
                return side
        return None

    def info(self, hex_: Hex) -> HexInfo:
        w = self.world
        hex_ = self.grid.normalize(hex_)
        country = w.country_of(hex_)
        sea = w.sea_area_of(hex_)
        city = w.city_at(hex_)
        zone = w.weather_zone(hex_)
        label = None
        if city:
            label = city.name + (" (capital)" if city.is_capital else "") + (f", {city.port} port" if city.port else "")
            if city.objective:
                label += ", objective"
        return HexInfo(hex_, w.terrain(hex_), country.name if country else None,
                       self.controller(hex_) if w.is_land(hex_) else "-", zone,
                       self.zone_names.get(zone, f"zone {zone}"), self.weather(zone),
                       sea.name if sea else None, label)

    def controller_grid(self) -> list[list[str]]:
        """Controller of every hex ("sea" for water), for the hex-control layers."""
        out = []
        tables = self._control_tables()
        changed, countries = tables if tables is not None else ({}, {})
        base = countries if countries else self.start_controller
        for r in range(self.grid.rows):
            row = []
            for c in range(self.grid.cols):
                if self.terrain_grid[r][c] in ("sea", "lake"):
                    row.append("sea")
                    continue
                row.append(changed.get(f"{c},{r}") or base.get(self.country_grid[r][c], "neutral"))
            out.append(row)
        return out

    def _sea_label_hexes(self) -> dict[str, Hex]:
        """Where each sea area's name goes: its member hex nearest to the members' mean
        (the column mean is taken on the circle, so areas across the date line work)."""
        import math

        cols = self.grid.cols
        members: dict[str, list[Hex]] = {}
        for r, row in enumerate(self.sea_grid):
            for c, code in enumerate(row):
                if code:
                    members.setdefault(code, []).append((c, r))
        out = {}
        for code, hexes in members.items():
            sx = sum(math.cos(2 * math.pi * c / cols) for c, _ in hexes)
            sy = sum(math.sin(2 * math.pi * c / cols) for c, _ in hexes)
            mean_c = (math.atan2(sy, sx) / (2 * math.pi) * cols) % cols
            mean_r = sum(r for _, r in hexes) / len(hexes)

            def off(h):
                dc = abs(h[0] - mean_c)
                return min(dc, cols - dc) ** 2 + (h[1] - mean_r) ** 2

            out[code] = min(hexes, key=off)
        return out
