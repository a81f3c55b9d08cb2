"""The global map (seeds, "Global Map" and "Global Map Legend"): the whole world at a glance
in one of seven views, a legend per view, the black rectangle of the linked detailed map,
and a click that moves the detailed map there.

Each view is one colour per hex, turned into an image without numpy: a row of hexes
becomes a row of bytes through a colour -> bytes table, odd rows shift half a hex, and
``pygame.image.frombuffer`` makes the surface.  Images are cached per (view, filter, size).
When the state moves, a caller that knows what the events in between changed (``app.dirty``,
through ``note_changes``) keeps the images those changes do not show on: the terrain never
changes, the control view only with hex control, the units view only with units.  Without
that word every image is rebuilt (one costs ~10 ms).
"""

from __future__ import annotations

import pygame

from . import mapstyle
from .counters import NAVAL_TYPES
from .mapmodel import MapModel
from .uihooks import ask_game

VIEWS = ("terrain", "weather", "control", "units", "markers", "convoys", "production")
HEX_PX = 2  # pixels per hex, each way, at single size
# The kinds of change (``app.dirty.MapChanges``: static "control", "weather", "any" and
# "units") each view's image shows; None: anything in the state (rebuilt at every move).
# "any" (hexes a rule plugin reports, e.g. a combat) counts for units: a combat may remove some.
VIEW_INPUTS: dict[str, tuple | None] = {
    "terrain": (), "markers": (), "weather": ("weather",), "control": ("control",),
    "units": ("units", "any"), "convoys": None, "production": None}  # ships move at sea without a hex
CONVOY_SEA = (70, 130, 190)  # a sea area holding convoy points (for the filter): the pipelines stand out
# the four numbers' cells: convoy points, surface ships, submarines, aircraft at sea
NUMBER_COLOURS = ((250, 226, 120), (235, 235, 235), (150, 150, 150), (170, 215, 250))
NUMBER_NAMES = ("convoy points", "surface ships (carriers too)", "submarines", "aircraft at sea")


def _rgb(colour) -> bytes:
    return bytes(colour[:3])


