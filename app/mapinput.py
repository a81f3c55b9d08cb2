"""The map as a way to fill in a command: clicks choose units and hexes among the offered
ones, hovering an offered hex previews the command with it (a move's path and cost, an
attack's odds), and the overlay outlines what may be chosen.

A click on a hex, for the command being filled in (``PlayForms.fill``):
1. the field to fill takes it: a hex it offers; a unit it offers in that hex (a second click
   on the same stack picks its next unit); a ``units`` field adds or removes that hex's
   offered units.  A command completed by single choices is submitted at once (a move);
2. else a field chosen earlier takes it (another unit to move, another target);
3. else, for a hex the game does not offer, the preview's reason is shown (the rule that
   forbids it), and nothing is submitted.
"""

from __future__ import annotations

import pygame

from .commandfill import same
from .fieldforms import one_step

PATH_COLOUR = (255, 230, 60)
REACH_COLOUR = (90, 200, 255)
TARGET_COLOUR = (255, 60, 60)
OUTLINED_AT_MOST = 3000  # hexes outlined for one field (a long rail line is far fewer)


def _hex(value) -> tuple | None:
    return tuple(value) if isinstance(value, (list, tuple)) and len(value) == 2 else None


class MapInput:
    def __init__(self, forms):
        self.forms = forms
        self.hover_hex: tuple | None = None
        self.hover_preview: dict | None = None

    # ------------------------------------------------------------ state
    def forget(self) -> None:
        self.forget_hover()

    def forget_hover(self) -> None:
        self.hover_hex, self.hover_preview = None, None

    def hover_key(self):
        return self.hover_hex if self.hover_preview is not None else None

    def units_in(self, hex_) -> list[str]:
        units = self.forms.window.model.units()
        return [u.id for u in units.in_hex(tuple(hex_))] if units is not None else []

    def unit_hex(self, unit_id) -> tuple | None:
        units = self.forms.window.model.units()
        unit = units.units.get(unit_id) if units is not None and isinstance(unit_id, str) else None
        return tuple(unit.hex) if unit is not None and unit.hex is not None else None

    def show(self, kind: str, value) -> None:
        """A hex or a unit chosen on the form (a list row, a button) and out of the map's view,
        or under the Play form: the map is centred on it (issue 11 item 6, the map follows the
        action).  A click on the map moves nothing: the player is looking there."""
        at = tuple(value) if kind == "hex" and isinstance(value, (list, tuple)) else \
            self.unit_hex(value) if kind == "unit" else None
        forms, window = self.forms, self.forms.window
        panel, dmap = window.panels.get("detailed"), window.primary
        if at is None or panel is None or dmap is None:
            return
        x, y = dmap.hex_to_screen(at)
        pos = (panel.body.x + x, panel.body.y + y)
        if not panel.body.collidepoint(pos) or (forms.form is not None and forms.form_rect("play").collidepoint(pos)):
            dmap.center_on(at)

    def selected(self, unit_id) -> None:
        """A unit was chosen: select its hex on the map (its stack shows in the panels)."""
        h = self.unit_hex(unit_id)
        if h is not None:
            self.forms.window.set_selection(h, [unit_id])

    # ------------------------------------------------------------ hovering
    def hover(self, hex_) -> None:
        """The command with the hovered hex, previewed, when the field to fill offers it."""
        fill = self.forms.fill
        if fill is None or hex_ is None or self.forms.hidden():
            return
        hex_ = tuple(hex_)
        if hex_ == self.hover_hex:
            return
        pending = fill.pending()
        if pending is None or pending.kind != "hex" or fill.option(pending, list(hex_)) is None:
            if self.hover_preview is not None:
                self.forget_hover()
            return
        self.hover_hex = hex_
        self.hover_preview = self.forms.decisions.preview(fill.command(**{pending.name: list(hex_)}))

    def hover_path(self) -> list[tuple]:
        p = self.hover_preview
        return [tuple(h) for h in p.get("path", [])] if p and p.get("legal", True) else []

    # ------------------------------------------------------------ clicking
    def click(self, hex_, unit_ids: list[str]) -> bool:
        fill = self.forms.fill
        if hex_ is None or self.forms.hidden():
            return False
        if self.forms.tray.active():
            return self.forms.tray.map_click(hex_)
        if fill is None:
            return False
        hex_ = tuple(hex_)
        path, pending = fill.walk()
        fields = ([pending] if pending is not None else []) + [f for f in path if f is not pending]
        for f in fields:
            if self._take(fill, f, hex_, unit_ids, is_pending=f is pending):
                self.forms.fill_changed()
                if f.kind in ("unit", "hex") and fill.complete() and one_step(fill):
                    self.forms.submit(fill.command())
                return True
        if pending is not None and pending.kind == "hex":
            preview = self.forms.decisions.preview(fill.command(**{pending.name: list(hex_)}))
            if not preview.get("legal", True):
                self.forms.say(preview.get("reason", "not allowed"))
            return True
        return False

    def _take(self, fill, f, hex_, unit_ids, is_pending: bool) -> bool:
        if f.kind == "hex":
            return fill.option(f, list(hex_)) is not None and fill.set(f.name, list(hex_))
        here = [u for u in unit_ids if fill.option(f, u) is not None]
        if not here:
            return False
        if f.kind == "units":
            return fill.toggle(f.name, here)
        if f.kind == "unit":
            current = fill.values.get(f.name)
            # a second click on the same stack picks its next unit
            nxt = here[(here.index(current) + 1) % len(here)] if current in here else here[0]
            if not fill.set(f.name, nxt):
                return False
            self.selected(nxt)
            return True
        return False

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, dmap, pos) -> None:
        from .stamps import hex_corners

        g = dmap.geometry

        def outline(h, colour, width):
            sx, sy = dmap.hex_to_screen(h)
            pygame.draw.polygon(surface, colour, hex_corners(g, pos[0] + sx, pos[1] + sy), width)

        forms = self.forms
        if forms.hidden():
            return
        if forms.tray.active():
            for h in forms.tray.outlined()[:OUTLINED_AT_MOST]:
                outline(h, REACH_COLOUR, 1)
            return
        fill = forms.fill
        if fill is None:
            return
        pending = fill.pending()
        if pending is not None and pending.kind == "hex":
            for o in pending.all_options()[:OUTLINED_AT_MOST]:
                h = _hex(o.value)
                if h is not None:
                    outline(h, REACH_COLOUR, 1)
        for unit_id in fill.units_chosen():
            h = self.unit_hex(unit_id)
            if h is not None:
                outline(h, REACH_COLOUR, 3)
        for h in fill.hexes_chosen():
            outline(h, TARGET_COLOUR, 3)
        path = self.hover_path()
        chosen = fill.units_chosen()
        start = self.unit_hex(chosen[0]) if chosen else None
        if path and start is not None:
            points = [dmap.hex_to_screen(start)] + [dmap.hex_to_screen(h) for h in path]
            points = [(pos[0] + x, pos[1] + y) for x, y in points]
            # a path across the map's wrap would be drawn across the whole window: leave it out
            if len(points) > 1 and max(abs(points[i][0] - points[i + 1][0]) for i in range(len(points) - 1)) \
                    < dmap.size[0] / 2:
                pygame.draw.lines(surface, PATH_COLOUR, False, points, 3)
            outline(path[-1], PATH_COLOUR, 3)


__all__ = ["MapInput", "PATH_COLOUR", "REACH_COLOUR", "TARGET_COLOUR", "same"]
