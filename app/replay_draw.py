"""Drawing the replay viewer: the maps (the game window's own), the outlined hexes, the
history panel and the timeline with its slider, buttons and status lines.  A mixin of
``ReplayWindow`` (app/replay_view.py)."""

from __future__ import annotations

import pygame

from .detailed import font
from .render import draw_highlights
from .replay_history import ROW_H
from .replay_input import SPEEDS
from .replay_text import fit, printable
from .wording import game_time, step_title
from .windowstyle import ACCENT, DIM, FORM, GOOD, TEXT, TITLE_BAR, TITLE_H

TIMELINE_H = 130
CURRENT_ROW = (70, 90, 70)
SLIDER_TRACK = (90, 96, 110)
TURN_TICK = (235, 200, 90)
IMPULSE_TICK = (160, 160, 150)
DIE_FACE = (245, 245, 235)


class ReplayDrawing:
    def draw(self) -> None:
        self.window.draw()
        draw_highlights(self.window, self.highlight)
        self._draw_history()
        self._draw_timeline()
        self.window.gui.draw(self.screen)  # again: the history panel was drawn over the forms

    def _draw_timeline(self) -> None:
        s, t = self.screen, self.timeline_rect
        s.fill(FORM, t)
        pygame.draw.line(s, TITLE_BAR, t.topleft, t.topright, 2)
        r = self.replay
        k = r.state.kernel
        described = self.described(self.position) if self.position else None
        title = step_title(self.game, k.sequence.current)
        play = f"playing {SPEEDS[self.speed_index]}/s" if self.playing else f"paused ({SPEEDS[self.speed_index]}/s)"
        head = f"event {self.position} of {r.last}   {game_time(k)}   {title}   {play}"
        s.blit(font(18).render(head, True, TEXT), (t.x + 8, t.y + 5))
        width = t.w - 16
        if described is not None:
            s.blit(font(17).render(fit(described[1], 17, width), True, GOOD), (t.x + 8, t.y + 22))
        self._draw_slider()
        problems = self.game.problems
        for label, rect in self.buttons():
            active = (label == "play" and self.playing) or (label == "go to" and self.typing is not None)
            disabled = label == "play on from here" and (problems or self.position < 1)
            pygame.draw.rect(s, GOOD if active else TITLE_BAR, rect)
            shown = ("pause" if self.playing else "play") if label == "play" else label
            if label == "go to" and self.typing is not None:
                shown = f"# {self.typing}_"
            text = font(17).render(shown, True, DIM if disabled else (0, 0, 0) if active else TEXT)
            s.blit(text, (rect.centerx - text.get_width() // 2, rect.y + 5))
        message, colour = self.status
        help_line = ("Left/Right event  Shift step  Ctrl phase  PgUp/PgDn impulse  Home/End turn  Space play  "
                     "1-8 speed  G go to  P power  K kinds  F play on  Esc close")
        s.blit(font(15).render(fit(message or help_line, 15, width), True, colour if message else DIM),
               (t.x + 8, t.y + 92))
        if problems:  # a missing or changed plugin: say which, and what could not be shown
            note = "read-only replay: " + "; ".join(problems)
            if r.skipped:
                note += f"; {len(r.skipped)} event(s) not shown (first: {r.skipped[0]})"
            s.blit(font(15).render(fit(printable(note, 15), 15, width), True, ACCENT), (t.x + 8, t.y + 110))
        else:
            note = f"replay of {self.game.path.name} (read only: nothing here changes the save)"
            s.blit(font(15).render(fit(note, 15, width), True, DIM), (t.x + 8, t.y + 110))

    def _draw_slider(self) -> None:
        s, rect = self.screen, self.slider_rect()
        s.blit(self._slider_track(rect), (rect.x, rect.y - 3))
        x = self.slider_x(self.position)
        pygame.draw.rect(s, GOOD, (x - 4, rect.y - 4, 9, rect.h + 8))

    def _slider_track(self, rect: pygame.Rect) -> pygame.Surface:
        """The track with a tick per impulse and turn, drawn once per size (a long game has
        thousands of impulses, far more than the track has pixels)."""
        if getattr(self, "_track", None) is not None and self._track[0] == rect.size:
            return self._track[1]
        track = pygame.Surface((rect.w, rect.h + 6))
        track.fill(FORM)
        track.fill(SLIDER_TRACK, (0, 3, rect.w, rect.h))
        for kind, colour, top, width in (("impulse", IMPULSE_TICK, 3 + 8, 1), ("turn", TURN_TICK, 0, 2)):
            for x in sorted({self.slider_x(m.seq) - rect.x for m in self.replay.bookmarks[kind]}):
                pygame.draw.line(track, colour, (x, top), (x, rect.h + 5 if kind == "turn" else rect.h + 2), width)
        self._track = (rect.size, track)
        return track

    def _draw_history(self) -> None:
        s, r = self.screen, self.history_rect
        if r.h <= TITLE_H:
            return
        s.fill(FORM, r)
        pygame.draw.rect(s, TITLE_BAR, (r.x, r.y, r.w, TITLE_H))
        s.blit(font(17).render("History", True, TEXT), (r.x + 6, r.y + 2))
        for which, rect in self.filter_buttons():
            if which == "kind":
                continue  # the drop-down draws itself there (after the panels: see draw)
            value = (self.filter_power if which == "power" else self.filter_kind) or "all"
            pygame.draw.rect(s, GOOD if value != "all" else TITLE_BAR, rect)
            s.blit(font(16).render(f"{which}: {value}"[:40], True, (0, 0, 0) if value != "all" else TEXT),
                   (rect.x + 5, rect.y + 4))
        area = self.history_list_rect()
        old = s.get_clip()
        s.set_clip(area)
        self._history_hits = []
        y = area.y
        for row in self.history_rows():
            line = pygame.Rect(area.x, y, area.w, ROW_H)
            if row.seq == self.position:
                s.fill(CURRENT_ROW, line)
            colour = ACCENT if row.skipped else TEXT if row.seq <= self.position else DIM
            x = area.x + 4
            s.blit(font(15).render(f"{row.seq:>6} {row.when:<6}", True, DIM), (x, y + 3))
            x += 78
            for value in row.dice:  # the dice themselves, as small faces
                face = pygame.Rect(x, y + 2, 14, 14)
                pygame.draw.rect(s, DIE_FACE, face, border_radius=3)
                digit = font(15).render(str(value), True, (0, 0, 0))
                s.blit(digit, (face.centerx - digit.get_width() // 2, face.y + 2))
                x += 17
            s.blit(font(16).render(fit(row.text, 16, area.right - x - 6), True, colour), (x + 2, y + 3))
            self._history_hits.append((line, row.seq))
            y += ROW_H
        s.set_clip(old)
