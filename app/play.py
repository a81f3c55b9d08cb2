"""The game window: the windows of a screen layout (main form, detailed maps, global map and
its legend, units in hex, sequence of play, map-view and layout lists) over one pygame
display.

Controls (seeds, "Detailed Map" and "Player Interface Menu"):
  arrows: scroll one hex; Ctrl+arrows: one page; wheel: up/down; Shift+wheel: left/right;
  Ctrl+wheel or +/-: zoom at the cursor; drag: scroll; the autoscroll border scrolls after
  the cursor rests on it (sensitivity 0 = off); click: select a hex / unit; Space: lock the
  units-in-hex panel; Enter: finish the current step; F9: replay this game; Ctrl+O: the
  optional rules (right-click toggles one); Esc: quit.
  Right click on the map-views or screen-layouts list: its popup menu (seeds, "Map Views",
  "Screen Layouts"); the wheel scrolls the lists.
  Layers: T terrain, S hexsides, R rail, L labels, Z weather zones, W weather, H hex control,
  U units, M unit resolution.  Over the map-views list: Up/Down moves the label under the
  cursor, Ctrl+Up/Down to the top/bottom.
With ``--dev`` plugins hot reload while it runs and the map redraws after each reload.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from kernel.errors import WifError
from kernel.game import Game

from . import mapstyle
from .detailed import DetailedMap, Selection, font
from .dirty import map_changes
from .forms import Gui, ask_name, popup_menu
from .globalmap import VIEWS as GLOBAL_VIEWS
from .globalmap import GlobalMap, draw_legend
from .mapmodel import MapModel
from .uiplugins import load_ui_plugins
from .views import LayoutStore, MapView, MapViewStore, ScreenLayout, WindowGeometry, fit_layout

REPO_ROOT = Path(__file__).resolve().parent.parent
BACKGROUND = (24, 28, 36)
TEXT = (230, 230, 220)
DIM = (150, 150, 140)
ACCENT = (220, 80, 60)
GOOD = (120, 200, 120)
FORM = (46, 52, 64)
TITLE_BAR = (70, 80, 100)
TITLE_H = 18
ROLL_ICON = pygame.Rect(3, 3, 12, 12)  # seeds: the small icon at the top left rolls a form up
TITLES = {"main": "World in Flames", "layouts": "Screen layouts", "mapviews": "Map views",
          "detailed": "Detailed map", "global": "Global map", "legend": "Global map legend",
          "sequence": "Sequence of play", "units_in_hex": "Units in hex", "selectable": "Selectable units",
          "play": "Play", "setup_tray": "Setup Tray"}
LAYER_KEYS = {pygame.K_t: "terrain", pygame.K_s: "hexsides", pygame.K_r: "rail", pygame.K_l: "labels",
              pygame.K_z: "weather_zones", pygame.K_w: "weather", pygame.K_h: "control", pygame.K_u: "units"}
AUTOSCROLL_BORDER = 10
FORM_KINDS = ("play", "selectable", "setup_tray")  # layout windows that are pygame_gui forms, not panels
DRAG_THRESHOLD = 5
FRAME_SECONDS = 1 / 60
PREFETCH_MARGIN = 0.004  # leave room for event handling, the flip and the timer's jitter


def new_save_path(scenario: str) -> Path:
    return REPO_ROOT / "saves" / f"{scenario}-{time.strftime('%Y%m%d-%H%M%S')}.wif"


@dataclass
class Panel:
    key: str
    geometry: WindowGeometry
    title: str

    @property
    def rect(self) -> pygame.Rect:
        g = self.geometry
        return pygame.Rect(g.x, g.y, g.w, TITLE_H if g.rolled else g.h)

    @property
    def body(self) -> pygame.Rect:
        g = self.geometry
        return pygame.Rect(g.x, g.y + TITLE_H, g.w, max(1, g.h - TITLE_H))

    @property
    def kind(self) -> str:
        return self.key.split("-")[0]


@dataclass
class Settings:
    autoscroll: int = 2  # seeds: sensitivity; 0 turns the autoscroll border off
    scroll_step: int = 1


class GameWindow:
    """Everything on screen.  ``screen`` may be any surface (tests and ``wif render`` draw
    off screen through exactly the same code)."""

    def __init__(self, game: Game | None, screen: pygame.Surface | None = None, layout: str | ScreenLayout | None = None,
                 reloader=None, ui=None, config_folder: Path | None = None, model: MapModel | None = None,
                 forms: bool = False):
        """``forms``: show the decision forms (the playing window; ``wif render`` and the map
        tests draw the map without them)."""
        self.game = game
        self.gui = Gui(screen.get_size() if screen is not None else (1024, 768))
        self.rules_form = None  # the Optional Rules form (Ctrl+O), while open
        self.list_scroll: dict[str, int] = {"mapviews": 0, "layouts": 0}
        self.next_game: str | None = None  # a save the main loop should open next (a replay's fork)
        self._last_draw = time.monotonic()
        self.last_draw_seconds = 0.0
        self.last_changes = None  # what the last events changed on the map (app.dirty.MapChanges)
        self.reloader = reloader
        self.messages: list[tuple[str, tuple[int, int, int]]] = []
        self.notes: list[str] = []  # warnings from stores and plugins, shown as messages
        self.ui = ui or load_ui_plugins()
        self.model = model or MapModel(game=game)
        self.views = MapViewStore(self.ui.map_views, config_folder, self.notes)
        self.layouts = LayoutStore(self.ui.layouts, config_folder, self.notes)
        self.settings = Settings()
        self.selection_listeners: list = []
        self.detailed: dict[str, DetailedMap] = {}
        self.linked_detailed: DetailedMap | None = None
        self.global_map = GlobalMap(self.model)
        self.legend_visible = True
        self.units_locked: tuple | None = None  # (hex, units) while Space holds the panel
        self.hover_hex = None
        self.mouse = (0, 0)
        self._drag: tuple | None = None  # (panel key, start pos, last pos, moved?, what)
        self._border_frames = 0
        self._owns_display = screen is None
        self.screen = screen
        self.panels: dict[str, Panel] = {}
        self.mapview_hover: str | None = None
        self.flyout_page = 0
        for text in self.ui.messages:
            self.say(text, ACCENT)
        self.apply_layout(layout if layout is not None else self._starting_layout())
        self._flush_notes()
        self.counter_messages: list[str] = []
        for dmap in self.detailed.values():
            dmap.counters.messages = self.counter_messages
        if game is not None:
            game.listeners.append(self._on_events)
        self.play = None
        if forms and game is not None:
            from .playforms import PlayForms

            self.play = PlayForms(self)
        if reloader is not None:
            reloader.listeners.append(self._on_reload)

    # ------------------------------------------------------------------ layout
    def _starting_layout(self) -> str:
        scenario = self.game.state.kernel.scenario if self.game is not None else None
        names = self.layouts.names()
        if self.layouts.current in names:
            return self.layouts.current
        for name, layout in self.ui.layouts.items():
            if layout.scenario == scenario and name in names:
                return name
        return "M1007" if "M1007" in names else (names[0] if names else "")

    def _fallback_layout(self, size) -> ScreenLayout:
        w, h = size
        return ScreenLayout(name="fallback", screen=(w, h), windows={
            "main": WindowGeometry(x=0, y=0, w=w, h=90), "detailed": WindowGeometry(x=0, y=90, w=w, h=h - 90)})

    def screen_limit(self) -> tuple[int, int]:
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
                pygame.display.set_caption(f"World in Flames — {self.game.state.kernel.scenario} — {layout.name}")
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

    def _default_centre(self):
        views = self.views.views(self.power()) if self.game is not None else []
        if views:
            return (views[0].col, views[0].row)
        return (205, 52)

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

    # ------------------------------------------------------------------ map views
    def power(self) -> str:
        """Whose map views are listed: the first power still to decide, else the first power."""
        if self.game is None:
            return "germany"
        k = self.game.state.kernel
        if k.acting_power():
            return k.acting_power()
        for powers in k.sides.values():
            if powers:
                return powers[0]
        return "germany"

    def map_view_of(self, dmap: DetailedMap, name: str) -> MapView:
        col, row = dmap.centre_hex
        lay = dmap.layers
        return MapView(name=name, col=col, row=row, zoom=dmap.zoom, rail=lay["rail"], labels=lay["labels"],
                       weather_zones=lay["weather_zones"], units=lay["units"], unit_resolution=dmap.unit_resolution,
                       weather=lay["weather"], control=lay["control"])

    def apply_map_view(self, view: MapView, dmap: DetailedMap | None = None) -> None:
        dmap = dmap or self.primary
        if dmap is None:
            return
        dmap.zoom = view.zoom
        for name in ("rail", "labels", "weather_zones", "units", "weather", "control"):
            dmap.layers[name] = getattr(view, name)
        dmap.unit_resolution = view.unit_resolution
        dmap.center_on((view.col, view.row))

    # ------------------------------------------------------------------ messages and game events
    def say(self, text: str, colour=TEXT) -> None:
        self.messages = (self.messages + [(text, colour)])[-6:]

    def _flush_notes(self) -> None:
        while self.notes:
            self.say(self.notes.pop(0), ACCENT)

    def _on_events(self, game, records) -> None:
        """Reducers changed state: drop only the chunks showing a changed hex (``app.dirty``)."""
        self.last_changes = map_changes(game, records, self.model)
        for dmap in self.detailed.values():
            dmap.apply_changes(self.last_changes)

    def _on_reload(self, result) -> None:
        self.say(result.message, GOOD if result.ok else ACCENT)
        for dmap in self.detailed.values():
            dmap.invalidate()
            dmap._stack_seq = -1
        self.global_map._seq = -1

    def set_selection(self, hex_, units: list[str]) -> None:
        sel = Selection(hex_, units)
        for dmap in self.detailed.values():
            dmap.selection = sel
        self.selection = sel
        for listener in list(self.selection_listeners):
            listener(sel)
        if self.ui.manager is not None and hasattr(self.ui.manager.hook, "ui_selection_changed"):
            self.ui.manager.hook.ui_selection_changed(selection=sel, window=self)

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
        buttons = []
        x = panel.body.x + 2
        for name in GLOBAL_VIEWS + ("zoom", "legend"):
            w = 10 + font(16).size(name)[0]
            buttons.append((name, pygame.Rect(x, panel.body.y + 2, w, 22)))
            x += w + 3
        return buttons

    def _global_image_rect(self, panel: Panel) -> pygame.Rect:
        b = panel.body
        return pygame.Rect(b.x, b.y + 26, b.w, b.h - 26)

    # ------------------------------------------------------------------ events
    def handle(self, event) -> bool:
        """One pygame event; False when the window should close."""
        if event.type == pygame.QUIT:
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
        ctrl, shift = mod & pygame.KMOD_CTRL, mod & pygame.KMOD_SHIFT
        if key == pygame.K_ESCAPE:
            return False
        if key == pygame.K_RETURN:
            if self.play is not None:
                self.play.finish_step()
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
            hex_ = dmap.screen_to_hex(self._local(panel, pos))
            if hex_ is not None:
                units = dmap.model.units()
                ids = [u.id for u in units.in_hex(hex_)] if units is not None else []
                self.set_selection(hex_, ids)
                info = self.model.info(hex_)
                self.say(f"selected {info.lines()[0]}" + (f", {len(ids)} unit(s)" if ids else ""), TEXT)
                if self.play is not None:
                    self.play.map_click(hex_, ids)
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

    def _mapview_buttons(self, panel: Panel):
        b = panel.body
        names = ("save", "redefine", "restore", "delete")
        w = max(40, (b.w - 8) // len(names))
        return [(n, pygame.Rect(b.x + 4 + i * w, b.bottom - 22, w - 4, 20)) for i, n in enumerate(names)]

    def _layout_buttons(self, panel: Panel):
        b = panel.body
        names = ("save", "redefine")
        w = max(40, (b.w - 8) // len(names))
        return [(n, pygame.Rect(b.x + 4 + i * w, b.bottom - 22, w - 4, 20)) for i, n in enumerate(names)]

    def mapview_command(self, name: str, view_name: str | None = None) -> None:
        power = self.power()
        dmap = self.primary
        if dmap is None:
            return
        target = view_name or self.mapview_hover
        if name == "save":
            if view_name is None:  # seeds, "Map Views": Save "... you are asked to provide a name"
                existing = set(self.views.names(power))
                suggestion = next(f"View {i}" for i in range(1, 999) if f"View {i}" not in existing)
                ask_name(self.gui, "Save map view as", suggestion, lambda n: self.mapview_command("save", n))
                return
            self.views.save(power, self.map_view_of(dmap, view_name))
            self.say(f"map view {view_name} saved", GOOD)
        elif name == "rename" and target:
            ask_name(self.gui, f"Rename map view {target}", target,
                     lambda n: (self.views.rename(power, target, n), self.say(f"map view {target} renamed {n}", GOOD)))
        elif name == "redefine" and target:
            self.views.redefine(power, target, self.map_view_of(dmap, target))
            self.say(f"map view {target} redefined", GOOD)
        elif name == "restore" and target:
            self.apply_map_view(self.views.restore(power, target))
        elif name == "delete" and target:
            self.views.delete(power, target)
            self.say(f"map view {target} removed from the list", DIM)
        self._flush_notes()

    def layout_command(self, name: str, layout_name: str | None = None) -> None:
        if name in ("save", "add"):
            if layout_name is None:  # seeds, "Screen Layouts": save under a new name
                existing = set(self.layouts.names())
                suggestion = next(f"Layout {i}" for i in range(1, 999) if f"Layout {i}" not in existing)
                ask_name(self.gui, "Save screen layout as" if name == "save" else "Add screen layout",
                         suggestion, lambda n: self.layout_command(name, n))
                return
            self.layouts.save(self.current_layout(layout_name))
            if name == "save":  # "add" puts it in the list without changing to it
                self.layout = self.current_layout(layout_name)
                self.layouts.set_current(layout_name)
            self.say(f"screen layout {layout_name} saved", GOOD)
        elif name == "rename":
            old = layout_name or self.layout.name

            def renamed(new: str) -> None:
                self.layouts.rename(old, new)
                if self.layout.name == old:
                    self.layout = self.layout.model_copy(update={"name": new})
                self.say(f"screen layout {old} renamed {new}", GOOD)

            ask_name(self.gui, f"Rename screen layout {old}", old, renamed)
        elif name == "delete" and layout_name and layout_name != self.layout.name:
            self.layouts.delete(layout_name)
            self.say(f"screen layout {layout_name} removed from the list", DIM)
        elif name in ("up", "down") and layout_name:
            self.layouts.move(layout_name, -1 if name == "up" else 1)
        elif name == "redefine":
            self.layouts.save(self.current_layout())
            self.say(f"screen layout {self.layout.name} redefined", GOOD)
        self._flush_notes()

    # ------------------------------------------------------------------ the lists and their menus
    def _list_names(self, kind: str) -> list[str]:
        return self.views.names(self.power()) if kind == "mapviews" else self.layouts.names()

    def _list_row(self, panel: Panel, pos) -> str | None:
        index = (pos[1] - panel.body.y - 4) // 18 + self.list_scroll.get(panel.kind, 0)
        names = self._list_names(panel.kind)
        buttons = self._mapview_buttons(panel) if panel.kind == "mapviews" else self._layout_buttons(panel)
        if any(rect.collidepoint(pos) for _, rect in buttons):
            return None
        return names[index] if 0 <= index < len(names) and pos[1] >= panel.body.y else None

    def _right_click(self, pos) -> None:
        """Seeds, "Map Views": right click on a label pops up Restore, Save, Redefine, Rename,
        Delete; "Screen Layouts": on the current layout fetch/save/add/redefine/rename, on the
        others the same less Redefine plus Change position and Delete."""
        panel = self.panel_at(pos)
        if panel is None or panel.kind not in self.list_scroll or panel.geometry.rolled:
            return
        name = self._list_row(panel, pos)
        if panel.kind == "mapviews":
            items = ["Restore", "Save…", "Redefine", "Rename…", "Delete"] if name else ["Save…"]
            verbs = {"Restore": "restore", "Save…": "save", "Redefine": "redefine", "Rename…": "rename",
                     "Delete": "delete"}

            def chosen(item: str) -> None:
                self.mapview_hover = name
                self.mapview_command(verbs[item], name if verbs[item] != "save" else None)

            popup_menu(self.gui, pos, items, chosen)
            return
        if name is None:
            return
        if name == self.layout.name:
            items = ["Fetch from disk…", "Save as…", "Add to list…", "Redefine", "Rename…"]
        else:
            items = ["Switch to", "Save as…", "Add to list…", "Rename…", "Move up", "Move down", "Delete"]
        verbs = {"Save as…": "save", "Add to list…": "add", "Redefine": "redefine", "Rename…": "rename",
                 "Move up": "up", "Move down": "down", "Delete": "delete"}

        def chosen_layout(item: str) -> None:
            if item == "Switch to":
                self.apply_layout(name)
            elif item == "Fetch from disk…":
                self.pick_layout_file()
            elif verbs[item] in ("save", "add", "redefine"):
                self.layout_command(verbs[item])
            else:
                self.layout_command(verbs[item], name)

        popup_menu(self.gui, pos, items, chosen_layout)

    def pick_layout_file(self):
        """Seeds, "Screen Layouts": fetch a layout from disk; a file picker opens in the
        layouts folder and the chosen file joins the list and becomes the current layout."""
        from pygame_gui.windows import UIFileDialog
        import pygame_gui

        sw, sh = self.screen.get_size()
        folder = self.layouts.folder if self.layouts.folder.exists() else Path.cwd()
        dialog = UIFileDialog(pygame.Rect(max(0, sw // 2 - 260), max(0, sh // 2 - 220), min(520, sw), min(440, sh)),
                              self.gui.manager, window_title="Fetch a screen layout from disk",
                              initial_file_path=str(folder), allow_picking_directories=False)
        self.gui.on(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, dialog, lambda text: self.fetch_layout(text))
        return dialog

    def fetch_layout(self, path: str | None) -> None:
        if not path:
            return
        try:
            layout = self.layouts.fetch(path)
        except ValueError as exc:
            self.say(str(exc), ACCENT)
            return
        self.apply_layout(layout.name)
        self.say(f"screen layout {layout.name} fetched from {path}", GOOD)

    def open_rules(self) -> None:
        """Ctrl+O: the game's optional rules with (ON); a right-click toggles one that may
        be toggled now (seeds, Optional Rules), as a command in the log."""
        if "optional-rules" not in self.game.host.infos:
            self.say("this game was started without the optional-rule framework", ACCENT)
            return
        from .rulesform import play_rules_form

        k = self.game.state.kernel
        actor = k.acting_power() or (k.powers()[0] if k.powers() else "system")
        if self.rules_form is not None and not getattr(self.rules_form, "closed", False):
            self.rules_form.close()
        self.rules_form = play_rules_form(self.gui, self.game, player=k.controllers.get(actor), actor=actor)

    def open_replay(self) -> None:
        """F9: the replay viewer on this game (if installed); "Play on from here" gives a fork
        that the main loop opens next.  Nothing of this game is closed."""
        if self.game is None:
            return
        try:
            from . import replay_view
        except ImportError:
            self.say("the replay viewer is not installed in this build", ACCENT)
            return
        fork = replay_view.run_replay_window(str(self.game.path), screen=self.screen)
        if fork:
            self.next_game = str(fork)
            self.say(f"opening the fork {fork}", GOOD)

    def finish_step(self) -> None:
        if self.game is None:
            return
        actor = self.game.state.kernel.acting_power()
        if actor is None:
            self.say("nobody is to decide now", DIM)
            return
        outcome = self.game.submit({"type": "FinishStep", "actor": actor}, player=None)
        self.say(f"{actor}: finished" if outcome.accepted else outcome.reason, GOOD if outcome.accepted else ACCENT)

    # ------------------------------------------------------------------ per frame
    def tick(self) -> None:
        """Work that happens every frame whatever the events: autoscroll, reloads."""
        if self.reloader is not None:
            self.reloader.process_pending()
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
        now = time.monotonic()
        self.gui.update(min(0.1, now - self._last_draw))
        self._last_draw = now
        self.gui.draw(s)

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
            title += f"  {self.global_map.view}{'  x2' if self.global_map.double else ''}"
        s.blit(font(17).render(title, True, TEXT), (rect.x + 20, rect.y + 2))
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
        elif drawer is not None:
            drawer(panel)
        s.set_clip(old)
        pygame.draw.rect(s, (0, 0, 0), (rect.x, rect.y, rect.w, panel.geometry.h), 1)

    def _draw_main(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        y = b.y + 3
        if self.game is not None:
            k = self.game.state.kernel
            seq = k.sequence
            lines = [(f"{k.scenario}  turn {k.turn} impulse {k.impulse}  step: {seq.current or '-'}"
                      f"{'  (game over)' if seq.finished else ''}", TEXT),
                     (f"waiting for: {', '.join(seq.pending) or 'nobody'}   Enter: finish step   Esc: quit", DIM)]
        else:
            lines = []
        if self.hover_hex is not None:
            lines.append(("  ".join(self.model.info(self.hover_hex).lines()), TEXT))
        for text, colour in lines + self.messages[-2:]:
            s.blit(font(17).render(text[:160], True, colour), (b.x + 6, y))
            y += 16

    def _draw_sequence(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        if self.game is None:
            return
        step = self.game.state.kernel.sequence.current or "-"
        decider = self.power() if self.game.state.kernel.sequence.pending else None
        if decider:  # seeds, "Sequence of Play": the flag of the major power to decide
            from .playforms import flag_surface

            s.blit(flag_surface(decider), (b.right - 40, b.y + 4))
        parts = step.split(".")
        y = b.y + 4
        for depth, part in enumerate(parts):
            s.blit(font(17).render("  " * depth + part, True, TEXT if depth == len(parts) - 1 else DIM), (b.x + 6, y))
            y += 16

    def _draw_layouts(self, panel: Panel) -> None:
        s, b = self.screen, panel.body
        s.fill(FORM, b)
        y = b.y + 4
        names = self.layouts.names()
        first = self.list_scroll["layouts"]
        for name in names[first:]:
            bold = name == self.layout.name  # seeds: the current layout is shown in bold
            s.blit(font(17, bold=bold).render(name, True, TEXT if bold else DIM), (b.x + 6, y))
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
            s.blit(font(17).render(name, True, colour), (b.x + 6, y))
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
            text = font(16).render(name, True, TEXT)
            self.screen.blit(text, (rect.centerx - text.get_width() // 2, rect.y + 4))

    def _draw_global(self, panel: Panel) -> None:
        s = self.screen
        s.fill(FORM, panel.body)
        for name, rect in self._global_toolbar(panel):
            active = name == self.global_map.view or (name == "zoom" and self.global_map.double) or \
                (name == "legend" and self.legend_visible)
            pygame.draw.rect(s, GOOD if active else TITLE_BAR, rect)
            s.blit(font(16).render(name, True, (0, 0, 0) if active else TEXT), (rect.x + 5, rect.y + 5))
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
        s.blit(font(16).render(head, True, DIM), (b.x + 4, b.y + 2))
        art = self.primary.counters if self.primary else None
        size = mapstyle.ZOOMS[6].counter + 8
        x = b.x + 4
        for unit in units:
            if x + size > b.right or art is None:
                break
            s.blit(art.surface(unit, size), (x, b.y + 18))
            s.blit(font(14).render((unit.name or unit.type)[:12], True, TEXT), (x, b.y + 20 + size))
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
        s.blit(font(15).render(f"Flyout {len(members)} units", True, TEXT), (x + 4, y + 3))
        art = self.primary.counters
        for i, unit in enumerate(page):
            s.blit(art.surface(unit, size), (x + 4 + (i % 3) * (size + 4), y + 20 + (i // 3) * (size + 4)))


# ---------------------------------------------------------------------- the program
def main(args) -> int:
    """``wif play [SAVE]``: without a save the Start New Game form comes first."""
    pygame.display.init()
    pygame.font.init()
    game = None
    try:
        if args.save:
            game = Game.open(args.save)
        elif getattr(args, "scenario", None):
            path = new_save_path(args.scenario)
            game = Game.new(args.scenario, path)
            print(f"new game of {args.scenario}: {path}")
        while True:
            if game is None:
                game = _start_new_game(args)
                if game is None:
                    return 0
            next_game = _run_window(game, args)
            game.close()
            game = None
            if not next_game:
                return 0
            game = Game.open(next_game)  # a fork chosen in the replay viewer
    except WifError as exc:
        print(f"error: {exc}")
        return 1
    finally:
        if game is not None:
            game.close()
        pygame.quit()


def _start_new_game(args) -> Game | None:
    from .newgame import run_new_game_form

    screen = pygame.display.set_mode((1024, 768))
    pygame.display.set_caption("World in Flames — Start New Game")
    while True:
        choice = run_new_game_form(screen, args.scenario or "barbarossa", new_save_path, frames=args.frames,
                                   screenshot=args.screenshot)
        if choice is None:
            return None
        if choice.kind == "game":
            print(f"new game of {choice.game.state.kernel.scenario}: {choice.path}")
            return choice.game
        if choice.kind == "open":
            return Game.open(choice.path)
        try:
            from . import replay_view
        except ImportError:
            print("the replay viewer is not installed in this build")
            continue
        fork = replay_view.run_replay_window(choice.path, screen=screen)
        if fork:
            return Game.open(fork)


def _run_window(game: Game, args) -> str | None:
    """The game window until it closes; the path of a save to open next, if any."""
    reloader = None
    if args.dev:
        from kernel.hotreload import PluginReloader

        reloader = PluginReloader(game)
        reloader.start()
    try:
        window = GameWindow(game, reloader=reloader, forms=True)
        clock = pygame.time.Clock()
        frames = 0
        running = True
        while running and window.next_game is None:
            for event in pygame.event.get():
                running = window.handle(event) and running
            window.tick()
            window.draw()
            pygame.display.flip()
            frames += 1
            if args.frames is not None and frames >= args.frames:
                running = False
            clock.tick(60)
        if args.screenshot:
            pygame.image.save(window.screen, args.screenshot)
        return window.next_game
    finally:
        if reloader is not None:
            reloader.stop()
