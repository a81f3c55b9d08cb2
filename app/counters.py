"""Unit counters drawn from unit data, laid out as the printed ones: nationality colour; from
top to bottom the unit's name (34 px and up, zoom 7-8), the NATO size mark (XX division, XXX
corps, XXXX army, XXXXX army group or front), the type symbol, the factors (digits 9 px
tall on the 22-px counter of zoom 5); face-up or face-down (seeds: a face-down land unit is
disorganized, an air unit has flown).  ``counter_picture`` gives lists and forms the same
picture.

Surfaces are cached by everything that changes their look, so hundreds of counters on the
map cost one ``fblits`` call.  A unit type the symbol table does not know is drawn with a
question mark and reported once (bad data must not stop the map).
"""

from __future__ import annotations

import logging

import pygame

from . import mapstyle
from .fonts import glyph_text

log = logging.getLogger("wif.app")

# Type id -> symbol drawer name.  Unit ids follow the counter data of the scenarios.
LAND_TYPES = {"inf": "infantry", "arm": "armour", "mech": "mech", "mot": "motorized", "cav": "cavalry",
              "mtn": "mountain", "para": "para", "mar": "marine", "eng": "engineer", "hq": "hq", "hq-i": "hq",
              "hq-a": "hq-armour", "art": "artillery", "aa": "aa", "gar": "garrison", "mil": "militia", "par": "partisan",
              "div": "infantry", "ski": "mountain", "sup": "supply"}
AIR_TYPES = {"ftr": "fighter", "lnd": "bomber", "nav": "bomber", "stb": "bomber", "atr": "transport",
             "cvp": "fighter", "bmr": "bomber"}
# Naval classes by silhouette (issue 14: a player tells a carrier from a battleship, a cruiser, a
# destroyer flotilla, a transport, an amphibious ship and a convoy at a glance)
NAVAL_TYPES = {"bb": "battleship", "bc": "battleship", "ca": "cruiser", "cl": "cruiser", "cv": "carrier",
               "cve": "carrier", "dd": "destroyer", "sub": "sub", "tr": "transport-ship", "trs": "transport-ship",
               "amph": "amphibious", "cp": "convoy", "convoy": "convoy"}
SHIP_KINDS = ("battleship", "cruiser", "destroyer", "carrier", "transport-ship", "amphibious", "convoy")
LAND_KINDS = set(LAND_TYPES.values())
KNOWN_TYPES = {**LAND_TYPES, **AIR_TYPES, **NAVAL_TYPES}
BRANCH_ORDER = {"land": 0, "air": 1, "naval": 2}
# Ships in Flames, "Naval Combat Results": a D "is damaged. Put a damage marker on the unit".
# The map's damage marker is a red frame round the counter (the sea-box layer's colour), so it
# hides no name nor factor.
DAMAGED = (230, 40, 40)


def stack_order(units: list) -> list:
    """Land and air units first, as in the seeds' Flyouts; the first is drawn on top."""
    return sorted(units, key=lambda u: BRANCH_ORDER.get(u.branch, 3))


def factor_text(unit) -> str:
    """The factors printed along a counter's foot: land combat-move, air air-to-air and
    tactical, naval attack-defence, a convoy's points, otherwise the first two factors the
    counter data gives."""
    f = unit.factors or {}
    if "points" in f and "attack" not in f:
        return f"{f['points']}CP"  # a convoy counter: its convoy points, never read as attack-defence
    for first, second in (("combat", "move"), ("air", "tactical"), ("attack", "defense")):
        if first in f and second in f:
            return f"{f[first]}-{f[second]}"
    values = list(f.values())[:2]
    return "-".join(str(v) for v in values)


# NATO unit-size marks: XX division, XXX corps, XXXX army, XXXXX army group (a Soviet front).
# The counter data says "division" or "army" (a corps or army counter); the name tells which.
def size_mark(unit) -> str:
    if unit.branch != "land":
        return ""
    size = (unit.size or "").lower()
    name = (unit.name or "").lower()
    if size in ("division", "div") or unit.type == "div":
        return "XX"
    if size == "corps" or "corps" in name:
        return "XXX"
    if "army group" in name or name.endswith(" front"):
        return "XXXXX"
    return "XXXX"


