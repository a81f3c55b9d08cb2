"""Build steps along hex edges and between cities: rivers and canals traced over hex corners,
fortification lines, and rail lines between named cities."""

from __future__ import annotations

import heapq
import math
from collections import deque

from common import SRC, progress, read_blocks, read_csv
from kernel.hexgrid import DIRECTION_NAMES, E, SE, SW, WORLD
from kernel.worldmap import hex_to_lonlat, lonlat_to_hex, lonlat_to_pixel


class HexsideSteps:
    """Mixin of build.Builder: adds river, canal and fort hexsides and self.rail_lines."""

    # -- hexside lines (rivers, canals) ---------------------------------------------------
    def build_vertex_graph(self):
        progress("building the hex-corner graph for rivers and canals")
        width = 360 * math.sqrt(3)
        self.vertex_of: dict[tuple[int, int], int] = {}
        self.vertex_xy: list[tuple[float, float]] = []
        self.vertex_edges: list[list[tuple[int, int]]] = []
        pairs = {E: (1, 2), SE: (2, 3), SW: (3, 4)}

        def vid(x, y):
            key = (round((x % width) * 1000), round(y * 1000))
            if key[0] == round(width * 1000):
                key = (0, key[1])
            v = self.vertex_of.get(key)
            if v is None:
                v = len(self.vertex_xy)
                self.vertex_of[key] = v
                self.vertex_xy.append((x % width, y))
                self.vertex_edges.append([])
            return v

        for h in WORLD.all_hexes():
            corners = WORLD.corners(h, 1.0)
            for d, (i, j) in pairs.items():
                side = WORLD.hexside(h, d)
                if side is None:
                    continue
                a, b = vid(*corners[i]), vid(*corners[j])
                self.vertex_edges[a].append((b, side))
                self.vertex_edges[b].append((a, side))
        self.world_width = width

    def nearest_vertex(self, lon, lat):
        x, y = lonlat_to_pixel(lon, lat)
        h = WORLD.pixel_to_hex(x, y, 1.0) or lonlat_to_hex(lon, lat)
        best = None
        for cx, cy in WORLD.corners(h, 1.0):
            key = (round((cx % self.world_width) * 1000), round(cy * 1000))
            v = self.vertex_of.get(key)
            if v is None:
                continue
            d = self.pixel_dist((cx, cy), (x, y))
            if best is None or d < best[0]:
                best = (d, v)
        return best[1]

    def pixel_dist(self, p, q):
        dx = (p[0] - q[0] + self.world_width / 2) % self.world_width - self.world_width / 2
        return math.hypot(dx, p[1] - q[1])

    def edge_path(self, start, goal, kind):
        """Cheapest chain of hex edges between two corners (A*); rivers avoid coasts."""
        goal_xy = self.vertex_xy[goal]
        frontier = [(0.0, 0.0, start)]
        came: dict[int, tuple[int, int]] = {start: (-1, -1)}
        cost = {start: 0.0}
        while frontier:
            _, g, v = heapq.heappop(frontier)
            if v == goal:
                break
            if g > cost[v]:
                continue
            for w, side in sorted(self.vertex_edges[v]):
                a, b = WORLD.hexside_hexes(side)
                sea_sides = self.is_sea(a) + self.is_sea(b)
                step = 1.0 + (4.0 if sea_sides == 1 else 0.0) + (20.0 if sea_sides == 2 else 0.0)
                if kind == "canal" and sea_sides:
                    step = 1.0 + 2.0 * sea_sides
                ng = g + step
                if ng < cost.get(w, math.inf):
                    cost[w] = ng
                    came[w] = (v, side)
                    h = self.pixel_dist(self.vertex_xy[w], goal_xy) / 1.0
                    heapq.heappush(frontier, (ng + h, ng, w))
        sides = []
        v = goal
        while v != start:
            v, side = came[v]
            sides.append(side)
        return sides[::-1]

    def hexside_lines(self):
        self.build_vertex_graph()
        count = 0
        for header, points in read_blocks("hexside_lines.txt"):
            kind, name = header[1:].split("]", 1)
            name, _, links = name.partition("| links=")
            name = name.strip()
            if links:
                self.strait_links.append((name, links.split()))
            vertices = [self.nearest_vertex(lon, lat) for lon, lat in points]
            for a, b in zip(vertices, vertices[1:]):
                for side in self.edge_path(a, b, kind):
                    h1, h2 = WORLD.hexside_hexes(side)
                    if kind == "river" and (self.is_sea(h1) or self.is_sea(h2)):
                        continue  # a river ends where it meets the sea
                    if side in self.hexside_features and self.hexside_features[side][0] == "strait":
                        continue
                    self.hexside_features[side] = (kind, name)
                    count += 1
        for line in read_csv("hexsides_special.csv"):
            h = self.city_by_name[line["city"]]["hex"]
            side = WORLD.hexside(h, DIRECTION_NAMES.index(line["direction"]))
            self.hexside_features[side] = (line["kind"], line["name"])
        progress(f"{count} river/canal hexsides traced along hex edges")

    # -- fortifications (hexside kind "fort") ----------------------------------------------
    def fortifications(self):
        """maps/src/fortifications.txt: printed forts, each (fortified hex, side) once."""
        self.forts: dict[int, tuple[tuple[int, int], str]] = {}
        compass = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1),
                   "W": (-1, 0), "NW": (-1, -1)}
        blocks = []
        for raw in (SRC / "fortifications.txt").read_text(encoding="utf-8").splitlines():
            if not raw.strip() or raw.startswith("#"):
                continue
            if raw.startswith("["):
                name, _, options = raw[1:].partition("]")
                opts = dict(part.split("=", 1) for part in options.replace("|", " ").split())
                blocks.append([name.strip(), opts, []])
            else:
                blocks[-1][2] = [tuple(float(v) for v in p.split(",")) for p in raw.split()]
        for name, opts, points in blocks:
            pairs = []  # (fortified hex, attacker-side hex)
            if "border" in opts:
                mine, _, theirs = opts["border"].partition(":")
                theirs = set(theirs.split(","))
                box = [float(v) for v in opts.get("box", "-180,180,-90,90").split(",")]
                inside = lambda h: (box[0] <= hex_to_lonlat(h)[0] <= box[1] and box[2] <= hex_to_lonlat(h)[1] <= box[3])
                for h in WORLD.all_hexes():
                    if self.country[h[1]][h[0]] != mine or not self.is_land(h) or not inside(h):
                        continue
                    for n in WORLD.neighbours(h):
                        if self.is_land(n) and self.country[n[1]][n[0]] in theirs and inside(n):
                            pairs.append((h, n))
            elif "city" in opts:
                h = self.city_by_name[opts["city"]]["hex"]
                for n in WORLD.neighbours(h):
                    if opts.get("sides", "all") == "all" or self.is_land(n):
                        pairs.append((h, n))
            elif "faces" in opts:
                fx, fy = compass[opts["faces"]]
                vertices = [self.nearest_vertex(lon, lat) for lon, lat in points]
                for a, b in zip(vertices, vertices[1:]):
                    for side in self.edge_path(a, b, "fort"):
                        h1, h2 = WORLD.hexside_hexes(side)
                        (x1, y1), (x2, y2) = WORLD.hex_to_pixel(h1, 1.0), WORLD.hex_to_pixel(h2, 1.0)
                        dx = (x2 - x1 + self.world_width / 2) % self.world_width - self.world_width / 2
                        fortified, other = (h1, h2) if dx * fx + (y2 - y1) * fy > 0 else (h2, h1)
                        if "owner" in opts and self.country[fortified[1]][fortified[0]] != opts["owner"]:
                            continue
                        if self.is_land(fortified) and self.is_land(other):
                            pairs.append((fortified, other))
            else:
                raise SystemExit(f"fortifications.txt: [{name}] says neither border=, city= nor faces=")
            placed = 0
            for fortified, other in sorted(pairs):
                side = WORLD.hexside_between(fortified, other)
                if side in self.forts:
                    self.note(f"fort {name}: hexside {fortified[0]},{fortified[1]}-{other[0]},{other[1]} "
                              f"already carries the {self.forts[side][1]}, skipped")
                    continue
                self.forts[side] = (fortified, name)
                placed += 1
            self.note(f"fort {name}: {placed} hexsides")
        progress(f"{len(self.forts)} fortification hexsides")

    def rails(self):
        self.rail_lines = []
        for raw in (SRC / "rails.txt").read_text(encoding="utf-8").splitlines():
            if not raw.strip() or raw.startswith("#"):
                continue
            name, chain = raw.split(":", 1)
            cities = [c.strip() for c in chain.split(" - ")]
            hexes: list = []
            for a, b in zip(cities, cities[1:]):
                if a not in self.city_by_name or b not in self.city_by_name:
                    raise SystemExit(f"rails.txt: line {name!r} names an unknown city ({a} / {b})")
                path = WORLD.line(self.city_by_name[a]["hex"], self.city_by_name[b]["hex"])
                wet = [h for h in path if not self.is_land(h)]
                if wet:
                    # Detour through land: breadth-first over land hexes only.
                    path = self.land_path(self.city_by_name[a]["hex"], self.city_by_name[b]["hex"])
                    if path is None:
                        self.note(f"rail {name}: no land route {a} - {b}, link dropped")
                        continue
                for h in path:
                    if not hexes or hexes[-1] != h:
                        hexes.append(h)
            self.rail_lines.append((name.strip(), hexes))

    def land_path(self, a, b):
        prev = {a: None}
        queue = deque([a])
        while queue:
            h = queue.popleft()
            if h == b:
                out = []
                while h is not None:
                    out.append(h)
                    h = prev[h]
                return out[::-1]
            for n in WORLD.neighbours(h):
                if n not in prev and (self.is_land(n)) and WORLD.distance(n, b) <= WORLD.distance(a, b) + 4:
                    prev[n] = h
                    queue.append(n)
        return None

