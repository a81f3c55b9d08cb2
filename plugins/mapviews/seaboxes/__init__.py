"""The sea-box layer of the detailed map: naval units at sea, by sea area and section.

Seeds, "Sea Box Section": "Each sea area has a sea box divided into 5 sections, numbered 0
to 4"; a stack moving into a sea area is placed in one section for the whole stack.  A unit
at sea has no hex, so the window's counters (drawn per hex) never show it: this layer draws,
for every sea area holding units at sea, a box centred on the area's box hex (an all-sea hex
near its middle), one column per section (its number on top) and one row per side, each
side's units of a section as a pile (its first unit on top: carriers first, as the rules
list them) with their count beside it; a pile holding a damaged unit is framed in red.  Counters are
the map's own pictures (app/counters.py), 22 px from zoom 4 (factors readable), with their
names from zoom 6; below zoom 4 only a small ring with the number of units at sea.

What is at sea comes from the game (the front-end hook ``sea_boxes``, answered by the naval
rules' ui.py), asked once per game event.  ``hit`` tells the window what a click on a box
stands for (app/navalclicks.py offers it to the command being filled in): the section box
"AREA:section", the sea area and then the section, and the units of the pile clicked.
"""

from __future__ import annotations

from dataclasses import dataclass

from kernel.hookspecs import hookimpl

MIN_BOX_ZOOM = 4
COUNTER_SIZE = {4: 22, 5: 26, 6: 34, 7: 40, 8: 46}  # from 34 px the counter art writes the name
BOX_FILL = (14, 30, 66)
BOX_EDGE = (210, 225, 255)
SELECTED = (255, 230, 60)
DAMAGED = (230, 40, 40)
TEXT = (235, 240, 250)
PILE_EDGES = 2  # counters drawn under the top one, offset up and right
COUNT_W = 14  # the pile's count, right of the pile


def title_height(zoom: int) -> int:
    """The box's title band: the sea area's name, larger as the counters grow."""
    return 14 if zoom < 6 else 17


@dataclass
class Cell:
    """One side's pile in one section of one box, where it is drawn on the map surface."""

    area: str
    section: int
    side: str
    units: list[str]
    rect: tuple[int, int, int, int]  # x, y, w, h on the map surface (no panel offset)


@dataclass
class Box:
    area: str
    name: str
    hex: tuple[int, int]
    rect: tuple[int, int, int, int]
    section_rects: dict[int, tuple[int, int, int, int]]
    cells: list[Cell]


