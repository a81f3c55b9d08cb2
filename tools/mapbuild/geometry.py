"""Geometry for the map build: the sample points of each hex, raster look-ups, shapefile rings,
point-in-polygon and nearest-hex searches."""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from common import COLS, ROWS
from kernel.hexgrid import WORLD
from kernel.worldmap import LON_OF_COL0, MILLER_Y_ROW0, ROW_SPACING_DEG


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