# Words shortened when a name does not fit its counter (the usual map abbreviations).
SHORT_WORDS = {"army": "A", "corps": "C", "mechanized": "Mech", "motorized": "Mot", "panzer": "Pz",
               "cavalry": "Cav", "mountain": "Mtn", "front": "Fr", "group": "Gp", "guards": "Gds",
               "rifle": "Rfl", "special": "Sp", "infantry": "Inf", "northwestern": "NW", "southwestern": "SW",
               "northern": "N", "southern": "S", "western": "W", "centre": "Ctr", "north": "N", "south": "S"}


def short_name(name: str) -> str:
    """A unit's name without the bracketed note air counters carry, words shortened."""
    bare = name.split("(")[0].strip() or name
    return " ".join(SHORT_WORDS.get(word.lower(), word) for word in bare.split())


# Sizes (pixels of a counter's side) from which a part is drawn.
SYMBOL_FROM, FACTORS_FROM, MARK_FROM, NAME_FROM = 12, 18, 18, 34


def factor_height(size: int) -> int:
    """Digit height of the factors: 9 px on the 22-px counter of zoom 5 (readable there, the
    issue's floor), about a third of the counter above it."""
    return max(5, round(size * 0.41)) if size <= 28 else max(12, round(size * 0.34))


def name_height(size: int) -> int:
    return max(6, round(size * 0.16))


