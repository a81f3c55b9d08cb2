"""Colours, zoom geometry and symbols shared by the detailed map, the global map and forms.

Colours of the major powers follow the seeds where they name one ("Global Map": brown for
the USSR, dark green for the USA, white for neutrals, gray for enemy hexes in the production
view, lavender objectives and oil); the rest are our own choices, picked to stay apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

Colour = tuple[int, int, int]

# ----------------------------------------------------------------------------- zoom
ZOOM_LEVELS = range(1, 9)


@dataclass(frozen=True)
class ZoomGeometry:
    """Integer hex geometry for one zoom level.

    ``w`` is a hex's width (even, so odd rows shift by a whole pixel count) and ``h`` the
    distance between row centres; a regular pointy-top hex has h = w * sqrt(3) / 2.  Integer
    numbers make every hex the same pixel pattern, so pre-drawn hex stamps tile without
    seams and a chunk of columns is a whole number of pixels.
    """

    zoom: int
    w: int
    h: int
    chunk_cols: int  # a divisor of 360 so chunks tile the wrapping world exactly
    chunk_rows: int

    @property
    def half_w(self) -> int:
        return self.w // 2

    @property
    def top(self) -> int:
        """Pixels from a hex's centre up to its top corner (2/3 of the row spacing)."""
        return -(-2 * self.h // 3)

    @cached_property
    def counter(self) -> int:
        """Side of a unit counter in pixels: the largest square, centred on the hex centre
        (top-left at centre - side // 2), whose every pixel lies inside the hex, so a
        counter never covers a neighbour."""
        side = self.w
        while side > 5 and not square_fits(self, side):
            side -= 1
        return side


def hex_contains(g: "ZoomGeometry", dx: float, dy: float) -> bool:
    """Is the point (dx, dy) from a hex centre inside that hex (the stretched pointy-top
    hexagon whose corners ``stamps.hex_corners`` draws)?"""
    t, hw = 2 * g.h / 3, g.w / 2
    ax, ay = abs(dx), abs(dy)
    return ax <= hw and ay <= t - (t / 2) * (ax / hw)


def rect_fits(g: "ZoomGeometry", left: int, top: int, width: int, height: int) -> bool:
    """Do all pixels of a rectangle (offsets from the hex centre, the centre being the
    top-left corner of pixel (0, 0)) have their centres inside the hex?  The hex is convex,
    so its four corner pixels decide."""
    xs, ys = (left + 0.5, left + width - 0.5), (top + 0.5, top + height - 0.5)
    return all(hex_contains(g, x, y) for x in xs for y in ys)


def square_fits(g: "ZoomGeometry", side: int) -> bool:
    return rect_fits(g, -(side // 2), -(side // 2), side, side)


# Zoom 1 shows a continent in a 1024-pixel window, zoom 8 shows counter detail.
ZOOMS: dict[int, ZoomGeometry] = {
    1: ZoomGeometry(1, 10, 9, 36, 48),
    2: ZoomGeometry(2, 14, 12, 30, 36),
    3: ZoomGeometry(3, 18, 16, 24, 28),
    4: ZoomGeometry(4, 24, 21, 20, 22),
    5: ZoomGeometry(5, 30, 26, 15, 17),
    6: ZoomGeometry(6, 38, 33, 12, 14),
    7: ZoomGeometry(7, 48, 42, 10, 11),
    8: ZoomGeometry(8, 60, 52, 8, 9),
}

# ----------------------------------------------------------------------------- terrain
TERRAIN_COLOURS: dict[str, Colour] = {
    "sea": (58, 96, 156),
    "lake": (86, 136, 196),
    "clear": (196, 210, 142),
    "forest": (96, 150, 84),
    "jungle": (48, 120, 70),
    "mountain": (160, 132, 100),
    "swamp": (120, 160, 140),
    "desert": (230, 208, 150),
    "desert mountain": (200, 160, 110),
    "tundra": (186, 196, 182),
    "ice": (236, 244, 250),
}
UNKNOWN_TERRAIN: Colour = (255, 0, 200)
GRID_LINE: Colour = (0, 0, 0)
COUNTRY_BORDER: Colour = (150, 30, 40)
RIVER: Colour = (40, 90, 210)
CANAL: Colour = (20, 200, 230)
STRAIT: Colour = (250, 250, 120)
LAKE_SIDE: Colour = (86, 136, 196)
FORT: Colour = (45, 40, 40)  # printed fortifications (Maginot, Westwall, Mannerheim ...)
FORTIFICATION: Colour = (60, 60, 60)
RAIL: Colour = (40, 40, 40)
WEATHER_ZONE_BORDER: Colour = (230, 120, 20)
LABEL: Colour = (20, 20, 20)
OBJECTIVE: Colour = (200, 0, 0)  # seeds, Global Map: objectives stand out (red on the detailed map)
SEA_LABEL: Colour = (200, 220, 255)
SELECTION: Colour = (255, 255, 0)
HOVER: Colour = (255, 255, 255)

# ----------------------------------------------------------------------------- powers
POWER_COLOURS: dict[str, Colour] = {
    "germany": (120, 126, 136),       # field grey
    "italy": (140, 180, 110),
    "japan": (226, 196, 60),
    "ussr": (150, 84, 40),            # seeds, Global Map: brown for USSR
    "usa": (40, 100, 50),             # seeds, Global Map: dark green for USA
    "commonwealth": (205, 170, 115),
    "france": (80, 120, 210),
    "china": (110, 190, 220),
    "neutral": (255, 255, 255),       # seeds, Global Map: white is used for neutral countries
    # minor countries whose units fight beside a major power (a unit's nationality)
    "romania": (196, 168, 84),
    "hungary": (122, 150, 112),
    "finland": (190, 206, 230),
    "slovakia": (150, 160, 196),
    "bulgaria": (176, 130, 150),
}
UNKNOWN_POWER: Colour = (200, 120, 200)

# How the game writes the powers in short: the seeds write "USSR", "US", "CW" (seeds,
# e.g. "Global Map", "Production"); the other majors by their usual two letters, and minor
# countries (a unit's nationality) by theirs.  A power not listed gets its first two letters,
# unless those are another power's code (then its first three).
POWER_CODES: dict[str, str] = {
    "germany": "GE", "italy": "IT", "japan": "JA", "ussr": "USSR", "usa": "US", "commonwealth": "CW",
    "france": "FR", "china": "CH", "neutral": "N",
    "romania": "RO", "hungary": "HU", "finland": "FI", "slovakia": "SK", "bulgaria": "BU", "croatia": "CR",
    "vichy-france": "VF", "spain": "SP", "turkey": "TU", "sweden": "SW", "poland": "PO",
}

# countries.csv names controllers like "USSR", "Commonwealth"; units use lower-case ids.
def power_id(name: str) -> str:
    return name.strip().lower().replace(" ", "-") if name else "neutral"


def power_colour(power: str) -> Colour:
    return POWER_COLOURS.get(power_id(power), UNKNOWN_POWER)


def power_code(power: str) -> str:
    """The short name of a power or nationality as the game writes it ("USSR", "GE", "CW")."""
    pid = power_id(power)
    if pid in POWER_CODES:
        return POWER_CODES[pid]
    letters = pid.replace("-", "")
    code = letters[:2].upper()
    return letters[:3].upper() if code in POWER_CODES.values() else code


def flag_surface(power: str, size: tuple[int, int] = (36, 24)):
    """A power's flag, drawn from simple shapes (``flags.draw_flag``), with a thin frame."""
    from .flags import flag_surface as draw

    return draw(power, size)


def text_colour_on(bg: Colour) -> Colour:
    r, g, b = bg
    return (0, 0, 0) if r * 0.3 + g * 0.59 + b * 0.11 > 120 else (255, 255, 255)


# ----------------------------------------------------------------------------- weather
# seeds, Global Map Legend: each weather has a lighter colour for land and a darker one for sea.
WEATHER_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "fine": ((250, 236, 150), (110, 150, 200)),
    "rain": ((120, 170, 120), (60, 100, 120)),
    "snow": ((240, 240, 250), (150, 160, 190)),
    "blizzard": ((200, 200, 255), (100, 100, 170)),
    "storm": ((150, 140, 170), (70, 60, 110)),
    "mud": ((150, 110, 70), (90, 80, 100)),
}

# ----------------------------------------------------------------------------- global map views
GLOBAL_SEA: Colour = (40, 70, 130)
GLOBAL_LAND: Colour = (200, 200, 190)
OBJECTIVE_LAVENDER: Colour = (200, 160, 255)  # seeds, Global Map: objectives are lavender hexes
FACTORY_WORKING: Colour = (40, 255, 60)       # seeds: bright green factories receive resources
FACTORY_IDLE: Colour = (230, 30, 30)          # seeds: non-functioning factories in red
OIL: Colour = (220, 150, 255)                 # seeds: oil is bright lavender
RESOURCE: Colour = (140, 90, 40)              # seeds: other resources brown
FRIENDLY_OR_NEUTRAL: Colour = (255, 255, 255)  # seeds: friendly and neutral hexes white
ENEMY: Colour = (128, 128, 128)               # seeds: enemy-controlled hexes gray
RECTANGLE: Colour = (0, 0, 0)                 # seeds: the black rectangle of the linked detailed map