class GlobalMap:
    def __init__(self, model: MapModel, view: str = "terrain", double: bool = False, filter: str = "all"):
        self.model = model
        self.view = view if view in VIEWS else "terrain"
        self.double = double
        self.filter = filter  # convoys / production: "all", a side, or a major power
        self.scroll_x = 0  # pixels; the world wraps east-west here too
        self._cache: dict[tuple, pygame.Surface] = {}
        self._seq = -1
        # What changed since the images were made (see note_changes): the kinds of change
        # from state _noted_from to state _noted_to; None: not known, rebuild everything.
        self._noted: set | None = None
        self._noted_from = self._noted_to = -2

    # ------------------------------------------------------------------ geometry
    @property
    def scale(self) -> int:
        return HEX_PX * (2 if self.double else 1)

    def image_size(self) -> tuple[int, int]:
        g = self.model.grid
        return (g.cols * self.scale, g.rows * self.scale)

    def set_view(self, view: str) -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown global map view {view!r}; choose one of {', '.join(VIEWS)}")
        self.view = view

    def hex_units_at(self, pos: tuple[int, int]) -> tuple[float, float]:
        """Panel position -> (fx, fy) in the detailed map's hex units."""
        s = self.scale
        w = self.image_size()[0]
        x = (pos[0] + self.scroll_x) % w
        return (x / s - 0.25, pos[1] / s - 0.5)

    def link_rect(self, detailed) -> pygame.Rect:
        """Where the linked detailed map's area lies on the global map (x not folded)."""
        g = detailed.geometry
        ox, oy = detailed.view_origin()
        s = self.scale
        left = ox / g.w * s - self.scroll_x
        top = ((oy - g.top) / g.h + 0.5) * s
        return pygame.Rect(int(left), int(top), int(detailed.size[0] / g.w * s), int(detailed.size[1] / g.h * s))

    def click(self, pos: tuple[int, int], detailed) -> None:
        """Seeds: clicking anywhere on the global map moves the linked detailed map there."""
        detailed.fx, detailed.fy = self.hex_units_at(pos)
        detailed._clamp()

    # ------------------------------------------------------------------ images
    def _state_seq(self) -> int:
        state = self.model.state
        return state.kernel.seq if state is not None else 0

    def note_changes(self, changes, from_seq: int, to_seq: int) -> None:
        """The state moved from ``from_seq`` to ``to_seq`` (either way) with ``changes``
        (``app.dirty.MapChanges``); the next ``image()`` keeps the views they leave alone."""
        if self._noted is not None and from_seq == self._noted_to and not changes.everything:
            self._noted |= {kind for kind, hexes in changes.static.items() if hexes}
            if changes.units:
                self._noted.add("units")
        else:  # a gap in what we were told, or everything changed
            self._noted = None
        self._noted_to = to_seq

    def _forget_changed_images(self, seq: int) -> None:
        known = self._noted is not None and self._noted_from == self._seq and self._noted_to == seq
        if not known:
            self._cache.clear()
        else:
            for key in list(self._cache):
                inputs = VIEW_INPUTS.get(key[0])
                if inputs is None or any(kind in self._noted for kind in inputs):
                    del self._cache[key]
        self._seq = seq
        self._noted, self._noted_from, self._noted_to = set(), seq, seq

    def image(self) -> pygame.Surface:
        seq = self._state_seq()
        if seq != self._seq:
            self._forget_changed_images(seq)
        key = (self.view, self.filter, self.double)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._build()
        return found

    def _build(self) -> pygame.Surface:
        colours = getattr(self, f"_colours_{self.view}")()
        grid = self.model.grid
        table: dict = {}
        rows = []
        for r, row in enumerate(colours):
            pixels = b"".join(table.get(c) or table.setdefault(c, _rgb(c) * HEX_PX) for c in row)
            if r & 1:  # odd rows sit half a hex east: rotate by one pixel, wrapping
                pixels = pixels[-3:] + pixels[:-3]
            rows.append(pixels * HEX_PX)
        data = b"".join(rows)
        size = (grid.cols * HEX_PX, grid.rows * HEX_PX)
        image = pygame.image.frombuffer(data, size, "RGB").copy()
        if self.double:
            image = pygame.transform.scale2x(image)
        if self.view == "convoys":
            self._draw_convoy_numbers(image)
        if self.double:
            self._draw_sea_names(image)
        return image

    def _base(self) -> list[list]:
        m = self.model
        return [[mapstyle.GLOBAL_SEA if t in ("sea", "lake") else mapstyle.GLOBAL_LAND for t in row]
                for row in m.terrain_grid]

    def _colours_terrain(self):
        m = self.model
        tc = mapstyle.TERRAIN_COLOURS
        out = [[tc.get(t, mapstyle.UNKNOWN_TERRAIN) for t in row] for row in m.terrain_grid]
        for col, row in m.objective_hexes:
            out[row][col] = mapstyle.OBJECTIVE_LAVENDER  # seeds: objectives are lavender hexes
        return out

    def _colours_weather(self):
        m = self.model
        weather = {zone: m.weather(zone) for zone in set(z for row in m.zone_grid for z in row)}
        wc = mapstyle.WEATHER_COLOURS
        out = []
        for trow, zrow in zip(m.terrain_grid, m.zone_grid):
            out.append([wc.get(weather[z], wc["fine"])[1 if t in ("sea", "lake") else 0] for t, z in zip(trow, zrow)])
        return out

    def _colours_control(self):
        return [[mapstyle.GLOBAL_SEA if p == "sea" else mapstyle.power_colour(p) for p in row]
                for row in self.model.controller_grid()]

    def _colours_units(self):
        out = self._base()
        units = self.model.units()
        if units is not None:
            for key, ids in units.at_hex.items():
                if not ids:
                    continue
                c, r = (int(v) for v in key.split(","))
                top = units.units.get(ids[0])
                if top is not None:
                    out[r][c] = mapstyle.power_colour(top.power)
        return out

    def _colours_markers(self):
        return self._base()  # no markers exist in the game state yet

    def _colours_convoys(self):
        """The sea areas holding convoy points (for the filter) lighter than the rest of the sea:
        "where convoy pipelines exist" (seeds, "Global Map")."""
        out = self._base()
        piped = {code for code, numbers in self.sea_counts().items() if numbers[0]}
        if piped:
            for r, row in enumerate(self.model.sea_grid):
                for c, code in enumerate(row):
                    if code in piped and self.model.terrain_grid[r][c] == "sea":
                        out[r][c] = CONVOY_SEA
        return out

    def filters(self) -> list[str]:
        """What the convoys and production views may show: all, each side, each major power."""
        state = self.model.state
        if state is None:
            return ["all"]
        sides = list(state.kernel.sides)
        return ["all", *sides, *[p for side in sides for p in state.kernel.sides[side]]]

    def next_filter(self) -> str:
        """Seeds, "Global Map": "the ships at sea for individual major powers, all major powers
        on a side, or all major powers on both sides" (a click on the view's button again)."""
        options = self.filters()
        self.filter = options[(options.index(self.filter) + 1) % len(options)] if self.filter in options else "all"
        return self.filter

    def caption(self) -> str:
        shown = f" ({self.filter})" if self.view in ("convoys", "production") and self.filter != "all" else ""
        return f"{self.view}{shown}{'  x2' if self.double else ''}"

    def _shown(self, power: str) -> bool:
        return self.filter == "all" or power == self.filter or self.model.side_of(power) == self.filter

    def _friendly(self, power: str) -> bool:
        """Is a hex controller friendly to the filter (a power, a side, or all)?"""
        if self.filter == "all" or power in ("neutral", "sea"):
            return True
        side = self.model.side_of(power)
        return power == self.filter or side == self.filter or (side is not None and side == self.model.side_of(self.filter))

    def _colours_production(self):
        m = self.model
        out = []
        for row in m.controller_grid():
            out.append([mapstyle.GLOBAL_SEA if p == "sea" else
                        (mapstyle.FRIENDLY_OR_NEUTRAL if self._friendly(p) else mapstyle.ENEMY) for p in row])
        idle = set()
        production = m.section("production")
        if production is not None:
            idle = {tuple(int(v) for v in k.split(",")) for k in getattr(production, "idle_factories", [])}
        for f in m.world.economy:
            if f.feature == "factory":
                colour = mapstyle.FACTORY_IDLE if (f.col, f.row) in idle else mapstyle.FACTORY_WORKING
            else:
                colour = mapstyle.OIL if f.kind == "oil" else mapstyle.RESOURCE
            out[f.row][f.col] = colour
        return out

    # ------------------------------------------------------------------ numbers and names
    def sea_counts(self) -> dict[str, tuple[int, int, int, int]]:
        """Per sea area: convoy points, surface ships (with carriers), submarines, land-based air
        (seeds, Global Map: up to 4 numbers per sea area, for the current filter).  Ships at sea
        stand in sea-area boxes, not hexes: the rules answer through the hook
        ``sea_area_counts``; a game whose rules do not answer is counted from units on sea hexes."""
        m = self.model
        if m.game is not None:
            answer = ask_game(m.game, "sea_area_counts", state=m.state)
            if answer is not None:
                counts = {}
                for code, area in answer.items():
                    shown = [n for power, n in area["powers"].items() if self._shown(power)]
                    if shown:
                        counts[code] = tuple(sum(n[k] for n in shown) for k in ("convoy_points", "surface", "subs", "air"))
                return counts
        units = m.units()
        counts: dict[str, list[int]] = {}
        if units is None:
            return {}
        for unit in units.units.values():
            if not unit.on_map:
                continue
            if not self._shown(unit.power):
                continue
            col, row = unit.hex
            code = m.sea_grid[row][col % m.grid.cols]
            if code is None or m.terrain_grid[row][col % m.grid.cols] != "sea":
                continue
            c = counts.setdefault(code, [0, 0, 0, 0])
            kind = NAVAL_TYPES.get(unit.type)
            if unit.branch == "air":
                c[3] += 1
            elif kind == "convoy":
                c[0] += 1
            elif kind == "sub":
                c[2] += 1
            elif unit.branch == "naval":
                c[1] += 1
        return {k: tuple(v) for k, v in counts.items()}

    def _label_pos(self, col: int, row: int, factor: int) -> tuple[int, int]:
        return (col * HEX_PX * factor + (row & 1) * factor, row * HEX_PX * factor)

    def _draw_convoy_numbers(self, image) -> None:
        from .detailed import font

        factor = 2 if self.double else 1
        f = font(12 * factor if factor == 1 else 18, bold=True)
        for code, numbers in self.sea_counts().items():
            hex_ = self.model.sea_label_hex.get(code)
            if hex_ is None:
                continue
            # one cell per number, each in its own colour (the legend names them)
            texts = [f.render(str(n), True, (0, 0, 0)) for n in numbers]
            widths = [t.get_width() + 6 for t in texts]
            h = texts[0].get_height() + 2
            x, y = self._label_pos(hex_[0], hex_[1], factor)
            x -= sum(widths) // 2
            y -= h // 2
            for text, w, colour in zip(texts, widths, NUMBER_COLOURS):
                image.fill((0, 0, 0), (x - 1, y - 1, w + 2, h + 2))
                image.fill(colour, (x, y, w, h))
                image.blit(text, (x + 3, y + 1))
                x += w + 1

    def _draw_sea_names(self, image) -> None:
        from .detailed import font

        f = font(14)
        for code, (col, row) in self.model.sea_label_hex.items():
            area = self.model.world.sea_areas.get(code)
            if area is None:
                continue
            text = f.render(area.name, True, (230, 240, 255))
            x, y = self._label_pos(col, row, 2)
            image.blit(text, (x - text.get_width() // 2, y + 8))

    # ------------------------------------------------------------------ drawing
    def draw(self, target: pygame.Surface, rect: pygame.Rect, detailed=None) -> None:
        image = self.image()
        w = image.get_width()
        old = target.get_clip()
        target.set_clip(rect)
        target.fill((0, 0, 0), rect)
        x = -(self.scroll_x % w)
        while x < rect.width:
            target.blit(image, (rect.x + x, rect.y))
            x += w
        if detailed is not None:
            r = self.link_rect(detailed)
            for shift in (-w, 0, w):
                moved = r.move(rect.x + shift, rect.y)
                pygame.draw.rect(target, mapstyle.RECTANGLE, moved, 2)
        target.set_clip(old)


# ---------------------------------------------------------------------- legend
def legend(view: str, model: MapModel | None = None) -> list[tuple[str, list]]:
    """(label, colours) rows of the Global Map Legend for one view.  Weather rows have two
    squares, land then sea (seeds, "Global Map Legend")."""
    if view == "terrain":
        rows = [(name, [c]) for name, c in mapstyle.TERRAIN_COLOURS.items()]
        return rows + [("objective", [mapstyle.OBJECTIVE_LAVENDER])]
    if view == "weather":
        return [(name, list(pair)) for name, pair in mapstyle.WEATHER_COLOURS.items()]
    if view == "control":
        return [(p, [c]) for p, c in mapstyle.POWER_COLOURS.items()] + [("sea", [mapstyle.GLOBAL_SEA])]
    if view == "units":
        return [(p, [c]) for p, c in mapstyle.POWER_COLOURS.items() if p != "neutral"] + \
            [("no units: land", [mapstyle.GLOBAL_LAND]), ("no units: sea", [mapstyle.GLOBAL_SEA])]
    if view == "markers":
        return [("land", [mapstyle.GLOBAL_LAND]), ("sea", [mapstyle.GLOBAL_SEA]), ("(no markers in play yet)", [])]
    if view == "convoys":
        return [*[(name, [c]) for name, c in zip(NUMBER_NAMES, NUMBER_COLOURS)],
                ("sea area with convoy points", [CONVOY_SEA]), ("land", [mapstyle.GLOBAL_LAND]),
                ("sea", [mapstyle.GLOBAL_SEA]), ("'convoys' again: next filter", [])]
    if view == "production":
        return [("factory working", [mapstyle.FACTORY_WORKING]), ("factory idle", [mapstyle.FACTORY_IDLE]),
                ("oil", [mapstyle.OIL]), ("other resource", [mapstyle.RESOURCE]),
                ("friendly or neutral", [mapstyle.FRIENDLY_OR_NEUTRAL]), ("enemy", [mapstyle.ENEMY])]
    raise ValueError(f"unknown global map view {view!r}")


def draw_legend(target: pygame.Surface, rect: pygame.Rect, view: str) -> None:
    from .fonts import line

    target.fill((235, 235, 225), rect)
    y = rect.y + 4
    target.blit(line(20, f"Legend: {view}", (0, 0, 0), bold=True), (rect.x + 6, y))
    y += 22
    for label, colours in legend(view):
        x = rect.x + 6
        for c in colours:
            pygame.draw.rect(target, c, (x, y, 14, 14))
            pygame.draw.rect(target, (0, 0, 0), (x, y, 14, 14), 1)
            x += 18
        target.blit(line(18, label, (0, 0, 0)), (max(x, rect.x + 42), y))
        y += 17
        if y > rect.bottom - 14:
            break
