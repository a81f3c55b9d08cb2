"""Unit counters drawn from unit data: nationality colour, a type symbol, factors, face-up or
face-down (seeds: a face-down land unit is disorganized, an air unit has flown).

Surfaces are cached by everything that changes their look, so hundreds of counters on the
map cost one ``fblits`` call.  A unit type the symbol table does not know is drawn with a
question mark and reported once (bad data must not stop the map).
"""

from __future__ import annotations

import logging

import pygame

from . import mapstyle

log = logging.getLogger("wif.app")

# Type id -> symbol drawer name.  Unit ids follow the counter data of the scenarios.
LAND_TYPES = {"inf": "infantry", "arm": "armour", "mech": "mech", "mot": "motorized", "cav": "cavalry",
              "mtn": "mountain", "para": "para", "mar": "marine", "eng": "engineer", "hq": "hq", "hq-i": "hq",
              "hq-a": "hq", "art": "artillery", "aa": "aa", "gar": "garrison", "mil": "militia", "par": "partisan",
              "div": "infantry", "ski": "mountain", "sup": "supply"}
AIR_TYPES = {"ftr": "fighter", "lnd": "bomber", "nav": "bomber", "stb": "bomber", "atr": "transport",
             "cvp": "fighter", "bmr": "bomber"}
NAVAL_TYPES = {"bb": "ship", "bc": "ship", "ca": "ship", "cl": "ship", "cv": "carrier", "cve": "carrier",
               "dd": "ship", "sub": "sub", "tr": "transport-ship", "amph": "transport-ship", "cp": "convoy",
               "convoy": "convoy"}
KNOWN_TYPES = {**LAND_TYPES, **AIR_TYPES, **NAVAL_TYPES}
BRANCH_ORDER = {"land": 0, "air": 1, "naval": 2}


def stack_order(units: list) -> list:
    """Land and air units first, as in the seeds' Flyouts; the first is drawn on top."""
    return sorted(units, key=lambda u: BRANCH_ORDER.get(u.branch, 3))


def factor_text(unit) -> str:
    f = unit.factors or {}
    if "combat" in f and "move" in f:
        return f"{f['combat']}-{f['move']}"
    values = list(f.values())[:2]
    return "-".join(str(v) for v in values)


