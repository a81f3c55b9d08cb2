"""Counters and stacks on the detailed map (seeds, "Detailed Map"; "Flyouts" for the order
of a stack), drawn every frame on top of the baked chunks.

Everything stays inside its hex, so a stack never hides a neighbour: the top counter is the
largest square that fits (``ZoomGeometry.counter``), the counters underneath show as
narrowing edges above it, in the hex's top corner, and the stack's count sits on the top
counter's top-right corner; a stack holding a ship damaged in port has the damage marker (a red
frame) round its top counter, as a pile at sea has in the sea boxes.  A city name a counter would cover is drawn again on top, on a
plate, under the counters of its own hex, so no counter hides a city label (moved above the
counters, the map without the name covers the printed one).

Per stack the blits are built once per (game event, zoom, resolution) and sorted by x, so a
panning frame slices the columns in view (bisect) and issues one ``fblits``.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

import pygame

from kernel.hexgrid import Hex

from . import mapstyle
from .chunklayers import city_label
from .counters import name_band, stack_order
from .uihooks import ask_game

EDGE_HEIGHT = 3  # pixels of each edge of a counter underneath (its top 2 rows show)
LABEL_PLATE = (244, 240, 222)
LABEL_MARGIN = 200  # pixels: the widest label, for slicing the view


@dataclass(frozen=True)
class CounterLayout:
    """Where a stack's parts go, as offsets from the hex centre (the top-left corner of the
    centre pixel), at one zoom level."""

    side: int
    edges: tuple[tuple[int, int, int, int], ...]  # (left, top, width, height) per counter underneath

    @property
    def corner(self) -> int:
        """Offset of the top counter's left and top sides."""
        return -(self.side // 2)

    def badge_at(self, badge: pygame.Surface) -> tuple[int, int]:
        return (self.corner + self.side - badge.get_width(), self.corner + name_band(self.side))


@lru_cache(maxsize=None)
def counter_layout(zoom: int) -> CounterLayout:
    g = mapstyle.ZOOMS[zoom]
    side = g.counter
    edges = []
    if side >= 14:
        for k in (1, 2):
            top = -(side // 2) - 2 * k
            width = side - 4 * k
            while width >= 6 and not mapstyle.rect_fits(g, -(width // 2), top, width, EDGE_HEIGHT):
                width -= 2
            if width < 6:
                break
            edges.append((-(width // 2), top, width, EDGE_HEIGHT))
    return CounterLayout(side, tuple(edges))


class UnitLayer:
    """The units layer of one DetailedMap."""

    def __init__(self, dmap):
        self.dmap = dmap
        self.seq = -1
        self._stacks: list[tuple[Hex, list]] = []
        self._damaged: set[str] = set()  # ships damaged in port (the damage marker)
        self._sprites: list = []
        self._sprites_x: list[int] = []
        self._labels: list = []
        self._labels_x: list[int] = []
        self._erasers: list = []
        self._erasers_x: list[int] = []
        self._key: tuple | None = None
        self._edge_cache: dict[tuple, pygame.Surface] = {}
        self._label_plan_key: tuple | None = None  # the city names' placing, per zoom (_covered_labels)
        self._label_plan: list = []
        self._label_index: dict[Hex, list[int]] = {}
        self._placed: dict[int, tuple] = {}
        self._placed_for: dict[Hex, pygame.Rect] = {}
        self._patches: dict[tuple, pygame.Surface] = {}  # the map without a city's name (map_without_name)
        self._stale: set[int] = set()  # labels whose patch of map changed under them (static_changed)

    def forget(self) -> None:
        """Units changed: rebuild the stacks on the next frame."""
        self.seq = -1

    def static_changed(self, hexes=None) -> None:
        """The baked map changed at ``hexes`` (None: everywhere): the patches of map laid over
        a moved city name there are taken again."""
        if hexes is None:
            self._patches.clear()
            self._label_plan_key = None
        else:
            stale = {i for h in hexes for i in self._label_index.get(tuple(h), ())}
            names = {self._label_plan[i][5].name for i in stale}
            for key in [k for k in self._patches if k[2] in names]:
                del self._patches[key]
            self._stale |= stale
        self._key = None

    def stacks(self) -> list[tuple[Hex, list]]:
        """Units on the map by hex, rebuilt only when the game has new events."""
        model = self.dmap.model
        units = model.units()
        state = model.state
        seq = state.kernel.seq if state is not None else 0
        if units is None:
            return []
        if seq != self.seq or self.seq < 0:
            stacks = []
            for key, ids in units.at_hex.items():
                c, r = key.split(",")
                members = [units.units[i] for i in ids if i in units.units]
                if members:
                    stacks.append(((int(c), int(r)), stack_order(members)))
            self._stacks = stacks
            self._damaged = self._damaged_in_port(stacks)
            self.seq = seq
        return self._stacks

    def _damaged_in_port(self, stacks) -> set[str]:
        """The ships damaged in port (Ships in Flames, "Naval Combat Results": "Put a damage
        marker on the unit"), as the game tells each port's units (the naval rules' Naval
        Review Details UI hook), asked once per game event for the ports holding ships."""
        model = self.dmap.model
        game = getattr(model, "game", None)
        if game is None:
            return set()
        out: set[str] = set()
        # one pass over the ships first: asking each port's details goes over every ship again,
        # ~5 ms a move in Barbarossa, where no ship is damaged most of the game
        review = ask_game(game, "naval_review", state=game.state)
        if isinstance(review, dict) and not any(p.get("damaged") for p in (review.get("powers") or {}).values()):
            return out
        for (col, row), members in stacks:
            if not any(u.branch == "naval" for u in members) or model.world.port_at((col, row)) is None:
                continue
            details = ask_game(game, "naval_review_details", state=game.state, location=f"{col},{row}")
            out |= {uid for uid, row_ in ((details or {}).get("units") or {}).items() if row_.get("damaged")}
        return out

    def _edge(self, unit, width: int) -> pygame.Surface:
        colour = mapstyle.power_colour(unit.nationality or unit.power)
        if not unit.face_up:
            colour = tuple(min(255, c + 60) for c in colour)
        key = (colour, width)
        found = self._edge_cache.get(key)
        if found is None:
            found = self._edge_cache[key] = pygame.Surface((width, EDGE_HEIGHT))
            found.fill(colour)
            pygame.draw.rect(found, (0, 0, 0), found.get_rect(), 1)
        return found

    def sprites(self) -> list[tuple[int, int, list]]:
        """Per stack: its centre in world pixels and its blits relative to that centre (the
        edges of the counters underneath, the top counter, the count badge).  City labels
        the counters would cover come in ``self._labels``, drawn after all counters."""
        dmap = self.dmap
        stacks = self.stacks()
        key = (self.seq, id(stacks), dmap.zoom, dmap.unit_resolution, dmap._static_key())
        if key == self._key:
            return self._sprites
        g = dmap.geometry
        layout = counter_layout(dmap.zoom)
        size, corner = layout.side, layout.corner
        art = dmap.counters
        sprites = []
        occupied: dict[Hex, pygame.Rect] = {}
        for (col, row), members in stacks:
            parts = []
            underneath = members[1:1 + len(layout.edges)]
            for (left, top, width, height), unit in reversed(list(zip(layout.edges, underneath))):
                parts.append((self._edge(unit, width), left, top))
            parts.append((art.surface(members[0], size, dmap.unit_resolution), corner, corner))
            if self._damaged and any(u.id in self._damaged for u in members):
                parts.append((art.damage_frame(size), corner, corner))
            if len(members) > 1 and size >= 18:
                badge = art.badge(len(members), size)
                parts.append((badge, *layout.badge_at(badge)))
            x, y = col * g.w + g.half_w * (row & 1), row * g.h + g.top
            sprites.append((x, y, parts))
            top = min(p[2] for p in parts)
            occupied[(col, row)] = pygame.Rect(x + corner, y + top, size, corner + size - top)
        sprites.sort(key=lambda item: item[0])  # by x, so a view's columns are one slice
        self._sprites, self._sprites_x = sprites, [item[0] for item in sprites]
        self._erasers, self._labels = self._covered_labels(g, occupied, size)
        self._erasers_x = [item[0] for item in self._erasers]
        self._labels_x = [item[0] for item in self._labels]
        self._key = key
        return sprites

    def _covered_labels(self, g, occupied: dict[Hex, pygame.Rect], size: int) -> tuple[list, list]:
        """City names a counter covers, as sprites drawn over the counters: under the
        counter of the city's own hex, else where the map prints them; on a plate.  Where
        the name moves, a blank plate drawn before the counters hides what shows of the
        printed one.  Returns (blank plates, labels), each sorted by x.

        Only the cities near a hex whose stack changed are placed again (a move changes two
        stacks of hundreds; placing every city's name took ~8 ms)."""
        if not self.dmap.layers.get("labels") or not occupied:
            return [], []
        plan_key = (self.dmap.zoom, size, id(self.dmap._cities), self.dmap._static_key())
        if plan_key != self._label_plan_key:
            self._label_plan_key, self._label_plan, self._label_index = plan_key, *self._plan_labels(g)
            self._placed, self._placed_for = {}, {}
            todo = range(len(self._label_plan))
        else:
            before = self._placed_for
            changed = [h for h in occupied.keys() | before.keys() if occupied.get(h) != before.get(h)]
            todo = {i for h in changed for i in self._label_index.get(h, ())} | self._stale
        self._stale = set()
        ww = self.dmap.world_size()[0]
        for i in todo:
            self._placed[i] = self._place_label(self._label_plan[i], occupied, size, ww)
        self._placed_for = dict(occupied)
        erasers = sorted((e for e, _ in self._placed.values() if e is not None), key=lambda item: item[0])
        labels = sorted((lab for _, lab in self._placed.values() if lab is not None), key=lambda item: item[0])
        return erasers, labels

    def _plan_labels(self, g) -> tuple[list, dict]:
        """Per city whose name this zoom prints: (name, its centre, its hex, the hexes whose
        counters may meet the name); and by hex, the cities that may meet its counters."""
        plan, index = [], {}
        for city in self.dmap._cities:
            label = city_label(city, g, self.dmap.zoom)
            if label is None:
                continue
            here = (city.col, city.row)
            near = self._hexes_near(here, label[0].get_width() // (2 * g.w) + 2)
            for h in near:
                index.setdefault(h, []).append(len(plan))
            plan.append((label, city.col * g.w + g.half_w * (city.row & 1), city.row * g.h + g.top, here, near, city))
        return plan, index

    def _place_label(self, planned, occupied, size: int, ww: int) -> tuple:
        """(blank plate or None, label sprite or None) of one city's name."""
        (text, dx, dy), x, y, here, near_hexes, city = planned
        near = [occupied[h] for h in near_hexes if h in occupied and h != here]

        def clear(dy):
            rect = pygame.Rect(x + dx - 1, y + dy, text.get_width() + 2, text.get_height())
            return not any(_hits(rect, other, ww) for other in near)

        eraser = None
        if here in occupied:
            # under the counter's foot (its plate hides the printed name, and a blank plate the
            # rest of it); above its edges when only that is clear of counters: then the map
            # without the name is laid over the printed name's place (a blank plate showed there)
            below, above = size - size // 2 + 1, occupied[here].top - y - text.get_height() - 1
            printed, dy = dy, (above if not clear(below) and clear(above) else below)
            cover = self._blank(text) if dy == below else self._patch(city, x + dx - 1, y + printed, text)
            eraser = (x, y, [(cover, dx - 1, printed)])
        elif clear(dy):
            return None, None
        return eraser, (x, y, [(self._plate(text), dx - 1, dy)])

    def _hexes_near(self, hex_: Hex, reach: int) -> list[Hex]:
        """Hexes within ``reach`` columns and one row up, two down (where a name can meet a
        counter)."""
        col, row = hex_
        cols, rows = self.dmap.grid.cols, self.dmap.grid.rows
        return [((col + dc) % cols, r) for r in range(max(0, row - 1), min(rows, row + 3))
                for dc in range(-reach, reach + 1)]

    def _patch(self, city, left: int, top: int, text: pygame.Surface) -> pygame.Surface:
        key = (self.dmap.zoom, self.dmap._static_key(), city.name)
        found = self._patches.get(key)
        if found is None:
            rect = pygame.Rect(left, top, text.get_width() + 2, text.get_height())
            found = self._patches[key] = self.dmap.map_without_name(city, rect)
        return found

    def _blank(self, text: pygame.Surface) -> pygame.Surface:
        key = ("blank", text.get_size())
        found = self._edge_cache.get(key)
        if found is None:
            found = self._edge_cache[key] = pygame.Surface((text.get_width() + 2, text.get_height()))
            found.fill(LABEL_PLATE)
        return found

    def _plate(self, text: pygame.Surface) -> pygame.Surface:
        key = ("plate", id(text))
        found = self._edge_cache.get(key)
        if found is None:
            found = self._edge_cache[key] = pygame.Surface((text.get_width() + 2, text.get_height()))
            found.fill(LABEL_PLATE)
            found.blit(text, (1, 0))
        return found

    def draw(self, target, pos, ox, oy) -> None:
        """Blit the stacks, then the covered labels, in view; (ox, oy) is the world pixel at
        the view's top-left."""
        sprites = self.sprites()
        if not sprites:
            return
        size = self.dmap.geometry.counter
        blits = []
        if self._erasers:
            self._slice(blits, self._erasers, self._erasers_x, LABEL_MARGIN, pos, ox, oy)
        self._slice(blits, sprites, self._sprites_x, size, pos, ox, oy)
        if self._labels:
            self._slice(blits, self._labels, self._labels_x, LABEL_MARGIN, pos, ox, oy)
        if blits:
            target.fblits(blits)

    def _slice(self, blits, sprites, xs, margin, pos, ox, oy) -> None:
        ww = self.dmap.world_size()[0]
        w, h = self.dmap.size
        add = blits.append
        px, py = pos
        # the columns in view, at most two slices where the view straddles the date line
        left, right = (ox - margin) % ww, (ox - margin) % ww + w + 2 * margin
        spans = [(left, min(right, ww), 0)] + ([(0, right - ww, ww)] if right > ww else [])
        y_lo, y_hi = oy - margin, oy + h + margin
        for lo, hi, wrap in spans:
            for i in range(bisect_left(xs, lo), bisect_left(xs, hi)):
                x, y, parts = sprites[i]
                if y_lo <= y <= y_hi:
                    sx, sy = px + x + wrap - left - margin, py + y - oy  # x - left: from the view's left edge
                    for surface, dx, dy in parts:
                        add((surface, (sx + dx, sy + dy)))


def _hits(rect: pygame.Rect, other: pygame.Rect, world_width: int) -> bool:
    """Do two world rectangles meet, counting the world's wrap east-west?"""
    return any(rect.colliderect(other.move(shift, 0)) for shift in (-world_width, 0, world_width))
