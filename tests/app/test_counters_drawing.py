"""Counters are drawn from a per-stack sprite list sliced by column (app/detailed.py):
they land on their hexes on both sides of the date line, at every zoom, and move when the
units do."""

from __future__ import annotations

import pygame
import pytest

from app import mapstyle
from app.play import GameWindow
from app.views import ScreenLayout, WindowGeometry
from kernel.game import Game

from helpers import unit

# Chukotka (358-359) and Alaska (0-1) on row 28: land hexes on both sides of the date line
WEST, EAST = (358, 28), (1, 28)
MAP_ONLY = ScreenLayout(name="map only", screen=(640, 400), windows={"detailed": WindowGeometry(x=0, y=0, w=640, h=400)})


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("lab", tmp_path / "d.wif", seed=1, options={
        "units": [unit("ussr-1", "ussr", WEST), unit("usa-1", "usa", EAST)]})
    win = GameWindow(game, screen=pygame.Surface((640, 400)), layout=MAP_ONLY)
    yield win
    pygame.quit()
    game.close()


def counter_corner(window, hex_):
    dmap = window.primary
    body = window.panels["detailed"].body
    sx, sy = dmap.hex_to_screen(hex_)
    size = dmap.geometry.counter
    left, top = sx - size // 2, sy - size // 2
    # just inside the bottom-left corner: clear of the border, the symbol and the factors
    return tuple(window.screen.get_at((body.x + left + 1, body.y + top + size - 2)))[:3]


@pytest.mark.parametrize("zoom", [3, 6, 8])
@pytest.mark.parametrize("centre", [(0, 28), (359, 28), (358, 28), (2, 28)])
def test_counters_on_both_sides_of_the_date_line(window, zoom, centre):
    dmap = window.primary
    dmap.set_zoom(zoom)
    dmap.center_on(centre)
    window.draw()
    assert counter_corner(window, WEST) == mapstyle.power_colour("ussr")
    assert counter_corner(window, EAST) == mapstyle.power_colour("usa")


def test_a_moved_unit_is_drawn_at_its_new_hex(window):
    dmap = window.primary
    dmap.set_zoom(6)
    dmap.center_on((0, 28))
    window.draw()
    units = window.game.state["units"]
    units.units["usa-1"].hex = (0, 28)  # as a reducer would; the stacks follow the state's seq
    units.at_hex.setdefault("0,28", []).append("usa-1")
    units.at_hex["1,28"].remove("usa-1")
    window.game.state.kernel.seq += 1
    window.draw()
    assert counter_corner(window, (0, 28)) == mapstyle.power_colour("usa")
    assert counter_corner(window, EAST) != mapstyle.power_colour("usa")


def test_prefetch_builds_chunks_next_to_the_view_only_while_the_frame_has_time(window):
    import time

    dmap = window.primary
    dmap.set_zoom(4)
    dmap.center_on((100, 60))
    window.draw()
    built = dmap.chunks_built
    assert dmap.prefetch(4, deadline=time.perf_counter() - 1) == 0  # no time left: nothing
    assert dmap.chunks_built == built
    dmap._build_seconds[4] = 10.0  # a zoom whose chunks have been slow still gets its ring
    assert dmap.prefetch(1, deadline=time.perf_counter() + 60) == 1
    assert dmap.prefetch(4) == 4  # without a deadline: up to the limit
    # the ring is then ready: panning one chunk east draws without building
    g = dmap.geometry
    while dmap.prefetch(8):
        pass
    before = dmap.chunks_built
    dmap.scroll_pixels(g.chunk_cols * g.w // 2, 0)
    window.draw()
    assert dmap.chunks_built == before
