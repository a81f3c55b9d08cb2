"""The supply layer of the detailed map (Ctrl+S), from the seeds' "Supply Sources and Paths"
form: "all valid supply sources ... The units that are supplied by each supply source are
shown along with the paths they trace to their supply source".

While it is on:
- every unit on the map that is out of supply is crossed out in red;
- the supply sources of the power whose map views are listed (the deciding power) are ringed:
  primary sources green, secondary (HQs, capitals) blue, tertiary yellow;
- the units selected on the map (a click on a hex) show the path they trace, on through a
  secondary source to the primary one, and why a unit is out of supply.

What is in supply, the sources and the paths are the game's answers (the front-end hooks
``supply_status`` and ``supply_path``, app/uihooks.py), asked once per game event.
"""

from __future__ import annotations

import pygame

from .detailed import font
from .stamps import hex_corners
from .uihooks import ask_game

SOURCE_COLOURS = {"primary": (60, 200, 90), "secondary": (80, 150, 255), "tertiary": (240, 210, 60)}
OUT_OF_SUPPLY = (235, 40, 40)
PATH = (255, 255, 255)
PATH_SHADOW = (20, 20, 20)
SEA_PATH = (150, 230, 255)  # the sea leg of an overseas supply path ("Overseas supply paths"), dashed
LEGEND_BG = (20, 24, 32, 215)


