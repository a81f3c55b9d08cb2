"""The world map's projection: Miller cylindrical with regular hexes (maps/README.md, "Grid and projection").

1 column = 1 degree of longitude; rows are sqrt(3)/2 Miller-degrees apart; row 0's centres lie on
79.7N, so row 194 reaches about 56.7S. Shared by the loader (kernel.worldmap) and the map builder.
"""

from __future__ import annotations

import math

from kernel.hexgrid import WORLD, Hex

LON_OF_COL0 = -179.5
ROW_SPACING_DEG = math.sqrt(3) / 2


def _miller_y(lat: float) -> float:
    return math.degrees(1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))


def _miller_lat(y: float) -> float:
    return math.degrees(2.5 * math.atan(math.exp(0.8 * math.radians(y))) - 0.625 * math.pi)


MILLER_Y_ROW0 = _miller_y(79.7)


def hex_to_lonlat(hex_: Hex) -> tuple[float, float]:
    """Longitude and latitude of a hex centre."""
    col, row = hex_
    lon = LON_OF_COL0 + col + 0.5 * (row & 1)
    lon = (lon + 180.0) % 360.0 - 180.0
    return lon, _miller_lat(MILLER_Y_ROW0 - row * ROW_SPACING_DEG)


def lonlat_to_pixel(lon: float, lat: float) -> tuple[float, float]:
    """Position in the hex grid's pixel space for hex size 1 (see HexGrid.hex_to_pixel)."""
    x = math.sqrt(3) * ((lon - LON_OF_COL0) % 360.0)
    y = 1.5 * (MILLER_Y_ROW0 - _miller_y(max(-85.0, min(85.0, lat)))) / ROW_SPACING_DEG
    return x, y


def lonlat_to_hex(lon: float, lat: float) -> Hex:
    """The hex containing a point; points beyond the top/bottom rows clamp to them."""
    x, y = lonlat_to_pixel(lon, lat)
    y = max(0.0, min(1.5 * (WORLD.rows - 1), y))
    found = WORLD.pixel_to_hex(x, y, 1.0)
    assert found is not None
    return found

