"""The game window's input: keys, the mouse on panels and maps (click, drag, wheel, hover),
hit tests; Esc and Enter (issue 11 item 4); the work of every frame (autoscroll, reloads,
prefetching).  A mixin of ``GameWindow`` (app/play.py)."""

from __future__ import annotations

import time

import pygame

from . import navalclicks, toolforms
from .detailed import DetailedMap, font
from .forms import FormWindow
from .globalmap import VIEWS as GLOBAL_VIEWS
from .windowstyle import (
    AUTOSCROLL_BORDER,
    DIM,
    DRAG_THRESHOLD,
    FRAME_SECONDS,
    LAYER_KEYS,
    PREFETCH_MARGIN,
    ROLL_ICON,
    TEXT,
    TITLE_H,
    Panel,
)


class WindowInput:
    # ------------------------------------------------------------------ hit tests
    def panel_at(self, pos) -> Panel | None:
        for panel in reversed(list(self.panels.values())):
            if panel.rect.collidepoint(pos):
                return panel
        return None

    def _local(self, panel: Panel, pos) -> tuple[int, int]:
        return (pos[0] - panel.body.x, pos[1] - panel.body.y)

    def _map_under(self, pos) -> tuple[Panel, DetailedMap] | None:
        panel = self.panel_at(pos)
        if panel and panel.key in self.detailed and not panel.geometry.rolled and panel.body.collidepoint(pos):
            return panel, self.detailed[panel.key]
        return None

    def _global_toolbar(self, panel: Panel) -> list[tuple[str, pygame.Rect]]:
        """The view buttons, in as many rows as the panel's width needs (none is cut off)."""
        buttons = []
        b = panel.body
        x, y = b.x + 2, b.y + 2
        for name in GLOBAL_VIEWS + ("zoom", "legend"):
            w = 10 + font(16).size(name)[0]
            if x + w > b.right - 2 and x > b.x + 2:
                x, y = b.x + 2, y + 25
            buttons.append((name, pygame.Rect(x, y, w, 22)))
            x += w + 3
        return buttons

    def _global_image_rect(self, panel: Panel) -> pygame.Rect:
        b = panel.body
        top = max(r.bottom for _, r in self._global_toolbar(panel)) + 2 - b.y
        return pygame.Rect(b.x, b.y + top, b.w, max(1, b.h - top))

    # ------------------------------------------------------------------ events
    def handle(self, event) -> bool:
        """One pygame event; False when the window should close."""
        if event.type == pygame.QUIT:
            return False  # the system's close button: every move is already in the save
        if not self.running:
            return False
        if self.rules_form is not None and self.rules_form.handle(event):
            return True  # a right-click on a rule of the Optional Rules form
        if self.gui.process(event):
            return True  # a form used it
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.gui.over_form(event.pos):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._right_click(event.pos)
            return True
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self._motion(event.pos, getattr(event, "buttons", (0, 0, 0)))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._release(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self._wheel(event)
        return True

    def _key(self, event) -> bool:
        key, mod = event.key, getattr(event, "mod", 0)
        ctrl = mod & pygame.KMOD_CTRL
        if toolforms.key(self, key, bool(ctrl)):  # Ctrl+F Find, Ctrl+U Unit Review, Ctrl+S supply; Esc closes them
            return True
        if key == pygame.K_ESCAPE:
            self.escape()
            return self.running
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.play is not None:
                self.enter_ends_phase()
            else:
                self.finish_step()
            return True
        if key == pygame.K_F9:
            self.open_replay()
            return True
        if key == pygame.K_o and ctrl:
            self.open_rules()
            return True
        if key == pygame.K_SPACE:
            self.units_locked = None if self.units_locked else (self.hover_hex,)
            self.say("units in hex: locked" if self.units_locked else "units in hex: follows the cursor", DIM)
            return True
        arrows = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}
        over = self.panel_at(self.mouse)
        if key in (pygame.K_UP, pygame.K_DOWN) and over is not None and over.kind == "mapviews" and self.mapview_hover:
            where = ("top" if key == pygame.K_UP else "bottom") if ctrl else (-1 if key == pygame.K_UP else 1)
            self.views.move(self.power(), self.mapview_hover, where)
            return True
        target = self._map_under(self.mouse)
        dmap = target[1] if target else self.primary
        if dmap is None:
            return True
        if key in arrows:
            dx, dy = arrows[key]
            if ctrl:
                dmap.scroll_pages(dx, dy)
            else:
                dmap.scroll_hexes(dx * self.settings.scroll_step, dy * self.settings.scroll_step)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS, pygame.K_PAGEUP):
            self._zoom(dmap, target, +1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_PAGEDOWN):
            self._zoom(dmap, target, -1)
        elif key in LAYER_KEYS and not ctrl:
            name = LAYER_KEYS[key]
            dmap.layers[name] = not dmap.layers[name]
            self.say(f"{name.replace('_', ' ')}: {'on' if dmap.layers[name] else 'off'}", DIM)
        elif key == pygame.K_m:
            dmap.unit_resolution = "medium" if dmap.unit_resolution == "high" else "high"
            self.say(f"unit resolution: {dmap.unit_resolution}", DIM)
        return True

    # ------------------------------------------------------------------ Esc and Enter (issue 11 item 4)
    def escape(self) -> None:
        """Esc: close the top form (the Quit question, Optional Rules, a result), else cancel
        the command being filled in, else ask whether to quit."""
        if self.confirm_quit is not None:
            self._keep_playing()
        elif self.rules_form is not None and not getattr(self.rules_form, "closed", False):
            self.rules_form.close()
            self.rules_form = None
        elif self.play is not None and self.play.popups.close_top():
            pass
        elif self.play is not None and self.cancel_selection():
            self.say("selection cancelled", DIM)
        else:
            self.ask_quit()

    def cancel_selection(self) -> bool:
        """Forget what was chosen of the command being filled in; False when nothing was."""
        play = self.play
        if play.tray.in_stack:  # units picked up in the Setup Tray go back
            play.tray.in_stack = []
            return True
        fill = play.fill
        if fill is None or fill.values == type(fill)(fill.choice).values:
            return False
        play.fill_in(fill.choice)
        self.set_selection(None, [])
        return True

    def ask_quit(self) -> None:
        sw, sh = self.gui.size
        rect = pygame.Rect((sw - 380) // 2, (sh - 150) // 2, 380, 150)
        form = FormWindow(self.gui, rect, "Quit World in Flames?", object_id="#confirm_quit")
        saved = f"Every move is kept in {self.game.path.name}." if self.game is not None else ""
        form.label((6, 4, rect.w - 44, 24), saved)
        form.label((6, 26, rect.w - 44, 24), "Esc: keep playing")
        form.button((6, 56, 150, 32), "Quit", self._quit)
        form.button((166, 56, 170, 32), "Keep playing", self._keep_playing)
        self.confirm_quit = form

    def _quit(self) -> None:
        self.running = False
        self._keep_playing()

    def _keep_playing(self) -> None:
        if self.confirm_quit is not None:
            self.gui.close(self.confirm_quit)
            self.confirm_quit = None

    def enter_ends_phase(self) -> None:
        """Enter ends the phase only when the game offers FinishStep; otherwise it says what
        is left (the rule's reason) and submits nothing."""
        play = self.play
        if play.hidden() or play.actor() is None:
            self.say("Enter: nobody at this screen is to decide now", DIM)
            return
        if play.decisions.finish() is None:
            reason = play.finish_refusal() or "a decision is left to make first"
            play.say(f"Enter does not end this phase: {reason}")  # in the Play form and the top bar
            return
        play.finish_step()

    def _zoom(self, dmap, target, step: int) -> None:
        anchor = None
        if target is not None:
            anchor = self._local(target[0], self.mouse)
        dmap.set_zoom(dmap.zoom + step, anchor)

    def _wheel(self, event) -> None:
        over = self.panel_at(self.mouse)
        if over is not None and over.kind in self.list_scroll:
            count = len(self._list_names(over.kind))
            visible = max(1, (over.body.h - 30) // 18)
            self.list_scroll[over.kind] = max(0, min(count - visible, self.list_scroll[over.kind] - event.y))
            return
        target = self._map_under(self.mouse)
        if target is None:
            return
        panel, dmap = target
        mods = pygame.key.get_mods()
        if mods & pygame.KMOD_CTRL:
            self._zoom(dmap, target, 1 if event.y > 0 else -1)
        elif mods & pygame.KMOD_SHIFT or event.x:
            amount = event.y if not event.x else -event.x
            dmap.scroll_hexes(-3 * amount, 0)
        else:
            dmap.scroll_hexes(0, -3 * event.y)

    def _motion(self, pos, buttons) -> None:
        self.mouse = pos
        if self._drag is not None:
            key, start, last, moved, what = self._drag
            if not moved and abs(pos[0] - start[0]) + abs(pos[1] - start[1]) >= DRAG_THRESHOLD:
                moved = True
            if moved:
                dx, dy = pos[0] - last[0], pos[1] - last[1]
                if what == "map" and key in self.detailed:
                    self.detailed[key].scroll_pixels(-dx, -dy)
                elif what == "window" and key in self.panels:
                    g = self.panels[key].geometry
                    g.x += dx
                    g.y += dy
            self._drag = (key, start, pos, moved, what)
        target = self._map_under(pos)
        self.hover_hex = None
        for dmap in self.detailed.values():
            dmap.hover = None
        if target is not None:
            panel, dmap = target
            self.hover_hex = dmap.screen_to_hex(self._local(panel, pos))
            dmap.hover = self.hover_hex
            if self.play is not None:
                self.play.hover(self.hover_hex)
        panel = self.panel_at(pos)
        self.mapview_hover = None
        if panel is not None and panel.kind == "mapviews":
            self.mapview_hover = self._list_row(panel, pos)

    def _press(self, pos) -> None:
        panel = self.panel_at(pos)
        if panel is None:
            return
        # bring to front
        self.panels[panel.key] = self.panels.pop(panel.key)
        local_title = (pos[0] - panel.rect.x, pos[1] - panel.rect.y)
        if pos[1] < panel.rect.y + TITLE_H:
            if ROLL_ICON.collidepoint(local_title):
                panel.geometry.rolled = not panel.geometry.rolled
                return
            self._drag = (panel.key, pos, pos, False, "window")
            return
        if panel.key in self.detailed:
            self._drag = (panel.key, pos, pos, False, "map")
            return
        self._drag = (panel.key, pos, pos, False, "click")

    def _release(self, pos) -> None:
        drag, self._drag = self._drag, None
        if drag is None:
            return
        key, start, _, moved, what = drag
        if moved or key not in self.panels:
            return
        panel = self.panels[key]
        if what == "map":
            dmap = self.detailed[key]
            if navalclicks.click(self, dmap, self._local(panel, pos)):
                return  # a sea box (a map layer's, app/navalclicks.py) took it
            hex_ = dmap.screen_to_hex(self._local(panel, pos))
            if hex_ is not None:
                units = dmap.model.units()
                ids = [u.id for u in units.in_hex(hex_)] if units is not None else []
                self.set_selection(hex_, ids)
                info = self.model.info(hex_)
                self.say(f"selected {info.lines()[0]}" + (f", {len(ids)} unit(s)" if ids else ""), TEXT)
                if self.play is not None and not self.play.map_click(hex_, ids):
                    navalclicks.offer_hex(self, hex_)  # a port or sea area as an option field's value
        elif what == "click":
            self._click_form(panel, pos)

    def _click_form(self, panel: Panel, pos) -> None:
        if panel.kind == "global":
            for name, rect in self._global_toolbar(panel):
                if rect.collidepoint(pos):
                    if name == "zoom":
                        self.global_map.double = not self.global_map.double
                    elif name == "legend":
                        self.legend_visible = not self.legend_visible
                    elif name == self.global_map.view and name in ("convoys", "production"):
                        self.global_map.next_filter()  # seeds: a power, a side, or all
                    else:
                        self.global_map.set_view(name)
                    return
            image = self._global_image_rect(panel)
            if image.collidepoint(pos) and self.primary is not None:
                self.global_map.click((pos[0] - image.x, pos[1] - image.y), self.primary)
        elif panel.kind == "mapviews":
            buttons = self._mapview_buttons(panel)
            for name, rect in buttons:
                if rect.collidepoint(pos):
                    self.mapview_command(name)
                    return
            if self.mapview_hover:
                self.apply_map_view(self.views.get(self.power(), self.mapview_hover))
                self.say(f"map view {self.mapview_hover}", DIM)
        elif panel.kind == "layouts":
            for name, rect in self._layout_buttons(panel):
                if rect.collidepoint(pos):
                    self.layout_command(name)
                    return
            name = self._list_row(panel, pos)
            if name is not None:
                self.apply_layout(name)
                self.say(f"screen layout {name}", DIM)

    # ------------------------------------------------------------------ per frame
    def tick(self) -> None:
        """Work that happens every frame whatever the events: autoscroll, reloads."""
        if self.reloader is not None:
            self.reloader.process_pending()
        self.save_watch.tick()  # another process appended to the save: fold it, say so
        # Prefetch chunks next to the view in the time the last frame left over, so a
        # frame that must draw stays within its budget (FRAME_SECONDS at 60 frames a second).
        deadline = time.perf_counter() + FRAME_SECONDS - PREFETCH_MARGIN - self.last_draw_seconds
        for dmap in self.detailed.values():
            dmap.prefetch(4, deadline=deadline)
        target = self._map_under(self.mouse)
        if target is None or self.settings.autoscroll <= 0 or self._drag is not None:
            self._border_frames = 0
            return
        panel, dmap = target
        x, y = self._local(panel, self.mouse)
        w, h = panel.body.size
        dx = -1 if x < AUTOSCROLL_BORDER else 1 if x >= w - AUTOSCROLL_BORDER else 0
        dy = -1 if y < AUTOSCROLL_BORDER else 1 if y >= h - AUTOSCROLL_BORDER else 0
        if dx or dy:
            self._border_frames += 1
            # higher sensitivity = the cursor must rest longer before the map moves
            if self._border_frames >= self.settings.autoscroll * 3:
                dmap.scroll_hexes(dx, dy)
        else:
            self._border_frames = 0
