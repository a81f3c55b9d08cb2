"""The game window's screen layout (seeds, "Screen Layouts"): which layout it opens with (the
largest that fits the screen, issue 11 item 9), fitting it to the screen, the panels and
detailed maps it gives, and the screen as it is now as a layout (Save / Redefine).  A mixin
of ``app.play.GameWindow``."""

from __future__ import annotations

import pygame

from .detailed import DetailedMap
from .views import ScreenLayout, WindowGeometry, fit_layout
from .windowstyle import FORM_KINDS, TITLES, Panel
from .wording import scenario_title

DESKTOP_MARGIN = 60  # pixels of the desktop's height left to the window's title bar and a taskbar


def screen_limit_of(desktop: tuple[int, int]) -> tuple[int, int]:
    """The largest window for a desktop: a screen larger than the smallest layout (1024x768)
    leaves room for the title bar and a taskbar."""
    w, h = desktop
    return (w, h - DESKTOP_MARGIN) if h > 768 + DESKTOP_MARGIN else (w, h)


class WindowLayout:
    """The layout part of the game window."""

    def _starting_layout(self) -> str:
        """The player's current layout; else the largest one-monitor layout that fits the
        screen (issue 11 item 9: the window fits the screen it opens on), the scenario's "New
        Game" layout when it is as large."""
        scenario = self.game.state.kernel.scenario if self.game is not None else None
        names = self.layouts.names()
        if self.layouts.current in names:
            return self.layouts.current
        sw, sh = self.desktop_size()  # a layout of the desktop's size is then fitted to what is left
        fitting = [(layout.screen[0] * layout.screen[1], layout.scenario == scenario, name)
                   for name, layout in self.ui.layouts.items()
                   if name in names and layout.screen[0] <= sw and layout.screen[1] <= sh
                   and (layout.scenario is None or layout.scenario == scenario) and "detailed-2" not in layout.windows]
        if fitting:
            return max(fitting)[2]
        return "M1007" if "M1007" in names else (names[0] if names else "")

    def _fallback_layout(self, size) -> ScreenLayout:
        w, h = size
        return ScreenLayout(name="fallback", screen=(w, h), windows={
            "main": WindowGeometry(x=0, y=0, w=w, h=90), "detailed": WindowGeometry(x=0, y=90, w=w, h=h - 90)})

    def screen_limit(self) -> tuple[int, int]:
        if not self._owns_display:
            return self.screen.get_size()
        return screen_limit_of(self.desktop_size())

    def desktop_size(self) -> tuple[int, int]:
        """The size of the screen the window opens on (the surface's, drawing off screen)."""
        if not self._owns_display:
            return self.screen.get_size()
        sizes = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
        return sizes[0] if sizes else (1024, 768)

    def apply_layout(self, layout: str | ScreenLayout) -> None:
        if isinstance(layout, str):
            try:
                layout = self.layouts.get(layout)
            except KeyError as exc:
                self.notes.append(f"{exc.args[0]}; using a plain layout")
                layout = self._fallback_layout(self.screen_limit())
        fitted, note = fit_layout(layout, self.screen_limit())
        if note:
            self.notes.append(note)
        self.layout = layout
        if self._owns_display:
            self.screen = pygame.display.set_mode(fitted.screen if fitted is not layout else layout.screen)
            if self.game is not None:
                pygame.display.set_caption(f"World in Flames — {scenario_title(self.game)} — {layout.name}")
        self.panels = {key: Panel(key, g.model_copy(), TITLES.get(key.split("-")[0], key))
                       for key, g in fitted.windows.items() if g.visible and key not in FORM_KINDS}
        # the decision forms are pygame_gui windows; the layout says where they open
        self.form_geometry = {key: fitted.windows[key].model_copy() for key in FORM_KINDS if key in fitted.windows}
        if getattr(self, "play", None) is not None:
            self.play.place_forms()
        self.gui.resize(self.screen.get_size())
        old = self.detailed
        self.detailed = {}
        for key, panel in self.panels.items():
            if panel.kind == "detailed":
                dmap = old.get(key) or (next(iter(old.values())) if old and key == "detailed" else None)
                if dmap is None:
                    dmap = DetailedMap(self.model, panel.body.size, zoom=5 if key == "detailed" else 3,
                                       centre=self._default_centre())
                dmap.resize(panel.body.size)
                self.detailed[key] = dmap
        if self.layouts.current != layout.name and layout.name in self.layouts.names():
            self.layouts.current = layout.name
        self._flush_notes()

    def current_layout(self, name: str | None = None) -> ScreenLayout:
        """The screen as it is now, as a layout (for Save / Redefine)."""
        windows = {k: g.model_copy() for k, g in self.layout.windows.items()}
        for key, panel in self.panels.items():
            windows[key] = panel.geometry.model_copy()
        if self.play is not None:
            windows.update(self.play.form_geometries())
        return ScreenLayout(name=name or self.layout.name, screen=self.screen.get_size(), windows=windows,
                            scenario=self.layout.scenario, description=self.layout.description)

    @property
    def primary(self) -> DetailedMap | None:
        """The detailed map the global map is linked to: the layout's first, else the one
        ``link_detailed`` gave (a picture of the global map alone still shows its rectangle)."""
        return self.detailed.get("detailed") or next(iter(self.detailed.values()), None) or self.linked_detailed

    def link_detailed(self, size: tuple[int, int], zoom: int = 5) -> DetailedMap:
        """A detailed map that is not on screen, for the global map's rectangle."""
        self.linked_detailed = DetailedMap(self.model, size, zoom=zoom, centre=self._default_centre())
        self.linked_detailed.counters.messages = self.counter_messages
        return self.linked_detailed
