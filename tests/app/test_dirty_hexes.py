"""Only what changed is redrawn (issue 4, "only what changed redrawn"): after a command's
events the window drops the chunks that show a changed hex and keeps the rest.

Situation (lab scenario, as in test_playing): German armour in 206,51 may move into the
Soviet hex 207,51, which makes the land plugin emit HexControlChanged for it."""

from __future__ import annotations

import pygame
import pytest

from app import mapstyle
from app.dirty import map_changes
from app.play import GameWindow
from app.views import ScreenLayout, WindowGeometry

from helpers import ok
from test_playing import lab_game  # rootdir-relative import, as pytest puts tests/app on sys.path

TAKEN = (207, 51)
MAP_ONLY = ScreenLayout(name="map only", screen=(800, 600), windows={"detailed": WindowGeometry(x=0, y=0, w=800, h=600)})


@pytest.fixture
def map_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    games = []

    def make(game, **layers):
        games.append(game)
        window = GameWindow(game, screen=pygame.Surface((800, 600)), layout=MAP_ONLY)
        window.primary.layers.update(layers)
        window.primary.center_on(TAKEN)
        window.draw()
        return window

    yield make
    pygame.quit()
    for game in games:
        game.close()


def ring_pixel(window, hex_):
    """A pixel of the band just inside the hex's west side: the hex-control colour at zoom >= 4."""
    body = window.panels["detailed"].body
    x, y = window.primary.hex_to_screen(hex_)
    g = window.primary.geometry
    return tuple(window.screen.get_at((body.x + x - g.half_w + 1, body.y + y)))[:3]


def move_armour_into_soviet_hex(game):
    return ok(game, {"type": "MoveLandUnit", "actor": "germany", "unit": "g-arm", "to": list(TAKEN)})


def test_a_control_change_rebuilds_only_the_chunks_of_that_hex(map_window, tmp_path):
    game = lab_game(tmp_path / "c.wif")
    window = map_window(game, control=True, units=False, hexsides=False, labels=False, rail=False)
    dmap = window.primary
    for zoom in (3, 6):  # chunks cached at two zooms: both learn about the change
        dmap.set_zoom(zoom)
        window.draw()
    dmap.set_zoom(5)
    window.draw()
    cached = len(dmap._chunks)
    assert ring_pixel(window, TAKEN) == mapstyle.power_colour("ussr")
    before = dmap.chunks_built
    move_armour_into_soviet_hex(game)
    assert TAKEN in window.last_changes.static["control"]
    dropped = cached - len(dmap._chunks)
    assert 1 <= dropped <= 3 * 4  # at most 4 chunks per zoom hold one hex, for 3 cached zooms
    window.draw()
    rebuilt = dmap.chunks_built - before
    assert 1 <= rebuilt <= 4
    assert len(dmap._chunks) == cached - dropped + rebuilt
    assert ring_pixel(window, TAKEN) == mapstyle.power_colour("germany")
    # the controller grid was patched, not thrown away
    assert dmap._controller_grid[TAKEN[1]][TAKEN[0]] == "germany"


def test_without_the_control_layer_a_control_change_keeps_every_chunk(map_window, tmp_path):
    game = lab_game(tmp_path / "n.wif")
    window = map_window(game, control=False)
    dmap = window.primary
    cached = len(dmap._chunks)
    before = dmap.chunks_built
    move_armour_into_soviet_hex(game)
    window.draw()
    assert len(dmap._chunks) == cached and dmap.chunks_built == before


def test_unit_events_come_through_the_event_hexes_hook_and_keep_chunks(tmp_path):
    game = lab_game(tmp_path / "u.wif")
    try:
        from app.mapmodel import MapModel

        model = MapModel(game=game)
        before = game.state.kernel.seq
        move_armour_into_soviet_hex(game)
        records = game.history(before + 1)
        changes = map_changes(game, records, model)
        assert TAKEN in changes.units  # from the units plugin's event_hexes
        assert changes.static["control"] == {TAKEN}
        assert not changes.static["any"]
    finally:
        game.close()


def test_weather_change_dirties_the_hexes_of_its_zone(tmp_path):
    game = lab_game(tmp_path / "w.wif")
    try:
        from app.mapmodel import MapModel

        model = MapModel(game=game)
        zone = model.zone_grid[TAKEN[1]][TAKEN[0]]

        class Record:
            type = "WeatherSet"
            data = {"weather": {str(zone): "snow"}}

        changes = map_changes(game, [Record()], model)
        assert TAKEN in changes.static["weather"]
        assert len(changes.static["weather"]) == len(model.zone_hexes(zone))
        assert all(model.zone_grid[r][c] == zone for c, r in changes.static["weather"])
    finally:
        game.close()