class CounterArt:
    def __init__(self, model=None, messages=None):
        self.model = model
        self.messages = messages  # a list to append readable warnings to (the window shows them)
        self._cache: dict[tuple, pygame.Surface] = {}
        self.unknown_types: set[str] = set()

    def warn(self, text: str) -> None:
        log.warning(text)
        if self.messages is not None:
            self.messages.append(text)

    def symbol_of(self, unit) -> str:
        kind = KNOWN_TYPES.get(unit.type)
        if kind is None:
            if unit.type not in self.unknown_types:
                self.unknown_types.add(unit.type)
                self.warn(f"unit {unit.id}: unknown unit type {unit.type!r}; drawn as a plain counter")
            return "unknown"
        return kind

    def surface(self, unit, size: int, resolution: str = "high") -> pygame.Surface:
        power = unit.nationality or unit.power
        key = (power, unit.type, unit.branch, unit.face_up, factor_text(unit) if resolution == "high" else "",
               size, resolution)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._draw(unit, power, size, resolution)
        return found

    def badge(self, count: int, size: int) -> pygame.Surface:
        key = ("badge", count, size)
        found = self._cache.get(key)
        if found is None:
            from .detailed import font

            f = font(max(12, size // 2), bold=True)
            text = f.render(str(count), True, (255, 255, 255))
            found = pygame.Surface((text.get_width() + 4, text.get_height()))
            found.fill((0, 0, 0))
            found.blit(text, (2, 0))
            self._cache[key] = found
        return found

    def _draw(self, unit, power: str, size: int, resolution: str) -> pygame.Surface:
        from .detailed import font

        colour = mapstyle.power_colour(power)
        ink = mapstyle.text_colour_on(colour)
        s = pygame.Surface((size, size))
        s.fill(colour)
        if not unit.face_up:
            # The back of the counter: lighter, with a band, no factors.
            light = tuple(min(255, c + 60) for c in colour)
            s.fill(light)
            pygame.draw.rect(s, ink, (0, size * 2 // 5, size, max(1, size // 6)))
        if size >= 9:
            pygame.draw.rect(s, (0, 0, 0), s.get_rect(), 1)
        if size < 12:
            return s
        kind = self.symbol_of(unit)
        box = pygame.Rect(size // 5, size // 8, size - 2 * (size // 5), int(size * 0.42))
        draw_symbol(s, kind, box, ink)
        if resolution == "high" and unit.face_up and size >= 18:
            text = factor_text(unit)
            if text:
                f = font(max(10, int(size * 0.42)), bold=True)
                img = f.render(text, True, ink)
                s.blit(img, ((size - img.get_width()) // 2, size - img.get_height()))
        return s


def draw_symbol(s: pygame.Surface, kind: str, box: pygame.Rect, ink) -> None:
    """NATO-like marks for land units, silhouettes for air and naval ones."""
    x, y, w, h = box
    if kind in ("infantry", "armour", "mech", "motorized", "cavalry", "mountain", "para", "marine", "engineer",
                "hq", "artillery", "aa", "garrison", "militia", "partisan", "supply"):
        pygame.draw.rect(s, ink, box, 1)
        if kind in ("infantry", "mech", "mountain", "para", "marine", "garrison", "militia", "motorized"):
            pygame.draw.line(s, ink, (x, y), (x + w - 1, y + h - 1))
            pygame.draw.line(s, ink, (x, y + h - 1), (x + w - 1, y))
        if kind in ("armour", "mech"):
            pygame.draw.ellipse(s, ink, (x + w // 5, y + h // 4, w - 2 * (w // 5), h - 2 * (h // 4)), 1)
        if kind == "cavalry":
            pygame.draw.line(s, ink, (x, y + h - 1), (x + w - 1, y))
        if kind == "mountain":
            pygame.draw.polygon(s, ink, [(x + w // 2 - 3, y + h - 1), (x + w // 2, y + h - 5), (x + w // 2 + 3, y + h - 1)])
        if kind == "para":
            pygame.draw.arc(s, ink, (x + w // 4, y, w // 2, h // 2), 3.14, 6.28)
        if kind == "motorized":
            pygame.draw.line(s, ink, (x + w // 2, y), (x + w // 2, y + h - 1))
        if kind in ("artillery", "aa"):
            pygame.draw.circle(s, ink, (x + w // 2, y + h // 2), max(1, h // 5))
        if kind == "hq":
            pygame.draw.line(s, ink, (x, y + h // 2), (x + w - 1, y + h // 2))
        if kind == "engineer":
            pygame.draw.rect(s, ink, (x + w // 4, y + h // 3, w // 2, h // 3), 1)
        if kind == "partisan":
            pygame.draw.circle(s, ink, (x + w // 2, y + h // 2), max(1, h // 3), 1)
    elif kind in ("fighter", "bomber", "transport"):
        cx, cy = x + w // 2, y + h // 2
        span = w // 2 if kind == "fighter" else w // 2 + 1
        pygame.draw.line(s, ink, (cx - span, cy), (cx + span, cy), 2 if kind == "bomber" else 1)
        pygame.draw.line(s, ink, (cx, cy - h // 2), (cx, cy + h // 2), 2)
        pygame.draw.line(s, ink, (cx - span // 3, cy + h // 2), (cx + span // 3, cy + h // 2))
    elif kind in ("ship", "carrier", "transport-ship", "convoy"):
        hull = [(x, y + h // 2), (x + w - 1, y + h // 2), (x + w - 1 - w // 6, y + h - 1), (x + w // 6, y + h - 1)]
        pygame.draw.polygon(s, ink, hull)
        if kind == "ship":
            pygame.draw.rect(s, ink, (x + w // 3, y + h // 4, w // 3, h // 4))
        if kind == "carrier":
            pygame.draw.line(s, ink, (x, y + h // 2 - 2), (x + w - 1, y + h // 2 - 2), 2)
        if kind == "convoy":
            pygame.draw.circle(s, ink, (x + w // 2, y + h // 4), max(1, h // 5), 1)
    elif kind == "sub":
        pygame.draw.ellipse(s, ink, (x, y + h // 2, w, h // 2))
        pygame.draw.rect(s, ink, (x + w // 2 - 2, y + h // 4, 4, h // 4))
    else:  # unknown type: a clear question mark, never a crash
        from .detailed import font

        img = font(max(10, h + 4), bold=True).render("?", True, ink)
        s.blit(img, (x + (w - img.get_width()) // 2, y))


_SHARED_ART: CounterArt | None = None


def counter_picture(unit, size: int) -> pygame.Surface:
    """One unit's counter as a ``size`` x ``size`` picture, drawn as the map draws it (type
    symbol, size mark, factors; the unit's name too when ``size`` is large enough), for
    lists and forms (Selectable Units, Unit Review).  ``unit`` is a units-plugin ``Unit``
    (or anything with its fields).  The surface is cached and shared: blit it, never draw on
    it."""
    global _SHARED_ART
    if _SHARED_ART is None:
        _SHARED_ART = CounterArt()
    return _SHARED_ART.surface(unit, max(5, int(size)))