def name_band(size: int) -> int:
    """Rows at the top of a counter the name line takes (0 below NAME_FROM); medium
    resolution and nameless units leave it empty, so every counter of a size looks alike."""
    return name_height(size) + 3 if size >= NAME_FROM else 0


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
        """Seeds, "Map Views": unit resolution high or medium; medium leaves out the factors
        and the name."""
        power = unit.nationality or unit.power
        high = resolution == "high"
        key = (power, unit.type, unit.branch, unit.face_up, factor_text(unit) if high else "",
               size_mark(unit), unit.name if high and size >= NAME_FROM else "", size, resolution)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._draw(unit, power, size, high)
        return found

    def badge(self, count: int, size: int) -> pygame.Surface:
        """The number of units in a stack, white on black, drawn over the top counter's
        right side under its name line (``name_band``), so it stays inside the hex."""
        key = ("badge", count, size)
        found = self._cache.get(key)
        if found is None:
            height = min(10, max(7, round(size * 0.36)))
            text = glyph_text(str(count), height - 3, (255, 255, 255))
            found = pygame.Surface((min(size, text.get_width() + 3), height))
            found.fill((0, 0, 0))
            found.blit(text, ((found.get_width() - text.get_width() + 1) // 2, (height - text.get_height() + 1) // 2))
            self._cache[key] = found
        return found

    def damage_frame(self, size: int) -> pygame.Surface:
        """The damage marker over a ``size`` counter (or a pile holding a damaged ship): a
        red frame, 2 px from 18 px up, clear inside."""
        key = ("damaged", size)
        found = self._cache.get(key)
        if found is None:
            found = pygame.Surface((size, size), pygame.SRCALPHA)
            pygame.draw.rect(found, DAMAGED, found.get_rect(), 2 if size >= 18 else 1)
            self._cache[key] = found
        return found

    def _draw(self, unit, power: str, size: int, high: bool) -> pygame.Surface:
        colour = mapstyle.power_colour(power)
        ink = mapstyle.text_colour_on(colour)
        s = pygame.Surface((size, size))
        s.fill(colour)
        if not unit.face_up:
            # The back of the counter: lighter, with a band, no factors.
            colour = tuple(min(255, c + 60) for c in colour)
            s.fill(colour)
            pygame.draw.rect(s, ink, (0, size * 3 // 5, size, max(1, size // 8)))
        if size >= SYMBOL_FROM:
            self._draw_face(s, unit, size, ink, high)
        if size >= 9:
            pygame.draw.rect(s, (0, 0, 0), s.get_rect(), 1)
        return s

    def _draw_face(self, s: pygame.Surface, unit, size: int, ink, high: bool) -> None:
        """Top to bottom: the name (large counters), the size mark, the type symbol, the
        factors, as on the printed counters."""
        top = 2
        if high and size >= NAME_FROM and unit.name:
            img = glyph_text(short_name(unit.name), name_height(size), ink, max_width=size - 4, bold=False)
            s.blit(img, ((size - img.get_width()) // 2, top - 1))
        top = max(2, name_band(size))
        mark = size_mark(unit) if size >= MARK_FROM else ""
        if mark:
            top += draw_size_mark(s, len(mark), size, top, ink) + 1
        bottom = size - 2
        text = factor_text(unit) if high and unit.face_up and size >= FACTORS_FROM else ""
        if text:
            img = glyph_text(text, factor_height(size), ink, max_width=size - 4)
            y = size - img.get_height()
            s.blit(img, ((size - img.get_width() + 1) // 2, y))
            bottom = y
        box_h = max(3, bottom - top)
        box_w = min(size - 2 * max(2, size // 6), round(box_h * 1.7))
        if self.symbol_of(unit) in SHIP_KINDS:
            box_w = size - 4  # a ship side on: its length tells the class (deck, turrets, boom)
        box = pygame.Rect((size - box_w) // 2, top, box_w, box_h)
        draw_symbol(s, self.symbol_of(unit), box, ink)


_SHARED_ART: CounterArt | None = None


def counter_picture(unit, size: int) -> pygame.Surface:
    """One unit's counter as a ``size`` x ``size`` picture, drawn as the map draws it (type
    symbol, size mark, factors; the unit's name too from 34 px), for lists and forms
    (Selectable Units, Unit Review).  ``unit`` is a units-plugin ``Unit`` (or anything with
    its fields).  The surface is cached and shared: blit it, never draw on it."""
    global _SHARED_ART
    if _SHARED_ART is None:
        _SHARED_ART = CounterArt()
    return _SHARED_ART.surface(unit, max(5, int(size)))


def draw_size_mark(s: pygame.Surface, count: int, size: int, top: int, ink) -> int:
    """``count`` small X glyphs centred at ``top``; returns their height."""
    glyph = max(3, size // 9)
    gap = max(1, glyph // 3)
    width = count * glyph + (count - 1) * gap
    while width > size - 4 and glyph > 2:
        glyph -= 1
        width = count * glyph + (count - 1) * gap
    x = (size - width) // 2
    for _ in range(count):
        pygame.draw.line(s, ink, (x, top), (x + glyph - 1, top + glyph - 1))
        pygame.draw.line(s, ink, (x, top + glyph - 1), (x + glyph - 1, top))
        x += glyph + gap
    return glyph


def draw_symbol(s: pygame.Surface, kind: str, box: pygame.Rect, ink) -> None:
    """NATO marks in a frame for land units (seeds: unit types INF, ARM, MECH, MOT, CAV, MTN,
    HQ ...), silhouettes for air and naval ones."""
    x, y, w, h = box
    right, low = x + w - 1, y + h - 1
    if kind in LAND_KINDS:
        pygame.draw.rect(s, ink, box, 1)
        if kind in ("infantry", "mech", "mountain", "para", "marine", "garrison", "militia", "motorized", "hq"):
            pygame.draw.line(s, ink, (x, y), (right, low))
            pygame.draw.line(s, ink, (x, low), (right, y))
        if kind in ("armour", "mech", "hq-armour"):
            inset_x, inset_y = max(2, w // 5), max(1, h // 4)
            pygame.draw.ellipse(s, ink, (x + inset_x, y + inset_y, w - 2 * inset_x, h - 2 * inset_y), 1)
        if kind in ("hq", "hq-armour"):  # the headquarters' staff: a solid band along the top
            s.fill(ink, (x, y, w, max(2, h // 3)))
        if kind == "cavalry":
            pygame.draw.line(s, ink, (x, low), (right, y))
        if kind == "mountain":
            k = max(2, h // 3)
            pygame.draw.polygon(s, ink, [(x + w // 2 - k, low), (x + w // 2, low - k), (x + w // 2 + k, low)])
        if kind == "para":
            pygame.draw.arc(s, ink, (x + w // 4, y, w // 2, h // 2), 3.14, 6.28)
        if kind == "motorized":
            pygame.draw.line(s, ink, (x + w // 2, y), (x + w // 2, low))
        if kind in ("artillery", "aa"):
            pygame.draw.circle(s, ink, (x + w // 2, y + h // 2), max(1, h // 5))
        if kind == "engineer":
            pygame.draw.rect(s, ink, (x + w // 4, y + h // 3, w // 2, h // 3), 1)
        if kind == "partisan":
            pygame.draw.circle(s, ink, (x + w // 2, y + h // 2), max(1, h // 3), 1)
    elif kind in ("fighter", "bomber", "transport"):
        cx, cy = x + w // 2, y + h // 2
        span = w // 2 - (1 if kind == "fighter" else 0)
        pygame.draw.line(s, ink, (cx - span, cy), (cx + span, cy), 2 if kind == "bomber" and h >= 6 else 1)
        pygame.draw.line(s, ink, (cx, y), (cx, low), 2 if w >= 10 else 1)
        pygame.draw.line(s, ink, (cx - span // 3, low), (cx + span // 3, low))
    elif kind in SHIP_KINDS:
        draw_ship(s, kind, box, ink)
    elif kind == "sub":
        pygame.draw.ellipse(s, ink, (x, y + h // 2, w, h // 2))
        pygame.draw.rect(s, ink, (x + w // 2 - 2, y + h // 4, 4, h // 4))
    else:  # unknown type: a clear question mark, never a crash
        img = glyph_text("?", max(3, h), ink)
        s.blit(img, (x + (w - img.get_width()) // 2, y + (h - img.get_height()) // 2))


def draw_ship(s: pygame.Surface, kind: str, box: pygame.Rect, ink) -> None:
    """A naval class's silhouette, side on: a hull, and above it what tells the class."""
    x, y, w, h = box
    right, low = x + w - 1, y + h - 1
    deck = y + h // 2
    if kind == "convoy":  # two merchant hulls, one behind the other
        for dx, dy in ((w // 4, 0), (0, h // 4)):
            hull = [(x + dx, deck - h // 4 + dy), (x + dx + w * 3 // 4 - 1, deck - h // 4 + dy),
                    (x + dx + w * 3 // 4 - 1 - w // 8, deck + dy), (x + dx + w // 8, deck + dy)]
            pygame.draw.polygon(s, ink, hull)
        return
    deck = y + h * 3 // 5
    slim = kind == "destroyer"
    top_of_hull = deck + (h // 8 if slim else 0)
    hull = [(x, top_of_hull), (right, top_of_hull), (right - w // 6, low), (x + w // 6, low)]
    pygame.draw.polygon(s, ink, hull)
    unit_h = max(1, h // 5)
    if kind == "carrier":  # a flight deck the whole length, the island to starboard
        s.fill(ink, (x, deck - unit_h, w, unit_h))
        s.fill(ink, (x + w * 2 // 3, deck - 3 * unit_h, max(2, w // 8), 2 * unit_h))
    elif kind == "battleship":  # two turrets and a tall superstructure
        s.fill(ink, (x + w // 8, deck - unit_h, w // 6, unit_h))
        s.fill(ink, (right - w // 8 - w // 6, deck - unit_h, w // 6, unit_h))
        s.fill(ink, (x + w * 2 // 5, y + h // 8, w // 5, deck - y - h // 8))
    elif kind == "cruiser":  # one superstructure, lower
        s.fill(ink, (x + w // 3, deck - 2 * unit_h, w // 3, 2 * unit_h))
    elif kind == "destroyer":  # slim hull, a funnel
        s.fill(ink, (x + w // 2 - 1, top_of_hull - 2 * unit_h, max(2, w // 10), 2 * unit_h))
    elif kind == "transport-ship":  # cargo: a boom and a load
        s.fill(ink, (x + w // 5, deck - 2 * unit_h, w // 4, 2 * unit_h))
        pygame.draw.line(s, ink, (x + w // 2, deck), (x + w * 3 // 4, y + h // 8))
    elif kind == "amphibious":  # a landing ramp at the bow
        pygame.draw.line(s, ink, (right, top_of_hull), (min(right + 1, x + w), deck - 2 * unit_h), 2)
        s.fill(ink, (x + w // 5, deck - unit_h, w // 2, unit_h))
