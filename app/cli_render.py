"""``wif render``: draw the detailed map, the global map or the whole window to a PNG without
a display, through the same ``GameWindow`` code the game window uses."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from kernel.errors import WifError


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise WifError(f"--size expects WIDTHxHEIGHT (e.g. 1280x800), got {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise WifError(f"--size {text}: width and height must be 64..8192")
    return w, h


def open_game(path_or_scenario: str, tmp: Path):
    from kernel.game import Game

    path = Path(path_or_scenario)
    if path.suffix == ".wif" or path.exists():
        if not path.exists():
            raise WifError(f"{path}: no such save")
        return Game.open(path, read_only=True)
    return Game.new(path_or_scenario, tmp / "render.wif", seed=1)


def render(path_or_scenario: str, out: str, view: str = "detailed", global_view: str = "terrain",
           center: str | None = None, zoom: int = 5, size: tuple[int, int] = (1280, 800), layout: str | None = None,
           layers: dict[str, bool] | None = None, double: bool = False) -> Path:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from .play import TITLE_H, GameWindow
    from .views import ScreenLayout, WindowGeometry

    pygame.font.init()
    with tempfile.TemporaryDirectory() as tmp:
        game = open_game(path_or_scenario, Path(tmp))
        try:
            w, h = size
            if view == "window":
                screen = pygame.Surface(size)
                window = GameWindow(game, screen=screen, layout=layout or "M1007")
            else:
                key = "detailed" if view == "detailed" else "global"
                # one window filling the picture, title bar included, as the window shows it
                screen = pygame.Surface(size)
                only = ScreenLayout(name=f"render {view}", screen=size,
                                    windows={key: WindowGeometry(x=0, y=0, w=w, h=h)})
                window = GameWindow(game, screen=screen, layout=only)
            if view == "global":
                # the rectangle of the detailed map the window would link (M1007's map area)
                layout = window.layouts.get("M1007") if "M1007" in window.layouts.names() else None
                area = layout.windows["detailed"] if layout is not None and "detailed" in layout.windows else None
                window.link_detailed((area.w, area.h - TITLE_H) if area else (1024, 672), zoom)
            dmap = window.primary
            if dmap is not None:
                dmap.set_zoom(zoom)
                if center:
                    dmap.center_on(_centre(window, center))
                for name, on in (layers or {}).items():
                    dmap.layers[name] = on
            window.global_map.set_view(global_view)
            window.global_map.double = double
            window.draw()
            for text, _ in window.messages:
                print(f"note: {text}", file=sys.stderr)
            out_path = Path(out)
            out_path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(screen, str(out_path))
            return out_path
        finally:
            game.close()


def _centre(window, center: str):
    try:
        label, hexes = window.model.world.resolve(center)
    except KeyError as exc:
        raise WifError(str(exc.args[0])) from None
    if len(hexes) == 1:
        return hexes[0]
    area = window.model.world.sea_area(center)
    return window.model.sea_label_hex.get(area.code, hexes[0]) if area else hexes[0]


def cmd_render(args) -> int:
    from .detailed import ALL_LAYERS
    from .globalmap import VIEWS

    if args.global_view not in VIEWS:
        raise WifError(f"--global-view must be one of {', '.join(VIEWS)}")
    layers = {}
    for name in args.layer or []:
        on = not name.startswith("-")
        name = name.lstrip("+-")
        if name not in ALL_LAYERS:
            raise WifError(f"--layer {name!r}: choose from {', '.join(ALL_LAYERS)} (prefix - to turn off)")
        layers[name] = on
    out = render(args.source, args.out, view=args.view, global_view=args.global_view, center=args.center,
                 zoom=args.zoom, size=_size(args.size), layout=args.layout, layers=layers, double=args.double)
    print(f"{out}: {args.view} map written")
    return 0


def add_render_commands(sub) -> None:
    p = sub.add_parser("render", help="draw the map to a PNG without a window")
    p.add_argument("source", metavar="PATH_OR_SCENARIO", help="a save (*.wif) or a scenario id")
    p.add_argument("--view", choices=("detailed", "global", "window"), default="detailed")
    p.add_argument("--global-view", default="terrain", help="terrain, weather, control, units, markers, convoys, production")
    p.add_argument("--double", action="store_true", help="global map at double size (sea-area names)")
    p.add_argument("--center", help="a city, port or sea area name, or COL,ROW")
    p.add_argument("--zoom", type=int, default=5, choices=range(1, 9), metavar="1-8")
    p.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT in pixels")
    p.add_argument("--layout", help="--view window: the screen layout to draw (default M1007)")
    p.add_argument("--layer", action="append", metavar="[-]NAME", help="turn a layer on (or off with -NAME)")
    p.add_argument("--out", required=True, help="the PNG to write")
    p.set_defaults(func=cmd_render)
