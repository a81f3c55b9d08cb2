"""The convoys view of the global map (seeds, "Global Map": "Up to 4 numbers may be shown in each
sea area.  They represent (for the current filter): The number of convoys in the sea area.  The
number of surface ships (including carriers).  The number of submarines.  The number of land
based air units in the sea area"; "the ships at sea for individual major powers, all major
powers on a side, or all major powers on both sides").  Ships at sea stand in sea-area boxes,
on no hex: the window reads them through the naval rules' hook ``sea_area_counts``."""

from __future__ import annotations

import pygame
import pytest

from app.globalmap import CONVOY_SEA
from app.play import GameWindow
from app.uihooks import ask_game
from kernel.game import Game
from test_find_review_supply import click, pump


@pytest.fixture
def guadalcanal_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    g = Game.new("guadalcanal", tmp_path / "g.wif", seed=3)
    window = GameWindow(g, screen=pygame.display.set_mode((1920, 1200)), forms=True)
    window.draw()
    yield g, window
    pygame.quit()
    g.close()


def real_convoy_points(g) -> dict[str, dict[str, int]]:
    """Per sea area and side, the convoy points at sea, read from the units in play."""
    out: dict[str, dict[str, int]] = {}
    for uid, box in g.state["naval"].at_sea.items():
        u = g.state["units"].units[uid]
        if u.type == "convoy" and u.where == "map":
            side = g.state.kernel.side_of(u.power)
            out.setdefault(box.area, {}).setdefault(side, 0)
            out[box.area][side] += u.factors["points"]
    return out


def test_the_convoys_view_shows_the_real_convoy_points_per_sea_area_and_filter(guadalcanal_window):
    g, window = guadalcanal_window
    real = real_convoy_points(g)
    assert real, "Guadalcanal starts with convoys at sea"
    panel = window.panels["global"]
    panel.geometry.rolled = False
    window.draw()
    buttons = dict(window._global_toolbar(panel))
    pump(window, *click(buttons["convoys"].center))
    gm = window.global_map
    assert gm.view == "convoys" and gm.filter == "all"
    counts = gm.sea_counts()
    for area, sides in real.items():
        assert counts[area][0] == sum(sides.values()), area
    # the hook answers per power: surface ships, submarines and aircraft add up to what is at sea
    answer = ask_game(g, "sea_area_counts", state=g.state)
    at_sea = g.state["naval"].at_sea
    assert sum(n["surface"] + n["subs"] + n["air"] for area in answer.values() for n in area["powers"].values()) == \
        sum(1 for uid in at_sea if g.state["units"].units[uid].type != "convoy")
    # a sea area with convoy points is drawn lighter: "where convoy pipelines exist"
    image = gm.image()
    area = next(iter(real))
    hexes = [(c, r) for r, row in enumerate(window.model.sea_grid) for c, code in enumerate(row)
             if code == area and window.model.terrain_grid[r][c] == "sea"]
    s = gm.scale
    drawn = [tuple(image.get_at((c * s + (r & 1) * (s // 2), r * s)))[:3] for c, r in hexes]
    assert drawn.count(CONVOY_SEA) > len(hexes) // 2  # (the numbers' cells cover a few)
    # the view's button again: the next filter, a side, and then each major power
    seen = []
    for _ in range(len(gm.filters())):
        pump(window, *click(buttons["convoys"].center))
        seen.append(gm.filter)
        assert gm.view == "convoys" and (gm.filter == "all" or gm.filter in gm.caption())
        counts = gm.sea_counts()
        for area, sides in real.items():
            if gm.filter == "all":
                shown = sum(sides.values())
            elif gm.filter in g.state.kernel.sides:
                shown = sides.get(gm.filter, 0)
            else:
                shown = _power_points(g, area, gm.filter)
            assert counts.get(area, (0,))[0] == shown, (gm.filter, area)
    assert seen[-1] == "all" and set(g.state.kernel.sides) <= set(seen)
    window.draw()


def _power_points(g, area: str, power: str) -> int:
    return sum(g.state["units"].units[u].factors.get("points", 0) for u, box in g.state["naval"].at_sea.items()
               if box.area == area and g.state["units"].units[u].power == power)


def test_a_power_filter_counts_that_powers_ships_alone(guadalcanal_window):
    g, window = guadalcanal_window
    gm = window.global_map
    gm.set_view("convoys")
    answer = ask_game(g, "sea_area_counts", state=g.state)
    power = next(p for area in answer.values() for p in area["powers"])
    gm.filter = power
    for code, numbers in gm.sea_counts().items():
        mine = answer[code]["powers"].get(power)
        assert mine is not None and numbers == (mine["convoy_points"], mine["surface"], mine["subs"], mine["air"])
