"""Where a hex is and what a unit is, in the words a player uses (issue 11, "Nothing shows
internal ids to a player"): a city by its name, any other hex by the nearest city printed on
the map ("hex 2 NE of Riga"), a unit's type by its name ("infantry", not "inf").

The rules' labels give a hex by its coordinates ("18th Army (inf, 202,50)", "Land combat at
hex 201,49", "202,49 (clear): 2 MP"); app/wording.py puts them into these words.  The board's
map prints no coordinates, so a player finds a hex from the cities round it."""

from __future__ import annotations

import math
import tomllib
from functools import lru_cache
from pathlib import Path

NEAR = 12  # a hex further than this from every city is named by its country or sea area (a player counts hexes from a city up to about this)
COMPASS = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")  # clockwise from east, y grows south


@lru_cache(maxsize=1)
def unit_type_words() -> dict[str, str]:
    """Unit type code -> words (app/unit_type_words.toml, its header says the source)."""
    with open(Path(__file__).with_name("unit_type_words.toml"), "rb") as f:
        return dict(tomllib.load(f)["words"])


def type_words(code: str) -> str:
    """"inf" -> "infantry"; a code the table does not know is shown as it is."""
    return unit_type_words().get(code, code)


def _world():
    from kernel.worldmap import load_world_map

    return load_world_map()


@lru_cache(maxsize=8192)
def hex_words(hex_: tuple[int, int]) -> str:
    """A hex as a player names it: its city ("Minsk"), else its way from the nearest city
    ("hex NE of Riga" next to it, "hex 3 SW of Minsk" further), else the country or sea area
    it lies in ("hex in the Black Sea"), else its coordinates ("hex 203,56")."""
    world = _world()
    hex_ = tuple(hex_)
    city = world.city_at(hex_) if world.grid.contains(hex_) else None
    if city is not None:
        return city.name
    if not world.grid.contains(hex_):
        return f"hex {hex_[0]},{hex_[1]}"
    for radius in range(1, NEAR + 1):
        around = sorted((c for h in world.grid.ring(hex_, radius) if (c := world.city_at(h)) is not None),
                        key=lambda c: c.name)
        if around:
            near = around[0]
            steps = "" if radius == 1 else f"{radius} "
            return f"hex {steps}{compass(world.grid, near.hex, hex_)} of {near.name}"
    area = world.sea_area_of(hex_) if world.is_sea(hex_) else world.country_of(hex_)
    name = getattr(area, "name", None)
    return f"hex in {name}" if name else f"hex {hex_[0]},{hex_[1]}"


def compass(grid, origin, hex_) -> str:
    """The compass point (of eight) from ``origin`` to ``hex_`` on the map, across the wrap."""
    ox, oy = grid.hex_to_pixel(origin, 1.0)
    x, y = grid.hex_to_pixel(hex_, 1.0)
    width = math.sqrt(3.0) * grid.cols
    dx = x - ox
    if grid.wrap and abs(dx) > width / 2:
        dx -= math.copysign(width, dx)
    angle = math.degrees(math.atan2(y - oy, dx)) % 360
    return COMPASS[int((angle + 22.5) // 45) % 8]
