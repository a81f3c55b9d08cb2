"""The static layers of the detailed map's chunks besides terrain: hexsides (rivers,
borders, forts, weather-zone borders) and labels (cities, sea areas).  Split from
app/detailed.py; the functions take the DetailedMap as ``self``."""

from __future__ import annotations

import pygame

from . import mapstyle
from .fonts import font
from .stamps import hex_corners

_LABELS: dict[tuple, tuple] = {}


def draw_hexsides(self, surface, g, hexes, zoom) -> None:
    """Rivers, canals, straits, lake sides, borders, weather-zone borders and the printed
    fortifications of the hexes of one chunk (``self`` is the DetailedMap)."""
    m = self.model
    grid = self.grid
    features = self._side_features
    forts = self._forts
    fort_sides = []  # drawn last, over rivers and borders
    width = 1 if zoom <= 2 else 2 if zoom <= 5 else 3
    for _, col, row, sx, sy in hexes:
        corners = hex_corners(g, sx, sy)
        # the three sides this hex owns: E (corners 1-2), SE (2-3), SW (3-4)
        for k, (a, b) in enumerate(((1, 2), (2, 3), (3, 4))):
            other = grid.neighbour((col, row), k)
            if other is None:
                continue
            p, q = corners[a], corners[b]
            if self.layers["hexsides"]:
                fort = forts.get((row * grid.cols + col) * 3 + k)
                if fort is not None:
                    fort_sides.append((fort, col, row, sx, sy, p, q))
                feature = features.get((row * grid.cols + col) * 3 + k)
                if feature is not None:
                    colour = {"river": mapstyle.RIVER, "canal": mapstyle.CANAL, "strait": mapstyle.STRAIT,
                              "lake": mapstyle.LAKE_SIDE}.get(feature.kind, mapstyle.RIVER)
                    pygame.draw.line(surface, colour, p, q, width + (1 if feature.kind == "lake" else 0))
                    continue
                ca, cb = m.country_grid[row][col], m.country_grid[other[1]][other[0]]
                if ca != cb and ca and cb:
                    pygame.draw.line(surface, mapstyle.COUNTRY_BORDER, p, q, max(1, width - 1))
            if self.layers["weather_zones"]:
                if m.zone_grid[row][col] != m.zone_grid[other[1]][other[0]]:
                    pygame.draw.line(surface, mapstyle.WEATHER_ZONE_BORDER, p, q, width + 1)
    for fort, col, row, sx, sy, p, q in fort_sides:
        # a dark band with teeth pointing out of the fortified hex, toward the attacker
        pygame.draw.line(surface, mapstyle.FORT, p, q, width + 2)
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        out = 1 if fort.hex == (col, row) else -1
        tx, ty = (mx - sx) * out * 0.25, (my - sy) * out * 0.25
        for f in (0.25, 0.5, 0.75):
            bx, by = p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f
            pygame.draw.line(surface, mapstyle.FORT, (bx, by), (bx + tx, by + ty), max(1, width))

def city_label(city, g, zoom) -> tuple[pygame.Surface, int, int] | None:
    """A city's name as the map prints it, and its top-left offset from the hex centre
    (under the city's mark); None where the zoom shows no name for it."""
    major = city.is_capital or city.objective
    if not (zoom >= 4 or (zoom >= 2 and major)):
        return None
    face = font(label_size(g))
    key = (city.name, bool(city.objective), zoom, id(face))  # a new pygame init makes new fonts
    found = _LABELS.get(key)
    if found is None:
        colour = mapstyle.OBJECTIVE if city.objective else mapstyle.LABEL
        text = face.render(city.name, True, colour)
        found = _LABELS[key] = (text, -(text.get_width() // 2), city_mark_radius(g) + 1)
    return found


def label_size(g) -> int:
    return max(10, min(20, int(g.h * 0.5)))


def city_mark_radius(g) -> int:
    return max(2, g.w // 7)


def draw_labels(self, surface, g, zoom, x0, y0, unnamed=None) -> None:
    """City marks and names, sea-area names, on one chunk (``self`` is the DetailedMap); the
    city ``unnamed`` without its name."""
    cols = self.grid.cols
    ww = cols * g.w
    cw, chh = surface.get_size()
    margin_x, margin_y = 160, 24
    for city in self._cities:
        major = city.is_capital or city.objective
        if zoom == 1 and not major:
            continue
        x, y = city.col * g.w + g.half_w * (city.row & 1), city.row * g.h + g.top
        sx = (x - x0 + margin_x) % ww - margin_x
        sy = y - y0
        if not (-margin_x <= sx <= cw + margin_x and -margin_y <= sy <= chh + margin_y):
            continue
        colour = mapstyle.OBJECTIVE if city.objective else mapstyle.LABEL
        r = city_mark_radius(g)
        if city.is_capital:
            pygame.draw.rect(surface, colour, (sx - r, sy - r, 2 * r + 1, 2 * r + 1))
            pygame.draw.rect(surface, (255, 255, 255), (sx - r, sy - r, 2 * r + 1, 2 * r + 1), 1)
        else:
            pygame.draw.circle(surface, colour, (sx, sy), r)
        if city.port and zoom >= 3:
            pygame.draw.circle(surface, (20, 40, 160), (sx + r + 2, sy - r - 1), max(2, r // 2 + 1), 1)
        label = city_label(city, g, zoom) if city is not unnamed else None
        if label is not None:
            text, dx, dy = label
            surface.blit(text, (sx + dx, sy + dy))
    sea_font = font(max(12, min(26, int(g.h * 0.7))), bold=True)
    if zoom <= 6:
        for code, (col, row) in self.model.sea_label_hex.items():
            area = self.model.world.sea_areas.get(code)
            if area is None:
                continue
            x, y = col * g.w + g.half_w * (row & 1), row * g.h + g.top
            sx = (x - x0 + 300) % ww - 300
            sy = y - y0
            if not (-300 <= sx <= cw + 300 and -30 <= sy <= chh + 30):
                continue
            text = sea_font.render(area.name, True, mapstyle.SEA_LABEL)
            surface.blit(text, (sx - text.get_width() // 2, sy - text.get_height() // 2))
