"""Issue 11 item 6 for the second scenario: the map opens on the deciding power's front.
Guadalcanal names its front through the ``scenario_front`` hook (app/uihooks.py, answered by
plugins/scenarios/guadalcanal/ui.py): the Solomons and New Guinea, not the middle of the
Pacific its units are spread over."""

from __future__ import annotations

import pygame
import pytest

from app.play import GameWindow
from kernel.game import Game
from kernel.worldmap import load_world_map
from test_playing import hex_pos


@pytest.fixture
def guadalcanal_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("guadalcanal", tmp_path / "g.wif", seed=1)
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        yield window
    finally:
        pygame.quit()
        game.close()


def test_guadalcanal_opens_on_the_solomons_and_new_guinea(guadalcanal_window):
    window = guadalcanal_window
    world, grid = load_world_map(), window.model.grid
    front = window.front_centre()
    for place in ("Rabaul", "Tulagi", "Port Moresby"):
        assert grid.distance(front, world.city(place).hex) <= 8, place
    # the map opened there: Rabaul and Tulagi are on the detailed map, under no form
    for place in ("Rabaul", "Tulagi"):
        at = hex_pos(window, world.city(place).hex)
        assert window.panels["detailed"].body.collidepoint(at), place
        for kind, form in window.play.forms().items():
            assert not form.visible_rect().collidepoint(at), (place, kind)
