"""The world map's seas: sea areas, their coasts and ports, named waters and the approach to the
sea-box sections. A mixin of kernel.worldmap.WorldMap (which loads the tables it reads)."""

from __future__ import annotations

from kernel.hexgrid import Hex
from kernel.worldmap_files import City, NamedWater, SeaArea


class SeaQueries:
    """Sea-area questions; ``self`` is the loaded WorldMap."""

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

    def sea_area(self, name_or_code: str) -> SeaArea | None:
        key = name_or_code.casefold()
        for s in self.sea_areas.values():
            if s.code.casefold() == key or s.name.casefold() == key:
                return s
        return None

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

    # -- named waters: parts of a sea area with a name of their own (maps/src/named_waters.csv) --
    def named_water(self, name: str) -> NamedWater | None:
        """A named water by name (case-insensitive), or None."""
        key = name.casefold().strip()
        return next((w for w in self.named_waters.values() if w.name.casefold() == key), None)

    def named_water_of(self, hex_: Hex) -> NamedWater | None:
        """The named water a sea hex lies in (the Sea of Azov ...), or None for the open area."""
        return self._water_at.get(self._norm(hex_))

    def port_waters(self, port: str | City) -> dict[str, tuple[str, ...]]:
        """{sea area: the waters the port opens on}, each water a named water's name or, for the
        hexes in no named water, the sea area's own name; sorted. Kerch: {"BK": ("Black Sea",
        "Sea of Azov")}; Rostov: {"BK": ("Sea of Azov",)}. Words only: the naval rules use the area."""
        city = port if isinstance(port, City) else self.port(port)
        if city is None:
            raise KeyError(f"{port!r} is not a port on the map")
        out = {}
        for code in self.port_areas(city):
            waters = set()
            for n in self.grid.neighbours(city.hex):
                if self.sea_area_code(n) == code:
                    water = self.named_water_of(n)
                    waters.add(water.name if water else self.sea_areas[code].name)
            out[code] = tuple(sorted(waters))
        return out
