"""Default screen layouts (seeds, "Screen Layouts").

M1007 (1024x768): the main form top left, the detailed map below it, the layouts list and
map views list to the right of the main form; other forms overlay the map (rolled up or
hidden).  Wider monitors move the main form right to leave room for the selectable units
in the top-left corner, run the detailed map the full width, and very large ones put the
global map and units in hex on the right.  M2510 is two 1280x1024 monitors: the largest
detailed map on the primary, the other forms (and a second detailed map) on the secondary.

"play" (the Play form, where decisions are made), "selectable" (Selectable Units, which
the seeds keep vertical) and "setup_tray" are forms over the map: the layout stores where
they open.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl

TOP = 96  # height of the strip holding the main form and the lists
GLOBAL = (720, 390 + 48)  # single-size global map plus its title bar and view buttons
PLAY_W = 330  # the Play form's width (app/playforms.py)


def _w(x, y, w, h, visible=True, rolled=False):
    return {"x": x, "y": y, "w": w, "h": h, "visible": visible, "rolled": rolled}


def single(name: str, sw: int, sh: int) -> dict:
    if sw <= 1024:
        return {
            "main": _w(0, 0, 560, TOP), "layouts": _w(560, 0, 200, TOP), "mapviews": _w(760, 0, 264, TOP),
            "detailed": _w(0, TOP, sw, sh - TOP),
            "global": _w(sw - GLOBAL[0], TOP, GLOBAL[0], GLOBAL[1], rolled=True),
            "legend": _w(sw - 220, TOP + GLOBAL[1], 220, 230, visible=False),
            "sequence": _w(0, sh - 200, 300, 200, visible=False),
            "units_in_hex": _w(0, sh - 110, 560, 110, rolled=True),
            "selectable": _w(0, TOP, 230, 330),
            "play": _w(sw - PLAY_W, TOP + 4, PLAY_W, min(560, sh - TOP - 14)),
            "setup_tray": _w(0, sh - 240, sw - PLAY_W, 240),  # seeds: small, at the bottom
        }
    left = 220  # room for the selectable units form in the top-left corner
    wide = sw >= 1900
    windows = {
        "selectable": _w(0, TOP, left + 10, min(480, sh - TOP - 160)),
        "main": _w(left, 0, 620, TOP), "layouts": _w(left + 620, 0, 200, TOP),
        "mapviews": _w(left + 820, 0, sw - left - 820, TOP),
        "detailed": _w(0, TOP, sw - (GLOBAL[0] if wide else 0), sh - TOP),
        "global": _w(sw - GLOBAL[0], TOP, GLOBAL[0], GLOBAL[1], rolled=not wide),
        "legend": _w(sw - 240, TOP + GLOBAL[1], 240, 240, visible=wide),
        "units_in_hex": _w(sw - GLOBAL[0], sh - 150, GLOBAL[0] if wide else 600, 150, rolled=not wide),
        "sequence": _w(sw - GLOBAL[0], TOP + GLOBAL[1], GLOBAL[0] - 240, 240, visible=wide),
        # wide screens: the Play form beside the legend, under the global map; else top right
        "play": (_w(sw - GLOBAL[0] - PLAY_W, TOP + 4, PLAY_W, min(640, sh - TOP - 160)) if wide
                 else _w(sw - PLAY_W, TOP + 4, PLAY_W, min(600, sh - TOP - 14))),
        "setup_tray": _w(0, sh - 260, min(900, sw - PLAY_W), 260),
    }
    return windows


def dual() -> dict:
    # primary monitor 0..1279: the big detailed map; secondary 1280..2559: everything else
    p = 1280
    return {
        "detailed": _w(0, 0, 1280, 1024),
        "main": _w(p, 0, 620, TOP), "layouts": _w(p + 620, 0, 200, TOP), "mapviews": _w(p + 820, 0, 460, TOP),
        "global": _w(p, TOP, GLOBAL[0], GLOBAL[1]),
        "legend": _w(p + GLOBAL[0], TOP, 560 - 240, 240),
        "sequence": _w(p + GLOBAL[0], TOP + 240, 560 - 240, 200),
        "detailed-2": _w(p, TOP + GLOBAL[1], 1280, 1024 - TOP - GLOBAL[1] - 150),
        "units_in_hex": _w(p, 1024 - 150, 1280 - 240, 150),
        "selectable": _w(p + 1280 - 240, 1024 - 150 - 330, 240, 330),
        # seeds: the secondary monitor holds the popup forms; the Play form beside selectable units
        "play": _w(p + 1280 - 240 - PLAY_W, TOP + GLOBAL[1], PLAY_W, 1024 - TOP - GLOBAL[1] - 150),
        "setup_tray": _w(0, 0, 1280, 240),  # seeds: on the primary, above the detailed map
    }


SINGLE = {"M1007": (1024, 768), "M1210": (1280, 1024), "M1610": (1680, 1024), "M1612": (1680, 1200),
          "M1912": (1920, 1200)}


@hookimpl
def register_layouts(register):
    from app.views import ScreenLayout

    for name, (sw, sh) in SINGLE.items():
        register(ScreenLayout(name=name, screen=(sw, sh), windows=single(name, sw, sh),
                              description=f"one {sw}x{sh} monitor"))
    register(ScreenLayout(name="M2510", screen=(2560, 1024), windows=dual(),
                          description="two 1280x1024 monitors side by side"))
    # seeds, "New Game.SLY": one per scenario, the layout a new game of it starts with
    for scenario in ("barbarossa", "render_demo"):
        register(ScreenLayout(name=f"New Game ({scenario})", screen=(1024, 768), windows=single("M1007", 1024, 768),
                              scenario=scenario, description=f"the layout a new game of {scenario} opens with"))
