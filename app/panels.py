"""Drawing the game window's panels: the main form, sequence of play, the lists, the global map
and its legend, units in hex and the flyout.  A mixin of ``GameWindow`` (app/play.py)."""

from __future__ import annotations

import time

import pygame

from . import mapstyle
from .detailed import font
from .fonts import line
from .globalmap import draw_legend
from .results import on_top
from .wording import game_time, in_words, power_name, scenario_title, step_title, step_trail
from .windowstyle import (
    ACCENT,
    BACKGROUND,
    DIM,
    FORM,
    GOOD,
    ROLL_ICON,
    TEXT,
    TITLE_BAR,
    TITLE_H,
    Panel,
)

MAIN_LINE_H = 15  # the top bar's line height: 5 lines in the 1024x768 layout's bar


class PanelDrawing:
    def draw(self) -> None:
        started = time.perf_counter()
        self._draw()
        self.last_draw_seconds = time.perf_counter() - started

    def _draw(self) -> None:
        s = self.screen
        s.fill(BACKGROUND)
        for text in self.counter_messages:
            self.say(text, ACCENT)
        self.counter_messages.clear()
        for panel in list(self.panels.values()):
            self._draw_panel(panel)
        self._draw_flyout()
        if self.play is not None:
            self.play.refresh()
            # a form the player opened (Find, Unit Review, Optional Rules…) over a waiting result
            asked = [f.form for f in self.__dict__.get("tool_forms", ()) if not f.closed]
            rules = self.rules_form if self.rules_form is not None and not getattr(self.rules_form, "closed", False) \
                else None
            on_top(self.gui, *self.play.popups.open, *asked, rules.window if rules else None, self.confirm_quit)
            self._follow_hot_seat()
        now = time.monotonic()
        self.gui.update(min(0.1, now - self._last_draw))
        self._last_draw = now
        self.gui.draw(s)

    def _follow_hot_seat(self) -> None:
        """Hot seat: when the next player takes the screen, the map moves to his front."""
        at_screen = self.play.at_screen
        if self.play.hot_seat and at_screen is not None and at_screen != getattr(self, "_centred_for", None):
            self._centred_for = at_screen
            front = self.front_centre()
            if front is not None and self.primary is not None:
                self.primary.center_on(front)

    def _draw_panel(self, panel: Panel) -> None:
        s = self.screen
        rect = panel.rect
        pygame.draw.rect(s, TITLE_BAR, (rect.x, rect.y, rect.w, TITLE_H))
        icon = ROLL_ICON.move(rect.x, rect.y)
        pygame.draw.polygon(s, TEXT, [(icon.x, icon.bottom - 2), (icon.centerx, icon.y + 2), (icon.right, icon.bottom - 2)]
                            if not panel.geometry.rolled else [(icon.x, icon.y + 2), (icon.centerx, icon.bottom - 2),
                                                               (icon.right, icon.y + 2)])
        title = panel.title
        if panel.key in self.detailed:
            d = self.detailed[panel.key]
            col, row = d.centre_hex
            title += f"  zoom {d.zoom}  centre {col},{row}"
        elif panel.kind == "global":
            title += f"  {self.global_map.caption()}"
        s.blit(line(17, title, TEXT), (rect.x + 20, rect.y + 2))
        if panel.geometry.rolled:
            return
        body = panel.body
        old = s.get_clip()
        s.set_clip(body)
        drawer = getattr(self, f"_draw_{panel.kind}", None)
        if panel.key in self.detailed:
            self.detailed[panel.key].draw(s, body.topleft)
            if self.play is not None:
                self.play.draw_overlay(s, self.detailed[panel.key], body.topleft)
            for layer in self.ui.layers:  # the supply layer and plugins' layers (app/uiplugins.py)
                layer.draw(self, self.detailed[panel.key], s, body.topleft)
        elif drawer is not None:
            self._draw_kept(panel, drawer)
        s.set_clip(old)
        pygame.draw.rect(s, (0, 0, 0), (rect.x, rect.y, rect.w, panel.geometry.h), 1)

    def _draw_kept(self, panel: Panel, drawer) -> None:
        """A side panel whose content did not change since the last frame is blitted as drawn
        then (the global map, its legend, the sequence of play, the top bar, units in hex: a
        click on the map changes few of them); the others are drawn every frame."""
        key_of = KEPT_PANELS.get(panel.kind)
        if key_of is None:
            drawer(panel)
            return
        body = panel.body.clip(self.screen.get_rect())
        key = (tuple(body), key_of(self))
        kept = self._kept_panels.get(panel.key) if hasattr(self, "_kept_panels") else None
        if kept is not None and kept[0] == key:
            self.screen.blit(kept[1], body.topleft)
            return
        drawer(panel)
        if body.w > 0 and body.h > 0:
            self.__dict__.setdefault("_kept_panels", {})[panel.key] = (key, self.screen.subsurface(body).copy())

    def _global_key(self) -> tuple:
        g = self.global_map
        link = tuple(g.link_rect(self.primary)) if self.primary is not None else None
        # the image itself (not its id): kept in the key, a rebuilt image never takes its address
        return (g.image(), g.view, g.filter, g.double, g.scroll_x, link, self.legend_visible)

    def _main_key(self) -> tuple:
        # main_lines' inputs: the game's position (its step, who decides, names in the messages),
        # the hovered hex, the messages (a new list at each say; compared by value)
        seq = self.game.state.kernel.seq if self.game is not None else None
        return (seq, self.hover_hex, tuple(self.messages))

    def _units_in_hex_key(self) -> tuple:
        seq = self.game.state.kernel.seq if self.game is not None else None
        return (seq, self.hover_hex, tuple(self.units_locked) if self.units_locked else None, self.primary is None)

    def _sequence_key(self) -> tuple:
        if self.game is None:
            return (None,)
        k = self.game.state.kernel
        return (k.sequence.current, tuple(k.sequence.pending), self.power() if k.sequence.pending else None)

    def _draw_main(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        y = b.y + 3
        for text, colour in self.main_lines(panel):
            s.blit(line(17, text, colour), (b.x + 6, y))
            y += MAIN_LINE_H

    def main_lines(self, panel: Panel | None = None) -> list[tuple[str, tuple]]:
        """The top bar's lines: where the game is (the step's title, never its id), who is to
        decide, the hovered hex, then the latest messages wrapped to the bar's width so a
        refusal's reason can be read whole (issue 11 item 5)."""
        panel = panel or self.panels.get("main")
        width, height = (panel.body.w - 12, panel.body.h - 3) if panel is not None else (1000, 80)
        f = font(17)
        lines = []
        if self.game is not None:
            k = self.game.state.kernel
            seq = k.sequence
            lines = [(f"{scenario_title(self.game)}  {game_time(k)}   {step_title(self.game, seq.current)}"
                      f"{'  (game over)' if seq.finished else ''}", TEXT),
                     (f"waiting for: {', '.join(power_name(p) for p in seq.pending) or 'nobody'}   Enter: end phase   "
                      "Esc: cancel / close / quit", DIM)]
        hover = [("  ".join(self.model.info(self.hover_hex).lines()), TEXT)] if self.hover_hex is not None else []
        lines = [(fit_text(text, f, width), colour) for text, colour in lines]
        room = max(0, height // MAIN_LINE_H - len(lines))
        messages: list = []
        for n, (text, colour) in enumerate(reversed(self.messages)):
            wrapped = [(w, colour) for w in wrap_text(in_words(self.game, text) if self.game else text, f, width)]
            if n == 0 and len(wrapped) > room:
                messages = wrapped[:room]  # the newest message's beginning rather than none of it
                break
            messages = wrapped + messages
            if len(messages) >= room:
                messages = messages[len(messages) - room:]
                break
        newest = len(wrap_text(self.messages[-1][0], f, width)) if self.messages else 0
        if hover and room - newest >= 1:  # the hovered hex, unless the newest message needs its line
            messages = messages[len(messages) - (room - 1):] if room > 1 else []
            return lines + [(fit_text(hover[0][0], f, width), TEXT)] + messages
        return lines + messages

    def _draw_sequence(self, panel: Panel) -> None:
        """Seeds, "Sequence of Play": stage, phase and step by their titles, the step in
        bold, with the flag of the major power to decide."""
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        if self.game is None:
            return
        decider = self.power() if self.game.state.kernel.sequence.pending else None
        if decider:
            from .playforms import flag_surface

            s.blit(flag_surface(decider), (b.right - 40, b.y + 4))
        trail = self.sequence_lines()
        y = b.y + 4
        for depth, title in enumerate(trail):
            last = depth == len(trail) - 1
            f = font(17, bold=last)
            s.blit(f.render(fit_text("  " * depth + title, f, b.w - 52), True, TEXT if last else DIM), (b.x + 6, y))
            y += 17

    def sequence_lines(self) -> list[str]:
        """Stage, phase ... step of the current step, by their titles."""
        return step_trail(self.game, self.game.state.kernel.sequence.current) or ["-"]

    def _draw_layouts(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        y = b.y + 4
        names = self.layouts.names()
        first = self.list_scroll["layouts"]
        for name in names[first:]:
            bold = name == self.layout.name  # seeds: the current layout is shown in bold
            s.blit(line(17, name, TEXT if bold else DIM, bold=bold), (b.x + 6, y))
            y += 18
        self._draw_scrollbar(panel, first, len(names))
        self._draw_buttons(self._layout_buttons(panel))

    def _draw_mapviews(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        y = b.y + 4
        names = self.views.names(self.power())
        first = self.list_scroll["mapviews"]
        for name in names[first:]:
            colour = mapstyle.SELECTION if name == self.mapview_hover else TEXT
            s.blit(line(17, name, colour), (b.x + 6, y))
            y += 18
        self._draw_scrollbar(panel, first, len(names))
        self._draw_buttons(self._mapview_buttons(panel))

    def _draw_scrollbar(self, panel: Panel, first: int, count: int) -> None:
        b = panel.body
        visible = max(1, (b.h - 30) // 18)
        if count <= visible:
            return
        track = pygame.Rect(b.right - 6, b.y + 2, 4, b.h - 30)
        pygame.draw.rect(self.screen, TITLE_BAR, track)
        thumb_h = max(8, track.h * visible // count)
        thumb_y = track.y + (track.h - thumb_h) * first // max(1, count - visible)
        pygame.draw.rect(self.screen, TEXT, (track.x, thumb_y, 4, thumb_h))

    def _draw_buttons(self, buttons) -> None:
        for name, rect in buttons:
            pygame.draw.rect(self.screen, TITLE_BAR, rect)
            text = line(16, name, TEXT)
            self.screen.blit(text, (rect.centerx - text.get_width() // 2, rect.y + 4))

    def _draw_global(self, panel: Panel) -> None:
        s = self.screen
        s.fill(FORM, panel.body)
        for name, rect in self._global_toolbar(panel):
            active = name == self.global_map.view or (name == "zoom" and self.global_map.double) or \
                (name == "legend" and self.legend_visible)
            pygame.draw.rect(s, GOOD if active else TITLE_BAR, rect)
            s.blit(line(16, name, (0, 0, 0) if active else TEXT), (rect.x + 5, rect.y + 5))
        self.global_map.draw(s, self._global_image_rect(panel), self.primary)

    def _draw_legend(self, panel: Panel) -> None:
        if self.legend_visible:
            draw_legend(self.screen, panel.body, self.global_map.view)
        else:
            self.screen.fill(FORM, panel.body)

    def units_shown(self):
        """The hex and units the units-in-hex panel shows (locked with Space, else hovered)."""
        hex_ = self.units_locked[0] if self.units_locked else self.hover_hex
        units = self.model.units()
        if hex_ is None or units is None:
            return hex_, []
        from .counters import stack_order

        return hex_, stack_order(units.in_hex(hex_))

    def _draw_units_in_hex(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        hex_, units = self.units_shown()
        head = "locked  " if self.units_locked else ""
        head += f"hex {hex_[0]},{hex_[1]}: {len(units)} unit(s)" if hex_ else "move the cursor over a hex"
        s.blit(line(16, head, DIM), (b.x + 4, b.y + 2))
        art = self.primary.counters if self.primary else None
        size = mapstyle.ZOOMS[6].counter + 8
        x = b.x + 4
        for unit in units:
            if x + size > b.right or art is None:
                break
            s.blit(art.surface(unit, size), (x, b.y + 18))
            s.blit(line(14, (unit.name or unit.type)[:12], TEXT), (x, b.y + 20 + size))
            x += size + 30

    def _draw_flyout(self) -> None:
        """Seeds, Flyouts: hovering a stack shows its units (9 a page) drawn at zoom 6."""
        target = self._map_under(self.mouse)
        if target is None or self.hover_hex is None or self._drag is not None:
            return
        units = self.model.units()
        if units is None:
            return
        members = units.in_hex(self.hover_hex)
        if len(members) < 2:
            return
        from .counters import stack_order

        members = stack_order(members)
        pages = (len(members) + 8) // 9
        page = members[(self.flyout_page % pages) * 9:(self.flyout_page % pages) * 9 + 9]
        size = mapstyle.ZOOMS[6].counter + 8
        cols = min(3, len(page))
        rows = (len(page) + 2) // 3
        w, h = cols * (size + 4) + 6, rows * (size + 4) + 26
        x, y = self.mouse[0] + 16, self.mouse[1] + 16
        sw, sh = self.screen.get_size()
        x, y = min(x, sw - w), min(y, sh - h)
        s = self.screen
        pygame.draw.rect(s, FORM, (x, y, w, h))
        pygame.draw.rect(s, TEXT, (x, y, w, h), 1)
        s.blit(line(15, f"Flyout {len(members)} units", TEXT), (x + 4, y + 3))
        art = self.primary.counters
        for i, unit in enumerate(page):
            s.blit(art.surface(unit, size), (x + 4 + (i % 3) * (size + 4), y + 20 + (i // 3) * (size + 4)))




# panel kind -> what its picture depends on besides its rectangle (PanelDrawing._draw_kept)
KEPT_PANELS = {
    "global": PanelDrawing._global_key,
    "legend": lambda window: (window.legend_visible, window.global_map.view),
    "sequence": PanelDrawing._sequence_key,
    "main": PanelDrawing._main_key,
    "units_in_hex": PanelDrawing._units_in_hex_key,
}


def fit_text(text: str, f, width: int) -> str:
    """``text`` cut to ``width`` pixels with "..." (never drawn past its panel)."""
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."


def wrap_text(text: str, f, width: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (a word longer than that is cut)."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if f.size(candidate)[0] <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = fit_text(word, f, width)
    return lines + ([line] if line else [])
