"""The GUI driver and the sea boxes (plugins/mapviews/seaboxes): a sea area's box is drawn over
the hexes around its anchor and takes a click there, so the driver never aims a click at a hex
under a box (it would choose the box): such a hex is chosen on the Play form instead
(app/guidriver.py; the Guadalcanal run where the Tainan Kokutai at Rabaul lay under the Bismarck
Sea box)."""

from __future__ import annotations

import pygame
import pytest

from app.guiclicks import HEX_PROBES, hex_point, under_layer
from app.navalclicks import layer_hit
from app.play import GameWindow
from kernel.game import Game


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("guadalcanal", tmp_path / "g.wif", seed=1)  # Task Force 17 at sea: a Coral Sea box
    try:
        win = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        win.draw()
        yield win
    finally:
        pygame.quit()
        game.close()


def test_a_hex_under_a_sea_box_is_not_clicked_on_the_map(window):
    panel, dmap = window.panels["detailed"], window.primary
    body = panel.body
    under, clear = None, None
    for row in range(dmap.centre_hex[1] - 12, dmap.centre_hex[1] + 12):
        for col in range(dmap.centre_hex[0] - 15, dmap.centre_hex[0] + 15):
            sx, sy = dmap.hex_to_screen((col, row))
            at = (body.x + sx, body.y + sy)
            if not body.collidepoint(at) or window.gui.over_form(at) or window.panel_at(at) is not panel:
                continue
            g = dmap.geometry  # a hex the box covers wholly (every point the driver would try)
            if under is None and all(layer_hit(window, dmap, (sx + fx * g.w, sy + fy * g.h)) is not None
                                     for fx, fy in HEX_PROBES):
                under = (col, row)
            elif layer_hit(window, dmap, (sx, sy)) is None and clear is None:
                clear = (col, row)
    assert under is not None, "no hex under a sea box on screen"
    assert hex_point(window, under) is None  # no point of it a click would give the hex
    assert under_layer(window, under)  # so the driver chooses it on the form
    assert clear is not None and not under_layer(window, clear) and hex_point(window, clear) is not None
