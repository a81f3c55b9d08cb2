"""Build steps for the sea: straits, the sea areas grown from their seed points, and the named
waters inside a sea area (maps/src/sea_areas.csv, straits.csv, named_waters.csv)."""

from __future__ import annotations

import math
from collections import deque

from common import progress, read_csv
from geometry import bfs_nearest, point_in_polygon
from kernel.hexgrid import WORLD
from kernel.worldmap import hex_to_lonlat, lonlat_to_hex, lonlat_to_pixel


class SeaSteps:
    """Mixin of build.Builder: writes self.sea, the strait hexsides and links."""

    # -- straits -------------------------------------------------------------------------
    def straits(self):
        self.hexside_features: dict[int, tuple[str, str]] = {}
        self.strait_links: list[tuple[str, list[str]]] = []
        for line in read_csv("straits.csv"):
            a = lonlat_to_hex(float(line["lon1"]), float(line["lat1"]))
            target = lonlat_to_pixel(float(line["lon2"]), float(line["lat2"]))
            best = None
            for d in range(6):
                n = WORLD.neighbour(a, d)
                if n is None:
                    continue
                x, y = WORLD.hex_to_pixel(n, 1.0)
                dx = (x - target[0] + 180 * math.sqrt(3)) % (360 * math.sqrt(3)) - 180 * math.sqrt(3)
                dist = dx * dx + (y - target[1]) ** 2
                if best is None or dist < best[0]:
                    best = (dist, n)
            b = best[1]
            for h in (a, b):
                if not self.is_land(h):
                    self.terrain[h[1]][h[0]] = "c"
                    self.note(f"strait {line['name']}: hex {h[0]},{h[1]} forced to land")
            side = WORLD.hexside_between(a, b)
            self.hexside_features[side] = ("strait", line["name"])
            self.strait_links.append((line["name"], line["sea_areas"].split()))

    # -- sea areas -------------------------------------------------------------------------
    def sea_areas(self):
        table = read_csv("sea_areas.csv")
        self.sea_rows = table
        queue = deque()
        for order, line in enumerate(table):
            for seed in line["seeds"].split(";"):
                slon, slat = (float(v) for v in seed.split())
                h = lonlat_to_hex(slon, slat)
                h = bfs_nearest(h, self.is_sea, limit=8)
                if h is None:
                    raise SystemExit(f"sea_areas.csv: seed {seed} of {line['name']} has no sea within 8 hexes")
                if self.sea[h[1]][h[0]] == "..":
                    self.sea[h[1]][h[0]] = line["code"]
                    queue.append(h)
        while queue:
            h = queue.popleft()
            for n in WORLD.neighbours(h):
                if self.is_sea(n) and self.sea[n[1]][n[0]] == "..":
                    self.sea[n[1]][n[0]] = self.sea[h[1]][h[0]]
                    queue.append(n)
        # Enclosed water no seed reaches (the Caspian, Aral, small inland seas) is lake.
        orphans = [h for h in WORLD.all_hexes() if self.is_sea(h) and self.sea[h[1]][h[0]] == ".."]
        for h in orphans:
            self.terrain[h[1]][h[0]] = "~"
        for _ in range(30):
            pending = [h for h in orphans if self.country[h[1]][h[0]] == ".."]
            if not pending:
                break
            for h in pending:
                owners = sorted(self.country[n[1]][n[0]] for n in WORLD.neighbours(h)
                                if self.country[n[1]][n[0]] != "..")
                if owners:
                    self.country[h[1]][h[0]] = max(sorted(set(owners)), key=owners.count)
        self.note(f"{len(orphans)} enclosed water hexes with no sea-area seed became lake")
        left = set(orphans)
        for start in orphans:  # one line per enclosed body of water, largest first after sorting
            if start not in left:
                continue
            body, queue = [], deque([start])
            left.discard(start)
            while queue:
                h = queue.popleft()
                body.append(h)
                for n in WORLD.neighbours(h):
                    if n in left:
                        left.discard(n)
                        queue.append(n)
            if len(body) >= 2:
                clon, clat = hex_to_lonlat(min(body, key=lambda h: (h[1], h[0])))
                self.note(f"  enclosed water near {clon:.1f},{clat:.1f}: {len(body)} hexes became lake")
        progress(f"sea areas grown from seeds ({len(table)} areas)")

    def named_waters(self):
        """maps/src/named_waters.csv: the sea hexes of a water's sea area whose centres lie in its
        polygon (the first row holding a hex wins). A water without a hex stops the build."""
        self.waters: list[tuple[str, str, list[tuple[int, int]]]] = []
        taken: set[tuple[int, int]] = set()
        for line in read_csv("named_waters.csv"):
            code = line["sea_area"]
            if code not in {r["code"] for r in self.sea_rows}:
                raise SystemExit(f"named_waters.csv: {line['name']}: unknown sea area {code}")
            polygon = [tuple(float(v) for v in point.split()) for point in line["polygon"].split(";")]
            hexes = [h for h in WORLD.all_hexes()
                     if self.sea[h[1]][h[0]] == code and h not in taken and point_in_polygon(*hex_to_lonlat(h), polygon)]
            if not hexes:
                raise SystemExit(f"named_waters.csv: {line['name']} holds no sea hex of {code}")
            hexes.sort(key=lambda h: (h[1], h[0]))
            taken.update(hexes)
            self.waters.append((line["name"], code, hexes))
            self.note(f"named water {line['name']} [{code}]: {len(hexes)} hexes")
        progress(f"{len(self.waters)} named waters")
