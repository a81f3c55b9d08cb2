"""The replay viewer's input: keys (see app/replay_view.py), the timeline's buttons and
slider, clicks on the history and its filters; the rest goes to the map window.  A mixin of
``ReplayWindow``."""

from __future__ import annotations

import pygame

from .windowstyle import TEXT

SPEEDS = (1, 2, 5, 10, 25, 50, 100, 250)  # events per second
BUTTONS = (("<turn", "turn", False), ("<imp", "impulse", False), ("<phase", "phase", False), ("<step", "step", False),
           ("<1", "event", False), ("play", None, None), ("1>", "event", True), ("step>", "step", True),
           ("phase>", "phase", True), ("imp>", "impulse", True), ("turn>", "turn", True))


class ReplayInput:
    def handle(self, event) -> bool:
        """One pygame event; False once the viewer should close."""
        if self.window.gui.process(event):
            return self.running  # the kind drop-down (or another form) used it
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            if not self._press(event.pos, event.button):
                self.window.handle(event)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._slider_drag:
                self._slider_drag = False
                self._slide(event.pos)
            else:
                self.window.handle(event)
        elif event.type == pygame.MOUSEMOTION:
            if self._slider_drag:
                self._slide(event.pos)
            else:
                self.window.handle(event)
        elif event.type == pygame.MOUSEWHEEL:
            mouse = self.window.mouse
            if self.history_rect.collidepoint(mouse):
                self.scroll_history(-3 * event.y)
            elif self.timeline_rect.collidepoint(mouse):
                self.step(1 if event.y < 0 else -1)
            else:
                self.window.handle(event)
        return self.running

    def _key(self, event) -> None:
        key, mod = event.key, getattr(event, "mod", 0)
        ctrl, shift = mod & pygame.KMOD_CTRL, mod & pygame.KMOD_SHIFT
        if self.typing is not None:
            self._type(event)
            return
        moves = {pygame.K_LEFT: False, pygame.K_RIGHT: True}
        if key == pygame.K_ESCAPE:
            self.running = False
        elif key in moves:
            self.jump("phase" if ctrl else "step" if shift else "event", moves[key])
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.jump("impulse", key == pygame.K_PAGEDOWN)
        elif key in (pygame.K_HOME, pygame.K_END):
            if ctrl:
                self.history_top = None
                self.go_to(0 if key == pygame.K_HOME else self.replay.last)
            else:
                self.jump("turn", key == pygame.K_END)
        elif key == pygame.K_SPACE:
            self.toggle_play()
        elif pygame.K_1 <= key <= pygame.K_8:
            self.set_speed(key - pygame.K_1)
        elif key == pygame.K_g:
            self.typing = ""
        elif key == pygame.K_p:
            self.cycle_filter("power", -1 if shift else 1)
        elif key == pygame.K_k:
            self.toggle_kind_menu()
        elif key == pygame.K_f:
            self.fork_here()
        elif key != pygame.K_RETURN:  # Enter would finish a step in the game; here it does nothing
            self.window.handle(event)  # the map's own keys: scrolling, zoom, layers

    def _type(self, event) -> None:
        key = event.key
        if key == pygame.K_ESCAPE:
            self.typing = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            text, self.typing = self.typing, None
            if text:
                self.history_top = None
                self.go_to(int(text), centre=True)
                self.say(f"event {self.position}", TEXT)
        elif key == pygame.K_BACKSPACE:
            self.typing = self.typing[:-1]
        elif event.unicode and event.unicode.isdigit() and len(self.typing) < 9:
            self.typing += event.unicode
        elif pygame.K_0 <= key <= pygame.K_9 and len(self.typing) < 9:
            self.typing += chr(key)

    def _press(self, pos, button: int) -> bool:
        """A click on the viewer's own panels; False when it belongs to the map window."""
        self.window.mouse = pos
        if self.timeline_rect.collidepoint(pos):
            if button == 1 and self.slider_rect().inflate(0, 10).collidepoint(pos):
                self._slider_drag = True
                self._slide(pos)
                return True
            for label, rect in self.buttons():
                if rect.collidepoint(pos) and button == 1:
                    self._button(label)
            return True
        if self.history_rect.collidepoint(pos):
            for which, rect in self.filter_buttons():
                if rect.collidepoint(pos):
                    if which == "power":  # the kind drop-down takes its own clicks (pygame_gui)
                        self.cycle_filter(which, 1 if button == 1 else -1)
                    return True
            for rect, seq in self._history_hits:
                if rect.collidepoint(pos) and button == 1:
                    self.go_to(seq, centre=True)
                    self.say(f"event {seq}", TEXT)
                    return True
            return True
        return False

    def _button(self, label: str) -> None:
        for name, kind, forward in BUTTONS:
            if name == label:
                if kind is None:
                    self.toggle_play()
                else:
                    self.jump(kind, forward)
                return
        if label == "slower":
            self.set_speed(self.speed_index - 1)
        elif label == "faster":
            self.set_speed(self.speed_index + 1)
        elif label == "go to":
            self.typing = ""
        elif label == "play on from here":
            self.fork_here()

    def seq_at_slider(self, x: int) -> int:
        rect = self.slider_rect()
        frac = min(1.0, max(0.0, (x - rect.x) / max(1, rect.w - 1)))
        return round(frac * self.replay.last)

    def slider_x(self, seq: int) -> int:
        rect = self.slider_rect()
        return rect.x + round(seq / max(1, self.replay.last) * (rect.w - 1))

    def _slide(self, pos) -> None:
        self.history_top = None
        target = self.seq_at_slider(pos[0])
        if target != self.position:
            self.go_to(target)
