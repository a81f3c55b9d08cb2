"""Pre-drawn hex stamps per zoom level: one small surface per terrain (with its symbol),
per control colour and per weather, blitted in batches to build map chunks.

Every hex at a zoom level covers the same pixel pattern (integer geometry, see
``mapstyle.ZoomGeometry``), computed once as the set of pixels nearer to the hex's centre
than to any neighbour's, so stamps tile the plane with no gaps and no overlaps.
"""

from __future__ import annotations

import math
import random

import pygame

from . import mapstyle
from .mapstyle import ZoomGeometry

KEY = (255, 0, 255)  # colour key: pixels outside the hex


def hex_corners(g: ZoomGeometry, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
    """Corners clockwise from the top, in the integer geometry (a regular hex stretched to w x h)."""
    t = 2 * g.h / 3
    hw = g.w / 2
    return [(cx, cy - t), (cx + hw, cy - t / 2), (cx + hw, cy + t / 2),
            (cx, cy + t), (cx - hw, cy + t / 2), (cx - hw, cy - t / 2)]


def owns_pixel(g: ZoomGeometry, dx: float, dy: float) -> bool:
    """Is the point (dx, dy) from a hex centre inside that hex?  Scaled back to a regular
    hex of radius 1, a point is inside when it is nearer to the centre than to any of the
    six neighbours' centres."""
    x = dx / g.w * math.sqrt(3)
    y = dy / g.h * 1.5
    d0 = x * x + y * y
    for nx, ny in ((math.sqrt(3), 0), (-math.sqrt(3), 0), (math.sqrt(3) / 2, 1.5), (-math.sqrt(3) / 2, 1.5),
                   (math.sqrt(3) / 2, -1.5), (-math.sqrt(3) / 2, -1.5)):
        if (x - nx) ** 2 + (y - ny) ** 2 < d0:
            return False
    return True


class Stamps:
    """The stamps of one zoom level, drawn on first use."""

    def __init__(self, g: ZoomGeometry):
        self.g = g
        self.size = (g.w + 1, 2 * g.top + 1)
        self.offset = (g.w // 2, g.top)  # stamp pixel of the hex centre
        # Sample points are nudged by an irrational amount so no pixel ties between two hexes.
        ox, oy = self.offset
        self.inside: list[tuple[int, int]] = []
        outside = pygame.Surface(self.size)
        outside.fill(KEY)
        for py in range(self.size[1]):
            for px in range(self.size[0]):
                if owns_pixel(g, px + 0.5 + 1e-4 * math.pi - ox, py + 0.5 + 1e-4 * math.e - oy):
                    self.inside.append((px, py))
                    outside.set_at((px, py), (0, 0, 0))
        inside_set = set(self.inside)
        # One-pixel grid lines: each shared edge drawn once, by the hex on its upper-left.
        self.edge = [p for p in self.inside
                     if (p[0] + 1, p[1]) not in inside_set or (p[0], p[1] + 1) not in inside_set]
        outside.set_colorkey((0, 0, 0))
        self._outside = outside
        self._cache: dict[tuple, pygame.Surface] = {}

    def _finish(self, surface: pygame.Surface, alpha: int | None = None) -> pygame.Surface:
        surface.blit(self._outside, (0, 0))
        surface.set_colorkey(KEY, pygame.RLEACCEL)
        if alpha is not None:
            surface.set_alpha(alpha)
        return surface

    def terrain(self, terrain: str, symbols: bool = True, grid: bool = True) -> pygame.Surface:
        key = ("terrain", terrain, symbols, grid)
        found = self._cache.get(key)
        if found is None:
            colour = mapstyle.TERRAIN_COLOURS.get(terrain, mapstyle.UNKNOWN_TERRAIN)
            s = pygame.Surface(self.size)
            s.fill(colour)
            if symbols and self.g.zoom >= 3:
                draw_terrain_symbol(s, terrain, self.offset, self.g)
            if grid and self.g.zoom >= 3:
                line = tuple(max(0, c - 40) for c in colour)
                for p in self.edge:
                    s.set_at(p, line)
            found = self._cache[key] = self._finish(s)
        return found

    def tint(self, colour, alpha: int) -> pygame.Surface:
        """A translucent full-hex overlay (hex control, weather)."""
        key = ("tint", colour, alpha)
        found = self._cache.get(key)
        if found is None:
            s = pygame.Surface(self.size)
            s.fill(colour)
            found = self._cache[key] = self._finish(s, alpha)
        return found

    def ring(self, colour, width: int) -> pygame.Surface:
        """A coloured band along the inside of the hex edge (hex control at high zoom)."""
        key = ("ring", colour, width)
        found = self._cache.get(key)
        if found is None:
            s = pygame.Surface(self.size)
            s.fill(KEY)
            ox, oy = self.offset
            pts = hex_corners(self.g, ox, oy)
            pygame.draw.polygon(s, colour, pts, width)
            s.blit(self._outside, (0, 0))
            s.set_colorkey(KEY, pygame.RLEACCEL)
            found = self._cache[key] = s
        return found


def draw_terrain_symbol(s: pygame.Surface, terrain: str, centre: tuple[int, int], g: ZoomGeometry) -> None:
    """Readable marks per terrain class, so terrain is not only a flat colour at high zoom."""
    cx, cy = centre
    u = max(2, g.w // 8)  # symbol unit
    rng = random.Random(terrain)  # the same marks on every hex of a class
    base = mapstyle.TERRAIN_COLOURS.get(terrain, mapstyle.UNKNOWN_TERRAIN)
    dark = tuple(max(0, c - 70) for c in base)
    if terrain in ("mountain", "desert mountain"):
        for dx, dy, k in ((-1.3, 0.8, 1.0), (0.9, 0.6, 0.8), (0, -0.4, 1.2)):
            x, y, size = cx + dx * u, cy + dy * u, k * u * 1.2
            pygame.draw.polygon(s, dark, [(x - size, y + size * 0.7), (x, y - size * 0.8), (x + size, y + size * 0.7)])
            pygame.draw.line(s, (245, 245, 245), (x - size * 0.3, y - size * 0.4), (x, y - size * 0.8))
    elif terrain in ("forest", "jungle"):
        n = 4 if terrain == "forest" else 7
        for i in range(n):
            x = cx + rng.uniform(-2.2, 2.2) * u
            y = cy + rng.uniform(-1.8, 1.8) * u
            r = u * (0.8 if terrain == "forest" else 0.6)
            pygame.draw.circle(s, dark, (x, y), r)
            if terrain == "forest":
                pygame.draw.line(s, (70, 50, 30), (x, y + r), (x, y + r + u * 0.6))
    elif terrain == "swamp":
        for i in range(3):
            y = cy + (i - 1) * u * 1.2
            x = cx + (i % 2 - 0.5) * u
            pygame.draw.line(s, dark, (x - u * 1.2, y), (x + u * 1.2, y))
            pygame.draw.line(s, dark, (x, y), (x, y - u * 0.7))
    elif terrain == "desert":
        for i in range(8):
            x = cx + rng.uniform(-2.4, 2.4) * u
            y = cy + rng.uniform(-2.0, 2.0) * u
            pygame.draw.circle(s, dark, (x, y), max(1, u // 3))
    elif terrain == "tundra":
        for i in range(4):
            x = cx + rng.uniform(-2, 2) * u
            y = cy + rng.uniform(-1.8, 1.8) * u
            pygame.draw.line(s, dark, (x - u * 0.5, y), (x + u * 0.5, y))
    elif terrain == "ice":
        light = (170, 200, 230)
        for i in range(-3, 4):
            pygame.draw.line(s, light, (cx + i * u - 3 * u, cy + 3 * u), (cx + i * u + 3 * u, cy - 3 * u))
