"""National flags of the powers, drawn from plain shapes at any size (seeds: the forms show
"the flag" of the deciding major power, "Major power flags" pick a power).

These are our simplified drawings of the 1939-45 flags, recognisable at 36 x 24 pixels, not
copies of flag art.  Germany is shown by the Balkenkreuz on a white disc and red field (the
national flag of the period is not reproduced).  A power without a drawing gets its map
colour with its code (``mapstyle.power_code``) in the middle.
"""

from __future__ import annotations

import math

import pygame

from . import mapstyle

RED, WHITE, BLUE, GREEN = (200, 30, 40), (245, 245, 245), (30, 60, 150), (20, 130, 60)
YELLOW, BLACK = (250, 210, 30), (15, 15, 15)

# Stripes: ("v" vertical | "h" horizontal, colours in order).
STRIPES: dict[str, tuple[str, tuple]] = {
    "italy": ("v", (GREEN, WHITE, RED)),
    "france": ("v", (BLUE, WHITE, RED)),
    "romania": ("v", (BLUE, YELLOW, RED)),
    "hungary": ("h", (RED, WHITE, GREEN)),
    "slovakia": ("h", (WHITE, BLUE, RED)),
    "bulgaria": ("h", (WHITE, GREEN, RED)),
    "neutral": ("h", (WHITE,)),
}
_CACHE: dict[tuple, pygame.Surface] = {}


def flag_surface(power: str, size: tuple[int, int] = (36, 24)) -> pygame.Surface:
    """The flag of ``power`` (a power or nationality id or name) at ``size``, framed; cached,
    so blit it and do not draw on it."""
    key = (mapstyle.power_id(power), tuple(size))
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = pygame.Surface(size)
        draw_flag(found, found.get_rect(), power)
        pygame.draw.rect(found, BLACK, found.get_rect(), 1)
    return found


def draw_flag(s: pygame.Surface, r: pygame.Rect, power: str) -> None:
    pid = mapstyle.power_id(power)
    x, y, w, h = r
    if pid in STRIPES:
        way, colours = STRIPES[pid]
        n = len(colours)
        for i, colour in enumerate(colours):
            if way == "v":
                s.fill(colour, (x + w * i // n, y, w * (i + 1) // n - w * i // n, h))
            else:
                s.fill(colour, (x, y + h * i // n, w, h * (i + 1) // n - h * i // n))
    elif pid == "germany":
        s.fill(RED, r)
        radius = h * 0.36
        pygame.draw.circle(s, WHITE, r.center, radius)
        arm, bar = max(2, int(radius * 0.8)), max(1, h // 8)
        s.fill(BLACK, (r.centerx - arm, r.centery - bar // 2 - 1, 2 * arm + 1, bar + 2))
        s.fill(BLACK, (r.centerx - bar // 2 - 1, r.centery - arm, bar + 2, 2 * arm + 1))
    elif pid == "japan":
        s.fill(WHITE, r)
        pygame.draw.circle(s, RED, r.center, h * 0.3)
    elif pid == "ussr":
        s.fill(RED, r)
        star(s, (x + w * 0.2, y + h * 0.25), h * 0.16, YELLOW)
        # hammer and sickle, reduced to a crossed stroke under the star
        cx, cy, k = x + w * 0.2, y + h * 0.55, h * 0.12
        pygame.draw.line(s, YELLOW, (cx - k, cy - k), (cx + k, cy + k), max(1, h // 14))
        pygame.draw.arc(s, YELLOW, (cx - k * 1.3, cy - k * 1.3, k * 2.6, k * 2.6), 3.6, 6.0, max(1, h // 14))
    elif pid == "usa":
        for i in range(7):
            s.fill(RED if i % 2 == 0 else WHITE, (x, y + h * i // 7, w, h * (i + 1) // 7 - h * i // 7))
        s.fill(BLUE, (x, y, w * 2 // 5, h * 4 // 7))
    elif pid == "commonwealth":
        s.fill(BLUE, r)
        band = max(2, h // 6)
        pygame.draw.line(s, WHITE, r.topleft, r.bottomright, band + 1)
        pygame.draw.line(s, WHITE, r.bottomleft, r.topright, band + 1)
        pygame.draw.line(s, RED, r.topleft, r.bottomright, max(1, band // 2))
        pygame.draw.line(s, RED, r.bottomleft, r.topright, max(1, band // 2))
        s.fill(WHITE, (x, r.centery - band, w, 2 * band))
        s.fill(WHITE, (r.centerx - band, y, 2 * band, h))
        s.fill(RED, (x, r.centery - band // 2, w, band))
        s.fill(RED, (r.centerx - band // 2, y, band, h))
    elif pid == "china":
        s.fill(RED, r)
        s.fill(BLUE, (x, y, w // 2, h // 2))
        pygame.draw.circle(s, WHITE, (x + w // 4, y + h // 4), max(1, h // 8))
    elif pid == "finland":
        s.fill(WHITE, r)
        band = max(2, h // 4)
        s.fill(BLUE, (x, r.centery - band // 2, w, band))
        s.fill(BLUE, (x + w // 3 - band // 2, y, band, h))
    else:
        colour = mapstyle.power_colour(power)
        s.fill(colour, r)
        from .fonts import font

        text = font(max(10, h * 3 // 5), bold=True).render(mapstyle.power_code(power), True,
                                                            mapstyle.text_colour_on(colour))
        if text.get_width() > w - 2:
            text = pygame.transform.smoothscale(text, (w - 2, text.get_height()))
        s.blit(text, (r.centerx - text.get_width() // 2, r.centery - text.get_height() // 2))


def star(s: pygame.Surface, centre, radius: float, colour) -> None:
    cx, cy = centre
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pygame.draw.polygon(s, colour, points)