class SeaBoxesLayer:
    """A map layer (app/uiplugins.py): ``draw(window, dmap, surface, pos)`` and ``hit``."""

    name = "sea boxes"

    def __init__(self):
        self._answer: tuple | None = None  # ((state id, seq), sea_boxes answer)
        self._fonts: dict = {}

    # ------------------------------------------------------------------ the game's answer
    def boxes(self, game) -> list[dict]:
        from app.uihooks import ask_game

        if game is None:
            return []
        key = (id(game.state), game.state.kernel.seq)
        if self._answer is None or self._answer[0] != key:
            self._answer = (key, ask_game(game, "sea_boxes", state=game.state) or [])
        return self._answer[1]

    # ------------------------------------------------------------------ layout
    def layout(self, window, dmap) -> list[Box]:
        """Where each box, section and pile goes on the map surface at the map's zoom."""
        if dmap.zoom < MIN_BOX_ZOOM:
            return []
        size = COUNTER_SIZE.get(dmap.zoom, 46)
        # room right of each pile for its count, so the count hides nothing of the top counter
        cell_w, cell_h = size + 2 * PILE_EDGES + 6 + COUNT_W, size + 2 * PILE_EDGES + 6
        title_h, head_h, pad = title_height(dmap.zoom), 12, 3
        sides = list(getattr(window.game.state.kernel, "sides", {}) or {})
        w, h = dmap.size
        out = []
        for entry in self.boxes(window.game):
            present = [s for s in sides if any(u["side"] == s for u in entry["units"])]
            present += sorted({u["side"] for u in entry["units"]} - set(present))
            sections = entry["sections"]
            bw = pad * 2 + cell_w * len(sections)
            bh = title_h + head_h + cell_h * len(present) + pad
            cx, cy = dmap.hex_to_screen(tuple(entry["hex"]))
            x, y = cx - bw // 2, cy - bh // 2
            if x > w or y > h or x + bw < 0 or y + bh < 0:
                continue
            section_rects, cells = {}, []
            for i, s in enumerate(sections):
                sx = x + pad + i * cell_w
                section_rects[s] = (sx, y + title_h, cell_w, head_h + cell_h * len(present))
                for j, side in enumerate(present):
                    ids = [u["id"] for u in entry["units"] if u["section"] == s and u["side"] == side]
                    if ids:
                        cells.append(Cell(entry["area"], s, side, ids, (sx, y + title_h + head_h + j * cell_h,
                                                                      cell_w, cell_h)))
            out.append(Box(entry["area"], entry["name"], tuple(entry["hex"]), (x, y, bw, bh), section_rects, cells))
        return out

    def hit(self, window, dmap, point) -> dict | None:
        """What a click at ``point`` (on the map surface) stands for, or None off every box:
        ``{"area", "name", "hex" (the box's), "section", "units", "values": [what a field may take, in order],
        "then": {value: [what the next field may take from the same click]}}``."""
        if window.game is None:
            return None
        px, py = point
        for box in reversed(self.layout(window, dmap)):
            x, y, w, h = box.rect
            if not (x <= px < x + w and y <= py < y + h):
                continue
            section, units = None, []
            for s, (sx, sy, sw, sh) in box.section_rects.items():
                if sx <= px < sx + sw and sy <= py < sy + sh:
                    section = s
            for cell in box.cells:
                cx, cy, cw, ch = cell.rect
                if cx <= px < cx + cw and cy <= py < cy + ch:
                    units = list(cell.units)
            if section is None:
                return {"area": box.area, "name": box.name, "hex": box.hex, "section": None, "units": [],
                        "values": [box.area], "then": {}}
            return {"area": box.area, "name": box.name, "hex": box.hex, "section": section, "units": units,
                    "values": [f"{box.area}:{section}", box.area, section], "then": {box.area: [section]}}
        return None

    # ------------------------------------------------------------------ drawing
    def draw(self, window, dmap, surface, pos) -> None:
        import pygame

        if window.game is None or not dmap.layers.get("units", True):
            return
        if dmap.zoom < MIN_BOX_ZOOM:
            self._draw_rings(window, dmap, surface, pos)
            return
        model = window.model.units()
        if model is None:
            return
        selected = set(getattr(dmap.selection, "units", []) or [])
        size = COUNTER_SIZE.get(dmap.zoom, 46)
        for box in self.layout(window, dmap):
            x, y, w, h = box.rect
            x, y = x + pos[0], y + pos[1]
            surface.fill(BOX_FILL, (x, y, w, h))
            pygame.draw.rect(surface, BOX_EDGE, (x, y, w, h), 1)
            title = self._text(box.name, title_height(dmap.zoom) - 3, TEXT)
            surface.blit(title, (x + (w - title.get_width()) // 2, y + 1),
                         area=pygame.Rect(0, 0, w - 2, title_height(dmap.zoom) - 1))
            for s, (sx, sy, sw, sh) in box.section_rects.items():
                sx, sy = sx + pos[0], sy + pos[1]
                if s:
                    pygame.draw.line(surface, (90, 110, 150), (sx, sy), (sx, sy + sh - 1))
                number = self._text(str(s), 11, (170, 190, 225))
                surface.blit(number, (sx + (sw - number.get_width()) // 2, sy))
            for cell in box.cells:
                self._draw_pile(dmap, surface, cell, model, size, selected, pos)

    def _draw_pile(self, dmap, surface, cell: Cell, model, size: int, selected: set, pos) -> None:
        import pygame

        cx, cy, cw, ch = cell.rect
        left, top = cx + pos[0] + 3, cy + pos[1] + 3 + 2 * PILE_EDGES
        units = [model.units[u] for u in cell.units if u in model.units]
        if not units:
            return
        art = dmap.counters  # the map's own counter pictures
        for k in range(min(PILE_EDGES, len(units) - 1), 0, -1):
            under = art.surface(units[k], size, dmap.unit_resolution)
            surface.blit(under, (left + 2 * k, top - 2 * k))
            pygame.draw.rect(surface, (0, 0, 0), (left + 2 * k, top - 2 * k, size, size), 1)
        surface.blit(art.surface(units[0], size, dmap.unit_resolution), (left, top))
        pygame.draw.rect(surface, (0, 0, 0), (left, top, size, size), 1)
        if len(units) > 1:
            # the pile's count (a task force's units), right of the pile, in a font readable at zoom 4
            number = self._text(str(len(units)), 11, (0, 0, 0))
            bx, by = left + size + 2 * PILE_EDGES + 1, top + (size - number.get_height()) // 2
            surface.fill((255, 255, 255), (bx - 1, by - 1, number.get_width() + 2, number.get_height() + 2))
            surface.blit(number, (bx, by))
        answer = {u["id"]: u for b in self.boxes_cached() for u in b["units"]}
        if any(answer.get(u, {}).get("damaged") for u in cell.units):
            pygame.draw.rect(surface, DAMAGED, (left, top, size, size), 2)  # a red frame: hides no name nor factor
        if selected & set(cell.units):
            pygame.draw.rect(surface, SELECTED, (left - 2, top - 2 - 2 * PILE_EDGES, size + 4 + 2 * PILE_EDGES,
                                                 size + 4 + 2 * PILE_EDGES), 2)

    def boxes_cached(self) -> list[dict]:
        return self._answer[1] if self._answer else []

    def _draw_rings(self, window, dmap, surface, pos) -> None:
        """Below zoom 4: a ring on the box hex with the number of units at sea."""
        import pygame

        w, h = dmap.size
        for entry in self.boxes(window.game):
            x, y = dmap.hex_to_screen(tuple(entry["hex"]))
            if not (-20 <= x <= w + 20 and -20 <= y <= h + 20):
                continue
            r = max(5, dmap.geometry.w // 2)
            pygame.draw.circle(surface, BOX_FILL, (pos[0] + x, pos[1] + y), r)
            pygame.draw.circle(surface, BOX_EDGE, (pos[0] + x, pos[1] + y), r, 1)
            n = self._text(str(len(entry["units"])), 10, TEXT)
            surface.blit(n, (pos[0] + x - n.get_width() // 2, pos[1] + y - n.get_height() // 2))

    def _text(self, text: str, size: int, colour):
        from app.fonts import font

        key = (text, size, colour)
        if key not in self._fonts:
            self._fonts[key] = font(size, bold=True).render(text, True, colour)
        return self._fonts[key]


@hookimpl
def register_map_layers(register):
    register(SeaBoxesLayer())
