"""Draw any game state (not only a game's latest one) through the window's own code.

The map renderer reads a game's state through ``GameWindow`` and ``MapModel``; both read
``game.state``.  ``StateView`` stands in for the game with the state of one point in its
history, so the replay viewer and ``wif replay --render-every`` draw exactly what the game
window and ``wif render`` would draw for that state, and nothing can be submitted through it.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from kernel.game import Outcome

HIGHLIGHT = (0, 255, 255)  # the hexes an event touched: a colour no map layer uses
HIGHLIGHT_WIDTH = 3


class StateView:
    """A read-only stand-in for a ``Game``: what the renderer reads, at a chosen state."""

    read_only = True

    def __init__(self, game, state=None):
        self.game = game
        self.state = state if state is not None else game.state
        self.listeners: list = []  # GameWindow subscribes; a frozen state never announces events

    @property
    def host(self):
        return self.game.host

    @property
    def path(self):
        return self.game.path

    @property
    def problems(self) -> list[str]:
        return self.game.problems

    def describe(self, rec, state=None) -> str:
        return self.game.describe(rec, state or self.state)

    def legal_commands(self) -> list[str]:
        return []

    def submit(self, command, player=None) -> Outcome:
        return Outcome(False, reason="this is a replay: nothing can be changed here (use Play on from here)")


class StaticLayerTracker:
    """Throws away the detailed maps' baked chunks when hex control or weather differ
    between the state last drawn and the state to draw (stepping, seeking either way)."""

    def __init__(self):
        self._control: dict | None = None
        self._rest: str | None = None

    @staticmethod
    def _read(state) -> tuple[dict, str]:
        world = state.sections.get("core.world")
        control = dict(world.hex_control) if world is not None else {}
        rest = [sorted(world.weather.items()), sorted(world.countries.items())] if world is not None else []
        for name in ("control", "weather"):  # sections other scenarios may keep
            section = state.sections.get(name)
            if section is not None:
                rest.append(section.model_dump_json() if hasattr(section, "model_dump_json") else repr(section))
        return control, repr(rest)

    def update(self, state, detailed_maps) -> None:
        control, rest = self._read(state)
        if self._control is None:
            self._control, self._rest = control, rest
            return
        if rest != self._rest:
            for dmap in detailed_maps:
                dmap.invalidate()
        elif control != self._control:
            changed = {key for key in control.keys() | self._control.keys()
                       if control.get(key) != self._control.get(key)}
            hexes = [tuple(int(v) for v in key.split(",")) for key in changed]
            for dmap in detailed_maps:
                dmap.invalidate_hexes(hexes)
        self._control, self._rest = control, rest


def draw_highlights(window, hexes) -> None:
    """Outline ``hexes`` on every detailed map of ``window`` (after ``window.draw()``)."""
    if not hexes:
        return
    import pygame

    from .stamps import hex_corners

    screen = window.screen
    for key, dmap in window.detailed.items():
        panel = window.panels.get(key)
        if panel is None or panel.geometry.rolled:
            continue
        body = panel.body
        old = screen.get_clip()
        screen.set_clip(body)
        for hex_ in hexes:
            sx, sy = dmap.hex_to_screen(hex_)
            pygame.draw.polygon(screen, HIGHLIGHT, hex_corners(dmap.geometry, body.x + sx, body.y + sy),
                                HIGHLIGHT_WIDTH)
        screen.set_clip(old)


def centre_of(hexes, cols: int = 360) -> tuple[int, int] | None:
    """The middle of some hexes, measuring columns the short way round the wrapping world."""
    if not hexes:
        return None
    ref = hexes[0][0]
    offsets = [((c - ref + cols // 2) % cols) - cols // 2 for c, _ in hexes]
    col = round(ref + sum(offsets) / len(offsets)) % cols
    row = round(sum(r for _, r in hexes) / len(hexes))
    return (col, row)


class StateRenderer:
    """One off-screen window for one game and one set of view options; ``render`` draws a
    state with it.  Same steps as ``wif render`` (app/cli_render.py), so the pictures match."""

    def __init__(self, game, view: str = "detailed", global_view: str = "terrain", center=None, zoom: int = 5,
                 size: tuple[int, int] = (1280, 800), layout: str | None = None, layers: dict | None = None,
                 double: bool = False):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        from .play import GameWindow
        from .views import ScreenLayout, WindowGeometry

        if view not in ("detailed", "global", "window"):
            from kernel.errors import WifError

            raise WifError(f"view must be detailed, global or window, not {view!r}")
        pygame.font.init()
        self.view = StateView(game)
        self.screen = pygame.Surface(size)
        if view == "window":
            self.window = GameWindow(self.view, screen=self.screen, layout=layout or "M1007")
        else:
            key = "detailed" if view == "detailed" else "global"
            w, h = size
            only = ScreenLayout(name=f"render {view}", screen=size, windows={key: WindowGeometry(x=0, y=0, w=w, h=h)})
            self.window = GameWindow(self.view, screen=self.screen, layout=only)
        self.fixed_centre = center
        self.tracker = StaticLayerTracker()
        dmap = self.window.primary
        if dmap is not None:
            dmap.set_zoom(zoom)
            if center is not None:
                dmap.center_on(self._resolve(center))
            for name, on in (layers or {}).items():
                dmap.layers[name] = on
        self.window.global_map.set_view(global_view)
        self.window.global_map.double = double

    def _resolve(self, center):
        if isinstance(center, str):
            from .cli_render import _centre

            if "," in center and center.replace(",", "").replace(" ", "").isdigit():
                col, row = (int(v) for v in center.split(","))
                return (col, row)
            return _centre(self.window, center)
        return tuple(center)

    def render(self, state, path, highlight=(), focus=None) -> Path:
        """Draw ``state`` to the PNG ``path``; outline ``highlight`` hexes; centre on
        ``focus`` (a hex) unless the renderer was given a fixed centre."""
        import pygame

        self.view.state = state
        self.tracker.update(state, self.window.detailed.values())
        dmap = self.window.primary
        if dmap is not None and focus is not None and self.fixed_centre is None:
            dmap.center_on(focus)
        self.window.draw()
        draw_highlights(self.window, list(highlight))
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(out))
        return out


_renderers: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def render_state_png(game, state, path, highlight=(), focus=None, **view_options) -> Path:
    """Draw ``state`` (of ``game``) to a PNG at ``path``.

    ``view_options`` are those of ``wif render``: view (detailed, global, window),
    global_view, center (a name or (col, row)), zoom, size, layout, layers, double.
    A renderer is kept per game and options, so a run of pictures loads the map once."""
    key = repr(sorted(view_options.items()))
    per_game = _renderers.setdefault(game, {})
    renderer = per_game.get(key)
    if renderer is None:
        renderer = per_game[key] = StateRenderer(game, **view_options)
    return renderer.render(state, path, highlight=highlight, focus=focus)
