"""The world map's names: cities, ports, countries and sea areas found by name, type-ahead search
(the seeds' Find City/Port, Find Country and Find Sea Area forms) and the places a player types.
A mixin of kernel.worldmap.WorldMap (which loads the tables it reads)."""

from __future__ import annotations

from kernel.hexgrid import Hex
from kernel.worldmap_files import City, Country


class PlaceQueries:
    """Look-ups by name; ``self`` is the loaded WorldMap."""

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
        """A place typed by a player: 'COL,ROW', a city/port name, a sea-area name/code or a named water.

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
        water = self.named_water(text)
        if water:
            return water.name, list(water.hexes)
        raise KeyError(f"{text!r} is not a hex (COL,ROW), a city, a port, a sea area or a named water")
