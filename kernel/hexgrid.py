"""Hex grid geometry: pointy-top hexes in offset rows that wrap east-west.

Layout ("odd-r"): rows run west-east, row 0 at the top, and every odd row is shifted
half a hex to the east. Column numbers wrap modulo ``cols`` (the world is a cylinder);
rows do not wrap. A hex is addressed as an offset tuple ``(col, row)``.

Internally the grid uses axial coordinates ``(q, r)`` with ``r == row`` and
``q = col - (row - (row & 1)) // 2``; cube coordinates are ``(q, r, -q - r)``. Shifting a
hex by a whole turn of the cylinder changes ``q`` by ``cols`` and leaves ``r`` alone,
so every metric takes the shortest of the three images (west, same, east).

Hexsides: each hex owns its E, SE and SW sides; the other three belong to a neighbour.
A side's canonical id is ``(row * cols + col) * 3 + k`` with k = 0 (E), 1 (SE), 2 (SW),
so both hexes that share an edge name it with the same integer.

This module knows nothing about the game: no terrain, no countries, no pygame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

Hex = tuple[int, int]  # (col, row) offset coordinates

# Direction indices, clockwise from east on screen (y grows downwards).
E, SE, SW, W, NW, NE = range(6)
DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")
# Axial (dq, dr) for each direction.
_AXIAL_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
# The three sides a hex owns, as direction index -> k in the hexside id.
_OWNED_SIDE_SLOT = {E: 0, SE: 1, SW: 2}
_OPPOSITE = (W, NW, NE, E, SE, SW)

SQRT3 = math.sqrt(3.0)


class HexGridError(ValueError):
    """A coordinate or id that does not belong to the grid."""


def direction_index(name_or_index: str | int) -> int:
    if isinstance(name_or_index, int):
        if 0 <= name_or_index < 6:
            return name_or_index
        raise HexGridError(f"direction {name_or_index} is not 0..5")
    try:
        return DIRECTION_NAMES.index(name_or_index.upper())
    except ValueError:
        raise HexGridError(f"unknown direction {name_or_index!r}; use one of {DIRECTION_NAMES}") from None


def opposite(direction: int) -> int:
    return _OPPOSITE[direction]


@dataclass(frozen=True)
class HexGrid:
    """A ``cols`` x ``rows`` grid of pointy-top hexes, wrapping east-west when ``wrap``."""

    cols: int
    rows: int
    wrap: bool = True
    # Each hex's neighbours, worked out once: supply traces, zones of control and sea-area
    # measures ask for them hundreds of thousands of times a game (not part of the grid's value).
    _neighbours: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    # ----- bookkeeping -------------------------------------------------------------
    @property
    def hex_count(self) -> int:
        return self.cols * self.rows

    def contains(self, hex_: Hex) -> bool:
        col, row = hex_
        if not 0 <= row < self.rows:
            return False
        return self.wrap or 0 <= col < self.cols

    def normalize(self, hex_: Hex) -> Hex:
        """The canonical form of a hex (column folded into 0..cols-1); raises if off the grid."""
        col, row = hex_
        if not 0 <= row < self.rows:
            raise HexGridError(f"hex {col},{row}: row outside 0..{self.rows - 1}")
        if self.wrap:
            return (col % self.cols, row)
        if not 0 <= col < self.cols:
            raise HexGridError(f"hex {col},{row}: column outside 0..{self.cols - 1}")
        return (col, row)

    def index(self, hex_: Hex) -> int:
        col, row = self.normalize(hex_)
        return row * self.cols + col

    def hex_at(self, index: int) -> Hex:
        if not 0 <= index < self.hex_count:
            raise HexGridError(f"hex index {index} outside 0..{self.hex_count - 1}")
        return (index % self.cols, index // self.cols)

    def all_hexes(self) -> Iterator[Hex]:
        for row in range(self.rows):
            for col in range(self.cols):
                yield (col, row)

    # ----- coordinate systems ------------------------------------------------------
    @staticmethod
    def to_axial(hex_: Hex) -> tuple[int, int]:
        col, row = hex_
        return (col - (row - (row & 1)) // 2, row)

    def from_axial(self, q: int, r: int) -> Hex:
        """Offset hex for axial (q, r), column folded when the grid wraps (unchecked row)."""
        col = q + (r - (r & 1)) // 2
        if self.wrap:
            col %= self.cols
        return (col, r)

    @classmethod
    def to_cube(cls, hex_: Hex) -> tuple[int, int, int]:
        q, r = cls.to_axial(hex_)
        return (q, r, -q - r)

    def from_cube(self, x: int, y: int, z: int) -> Hex:
        if x + y + z != 0:
            raise HexGridError(f"cube ({x},{y},{z}) does not sum to 0")
        return self.from_axial(x, y)

    # ----- neighbours and distance ------------------------------------------------
    def neighbour(self, hex_: Hex, direction: int) -> Hex | None:
        """The adjacent hex in ``direction`` (E, SE, SW, W, NW, NE), or None off the grid."""
        q, r = self.to_axial(hex_)
        dq, dr = _AXIAL_STEPS[direction]
        col, row = self.from_axial(q + dq, r + dr)
        if not 0 <= row < self.rows or (not self.wrap and not 0 <= col < self.cols):
            return None
        return (col, row)

    def neighbours(self, hex_: Hex) -> list[Hex]:
        """Adjacent hexes that exist, in direction order starting east, clockwise."""
        found = self._neighbours.get(hex_)
        if found is None:
            found = self._neighbours[hex_] = tuple(self._find_neighbours(hex_))
        return list(found)

    def _find_neighbours(self, hex_: Hex) -> list[Hex]:
        # ``neighbour`` for the six directions, its arithmetic inlined
        col, row = hex_
        q = col - (row - (row & 1)) // 2
        found = []
        for dq, dr in _AXIAL_STEPS:
            r = row + dr
            if not 0 <= r < self.rows:
                continue
            c = q + dq + (r - (r & 1)) // 2
            if self.wrap:
                c %= self.cols
            elif not 0 <= c < self.cols:
                continue
            found.append((c, r))
        return found

    def direction_to(self, a: Hex, b: Hex) -> int | None:
        """Direction from ``a`` to its neighbour ``b``; None when they are not adjacent."""
        b = self.normalize(b)
        for direction in range(6):
            if self.neighbour(a, direction) == b:
                return direction
        return None

    def _nearest_image(self, a: Hex, b: Hex) -> tuple[int, int]:
        """Axial coordinates of the copy of ``b`` closest to ``a`` across the wrap."""
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        if not self.wrap:
            return (qb, rb)
        best = None
        for shift in (-self.cols, 0, self.cols):
            candidate = (qb + shift, rb)
            d = _axial_distance((qa, ra), candidate)
            if best is None or d < best[0]:
                best = (d, candidate)
        return best[1]

    def distance(self, a: Hex, b: Hex) -> int:
        """Number of hex steps from ``a`` to ``b`` (shortest way round the cylinder)."""
        a = self.normalize(a)
        b = self.normalize(b)
        return _axial_distance(self.to_axial(a), self._nearest_image(a, b))

    def ring(self, center: Hex, radius: int) -> list[Hex]:
        """Hexes exactly ``radius`` steps from ``center`` (clipped at the top/bottom edge)."""
        center = self.normalize(center)
        if radius < 0:
            raise HexGridError("ring radius must be >= 0")
        if radius == 0:
            return [center]
        q, r = self.to_axial(center)
        # Start SW... walk: begin at radius steps in direction W, then walk the 6 sides.
        dq, dr = _AXIAL_STEPS[W]
        q, r = q + dq * radius, r + dr * radius
        seen: set[Hex] = set()
        result: list[Hex] = []
        for side in (NE, E, SE, SW, W, NW):
            sq, sr = _AXIAL_STEPS[side]
            for _ in range(radius):
                hex_ = self.from_axial(q, r)
                if 0 <= hex_[1] < self.rows and self.contains(hex_) and hex_ not in seen:
                    # On a narrow wrapped grid a big ring can meet itself; keep true distance.
                    if self.distance(center, hex_) == radius:
                        seen.add(hex_)
                        result.append(hex_)
                q, r = q + sq, r + sr
        return result

    def within(self, center: Hex, radius: int) -> list[Hex]:
        """All hexes at distance 0..radius from ``center``, nearest first."""
        out: list[Hex] = []
        for k in range(radius + 1):
            out.extend(self.ring(center, k))
        return out

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """Hexes on the straight line from ``a`` to ``b`` inclusive (distance + 1 hexes)."""
        a = self.normalize(a)
        b = self.normalize(b)
        qa, ra = self.to_axial(a)
        qb, rb = self._nearest_image(a, b)
        n = _axial_distance((qa, ra), (qb, rb))
        if n == 0:
            return [a]
        # A tiny nudge keeps lerped points off hex edges so ties break the same way.
        ax, ay, az = qa + 1e-6, ra + 2e-6, -qa - ra - 3e-6
        bx, by, bz = qb + 1e-6, rb + 2e-6, -qb - rb - 3e-6
        out = []
        for i in range(n + 1):
            t = i / n
            x, y, _ = _cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
            out.append(self.from_axial(x, y))
        return out

    # ----- hexsides ------------------------------------------------------------------
    def hexside(self, hex_: Hex, direction: int) -> int | None:
        """Canonical id of the side of ``hex_`` facing ``direction``; None at the grid edge."""
        hex_ = self.normalize(hex_)
        owner, slot = hex_, _OWNED_SIDE_SLOT.get(direction)
        if slot is None:
            other = self.neighbour(hex_, direction)
            if other is None:
                return None
            owner, slot = other, _OWNED_SIDE_SLOT[_OPPOSITE[direction]]
        elif self.neighbour(hex_, direction) is None:
            return None
        col, row = owner
        return (row * self.cols + col) * 3 + slot

    def hexside_between(self, a: Hex, b: Hex) -> int:
        direction = self.direction_to(a, b)
        if direction is None:
            raise HexGridError(f"hexes {a[0]},{a[1]} and {b[0]},{b[1]} are not adjacent")
        side = self.hexside(a, direction)
        assert side is not None
        return side

    def hexside_hexes(self, side_id: int) -> tuple[Hex, Hex]:
        """The two hexes sharing hexside ``side_id``: (owner, neighbour)."""
        if side_id < 0 or side_id >= self.hex_count * 3:
            raise HexGridError(f"hexside id {side_id} outside the grid")
        owner = self.hex_at(side_id // 3)
        direction = (E, SE, SW)[side_id % 3]
        other = self.neighbour(owner, direction)
        if other is None:
            raise HexGridError(f"hexside id {side_id} lies on the grid edge")
        return owner, other

    def hexside_of(self, side_id: int) -> tuple[Hex, int]:
        """(owner hex, direction) of a canonical hexside id."""
        self.hexside_hexes(side_id)
        return self.hex_at(side_id // 3), (E, SE, SW)[side_id % 3]

    def hexsides(self, hex_: Hex) -> list[int]:
        """Ids of the (up to six) sides of a hex, in direction order starting east."""
        return [s for s in (self.hexside(hex_, d) for d in range(6)) if s is not None]

    # ----- pixels --------------------------------------------------------------------
    # ``size`` is the hex's outer radius (centre to corner) in pixels. Hex (0, 0) has its
    # centre at ``origin``; x grows east, y grows south. Pixel x is not folded: the renderer
    # chooses which copy of the world it draws.
    @staticmethod
    def hex_to_pixel(hex_: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        col, row = hex_
        x = SQRT3 * size * (col + 0.5 * (row & 1))
        y = 1.5 * size * row
        return (origin[0] + x, origin[1] + y)

    def pixel_to_hex(self, x: float, y: float, size: float,
                     origin: tuple[float, float] = (0.0, 0.0)) -> Hex | None:
        """The hex containing pixel (x, y); None above or below the grid."""
        if size <= 0:
            raise HexGridError("hex size must be > 0")
        px = (x - origin[0]) / size
        py = (y - origin[1]) / size
        fq = (SQRT3 / 3 * px - py / 3)
        fr = (2.0 / 3) * py
        q, r, _ = _cube_round(fq, fr, -fq - fr)
        hex_ = self.from_axial(q, r)
        return hex_ if self.contains(hex_) else None

    @staticmethod
    def corners(hex_: Hex, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
        """The six corner points, clockwise from the top (pointy-top)."""
        cx, cy = HexGrid.hex_to_pixel(hex_, size, origin)
        points = []
        for i in range(6):
            angle = math.radians(60 * i - 90)
            points.append((cx + size * math.cos(angle), cy + size * math.sin(angle)))
        return points

    @staticmethod
    def side_endpoints(hex_: Hex, direction: int, size: float,
                       origin: tuple[float, float] = (0.0, 0.0)) -> tuple[tuple[float, float], tuple[float, float]]:
        """Pixel end points of one side of a hex (for drawing rivers and borders)."""
        pts = HexGrid.corners(hex_, size, origin)
        # corners: 0 top, 1 upper-right, 2 lower-right, 3 bottom, 4 lower-left, 5 upper-left
        pairs = {E: (1, 2), SE: (2, 3), SW: (3, 4), W: (4, 5), NW: (5, 0), NE: (0, 1)}
        i, j = pairs[direction]
        return pts[i], pts[j]


def _axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _cube_round(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(ry), int(rz))


# The world map's grid. Kept here as plain numbers; what the hexes mean lives in the map data.
WORLD = HexGrid(cols=360, rows=195, wrap=True)