class SupplyLayer:
    """A map layer (app/uiplugins.py's ``layers``): ``draw(window, dmap, surface, pos)``."""

    name = "supply"

    def __init__(self):
        self.visible = False
        self._status: tuple | None = None  # ((state id, seq), {power: supply_status})
        self._paths: dict = {}  # (state id, seq, unit) -> supply_path

    def toggle(self) -> str:
        self.visible = not self.visible
        return ("supply layer: on (red cross: out of supply; rings: supply sources; select a unit "
                "for its supply path)" if self.visible else "supply layer: off")

    # ------------------------------------------------------------------ the game's answers
    def status(self, game) -> dict:
        """{power: supply_status} for every major power, asked once per game event."""
        key = (id(game.state), game.state.kernel.seq)
        if self._status is None or self._status[0] != key:
            answers = {p: ask_game(game, "supply_status", state=game.state, power=p)
                       for p in game.state.kernel.powers()}
            self._status = (key, {p: a for p, a in answers.items() if a is not None})
            self._paths = {}
        return self._status[1]

    def path(self, game, unit_id: str) -> dict | None:
        self.status(game)  # drops the paths of an older state
        key = unit_id
        if key not in self._paths:
            self._paths[key] = ask_game(game, "supply_path", state=game.state, unit_id=unit_id)
        return self._paths[key]

    def out_of_supply(self, game) -> set[str]:
        return {u for answer in self.status(game).values() for u in answer["out_of_supply"]}

    # ------------------------------------------------------------------ drawing
    def draw(self, window, dmap, surface: pygame.Surface, pos) -> None:
        game = window.game
        if not self.visible or game is None:
            return
        g = dmap.geometry
        w, h = dmap.size
        on_screen = pygame.Rect(pos[0] - g.w, pos[1] - g.h, w + 2 * g.w, h + 2 * g.h)

        def at(hex_) -> tuple[int, int] | None:
            x, y = dmap.hex_to_screen(tuple(hex_))
            point = (pos[0] + x, pos[1] + y)
            return point if on_screen.collidepoint(point) else None

        status = self.status(game)
        units = dmap.model.units()
        power = window.power()
        for source in (status.get(power) or {}).get("sources", []):
            point = at(source["hex"])
            if point is not None:
                radius = max(4, g.w // 2 - 2)
                pygame.draw.circle(surface, SOURCE_COLOURS[source["kind"]], point, radius, max(2, g.w // 12))
        for unit_id in sorted(self.out_of_supply(game)):
            unit = units.units.get(unit_id) if units is not None else None
            point = at(unit.hex) if unit is not None and unit.hex is not None else None
            if point is not None:
                r = max(4, g.w // 3)
                width = max(2, g.w // 10)
                x, y = point
                pygame.draw.line(surface, OUT_OF_SUPPLY, (x - r, y - r), (x + r, y + r), width)
                pygame.draw.line(surface, OUT_OF_SUPPLY, (x - r, y + r), (x + r, y - r), width)
        notes = []
        for unit_id in dmap.selection.units:
            answer = self.path(game, unit_id)
            if answer is None:
                continue
            self._draw_path(surface, dmap, pos, answer, g)
            unit = units.units.get(unit_id) if units is not None else None
            name = (unit.name or unit_id) if unit is not None else unit_id
            if answer["in_supply"]:
                source = answer["source"]
                notes.append(f"{name}: in supply" + (f" from {source['label']} ({source['kind']})" if source else "")
                             + (", partly by sea (dashed)" if answer.get("sea") else ""))
            else:
                notes.append(f"{name}: OUT OF SUPPLY - {answer['why']}")
        self._draw_legend(surface, pos, dmap.size, notes, power)

    def _draw_path(self, surface, dmap, pos, answer: dict, g) -> None:
        points = []
        for hex_ in answer["path"]:
            x, y = dmap.hex_to_screen(tuple(hex_))
            points.append((pos[0] + x, pos[1] + y))
        # a path drawn hex by hex; a jump of the world's seam is left out
        width = max(2, g.w // 8)
        seam = [abs(a[0] - b[0]) > 3 * g.w for a, b in zip(points, points[1:])]
        segments = []  # (from, to, colour): a sea leg is one straight line, port to port
        at_sea: set = set()
        for start, end in answer.get("sea", ()):
            if not any(seam[start:end]):
                segments.append((points[start], points[end], SEA_PATH))
                at_sea.update(range(start, end))
        segments += [(a, b, PATH) for i, (a, b) in enumerate(zip(points, points[1:]))
                     if i not in at_sea and not seam[i]]
        for a, b, colour in segments:
            for a, b in (_dashes(a, b, max(6, g.w // 2)) if colour == SEA_PATH else [(a, b)]):
                pygame.draw.line(surface, PATH_SHADOW, a, b, width + 2)
                pygame.draw.line(surface, colour, a, b, width)
        source = answer["source"]
        if source is not None:
            x, y = dmap.hex_to_screen(tuple(source["hex"]))
            pygame.draw.polygon(surface, SOURCE_COLOURS[source["kind"]], hex_corners(g, pos[0] + x, pos[1] + y), 3)
        if len(points) > 1:
            end = points[-1]
            pygame.draw.circle(surface, SOURCE_COLOURS["primary"], end, max(4, g.w // 3))

    def _draw_legend(self, surface, pos, size, notes: list[str], power: str) -> None:
        f = font(15)
        whose = "USSR" if power == "ussr" else power.title()
        lines = [(f"Supply ({whose} sources): ", None), ("primary", "primary"), ("secondary", "secondary"), ("tertiary", "tertiary"),
                 ("X out of supply", "out")]
        width = 10 + sum(f.size(text)[0] + 22 for text, _ in lines)
        width = max(width, *(f.size(n)[0] + 16 for n in notes)) if notes else width
        height = 24 + 19 * len(notes)
        box = pygame.Surface((min(width, size[0] - 8), height), pygame.SRCALPHA)
        box.fill(LEGEND_BG)
        x = 6
        for text, kind in lines:
            if kind in SOURCE_COLOURS:
                pygame.draw.circle(box, SOURCE_COLOURS[kind], (x + 7, 12), 6, 2)
                x += 18
            colour = OUT_OF_SUPPLY if kind == "out" else (230, 230, 220)
            box.blit(f.render(text, True, colour), (x, 3))
            x += f.size(text)[0] + 8
        for n, note in enumerate(notes):
            colour = OUT_OF_SUPPLY if "OUT OF SUPPLY" in note else (230, 230, 220)
            box.blit(f.render(note, True, colour), (6, 24 + 19 * n))
        surface.blit(box, (pos[0] + 4, pos[1] + size[1] - height - 4))


def _dashes(a, b, dash: int) -> list:
    """The line from ``a`` to ``b`` as dashes ``dash`` pixels long with gaps as long."""
    length = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)

    def at(t: float) -> tuple[int, int]:
        return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
    return [(at(d / length), at(min(d + dash, length) / length)) for d in range(0, int(length), 2 * dash)]
