"""The supply layer's path for a unit that traces supply overseas (seeds, "Supply Sources and
Paths", "Overseas supply paths": "From the coastal hex or port, you trace the supply path via any
number of consecutive sea areas to a friendly controlled port ... You may only trace supply
overseas once for each unit").  On Guadalcanal's opening position: Japan's garrison of Guam
traces by sea to a Japanese home port; a unit inland of Lae goes over land to Lae first; a unit
next to Rabaul traces to the 17th Army HQ there, whose own chain goes on by sea.  The window
draws the sea leg as one dashed line, port to port (app/supplylayer.py), driven by real posted pygame events."""

from __future__ import annotations

import pygame
import pytest

from app.play import GameWindow
from app.supplylayer import PATH, SEA_PATH
from app.toolforms import supply_layer
from app.uihooks import ask_game
from kernel.hexgrid import WORLD
from plugins.rules.core import world_map

from helpers import lab_game, rig, unit
from test_find_review_supply import click, colours_near, ctrl, hex_pos
from test_playing import pump

GUAM = tuple(world_map().port("Guam").hex)
LAE = tuple(world_map().port("Lae").hex)
RABAUL = tuple(world_map().port("Rabaul").hex)
INLAND_OF_LAE, NEXT_TO_RABAUL = (325, 128), (331, 126)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = lab_game(tmp_path_factory.mktemp("g") / "g.wif", "guadalcanal", seed=3)
    rig(g, "RigUnit", unit=unit("jp-inland", "japan", INLAND_OF_LAE), actor="japan")
    rig(g, "RigUnit", unit=unit("jp-rabaul", "japan", NEXT_TO_RABAUL), actor="japan")
    yield g
    g.close()


def path_of(game, unit_id):
    return ask_game(game, "supply_path", state=game.state, unit_id=unit_id)


def is_port(hex_) -> bool:
    city = world_map().city_at(tuple(hex_))
    return city is not None and bool(city.port)


def japanese_primaries(game) -> set:
    status = ask_game(game, "supply_status", state=game.state, power="japan")
    return {tuple(s["hex"]) for s in status["sources"] if s["kind"] == "primary"}


def test_overseas_supply_path_of_an_island_garrison_goes_by_sea_to_a_home_port(game):
    answer = path_of(game, "jp-ichiki")
    path = [tuple(h) for h in answer["path"]]
    assert answer["in_supply"] and path[0] == GUAM
    # no longer "supplied by Guam": the source is a Japanese city the path reaches
    assert answer["source"]["kind"] == "primary" and tuple(answer["source"]["hex"]) in japanese_primaries(game)
    assert tuple(answer["source"]["hex"]) == path[-1] != GUAM
    # one sea leg, from Guam's port to the port it lands in, hex by adjacent hex
    (leaves, lands), = answer["sea"]
    assert path[leaves] == GUAM and is_port(path[lands]) and lands == len(path) - 1
    assert all(WORLD.distance(a, b) == 1 for a, b in zip(path, path[1:]))


def test_overseas_supply_path_goes_over_land_to_the_port_first(game):
    answer = path_of(game, "jp-inland")
    path = [tuple(h) for h in answer["path"]]
    assert answer["in_supply"] and path[:2] == [INLAND_OF_LAE, LAE]
    (leaves, lands), = answer["sea"]
    assert leaves == 1 and is_port(path[lands])
    assert tuple(answer["source"]["hex"]) == path[-1] and path[-1] in japanese_primaries(game)


def test_overseas_supply_once_for_each_unit_through_a_secondary_source(game):
    """The unit's leg to the 17th Army HQ at Rabaul stays on land; the HQ's railway path goes
    overseas: one sea leg in the whole chain."""
    answer = path_of(game, "jp-rabaul")
    path = [tuple(h) for h in answer["path"]]
    assert answer["source"]["kind"] == "secondary" and tuple(answer["source"]["hex"]) == RABAUL
    assert path[:2] == [NEXT_TO_RABAUL, RABAUL]
    (leaves, lands), = answer["sea"]
    assert path[leaves] == RABAUL and path[-1] in japanese_primaries(game)


def test_the_supply_layer_draws_the_sea_leg_of_a_selected_island_garrison(game, tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    try:
        window = GameWindow(game, forms=True)
        window.primary.center_on(GUAM)
        window.draw()
        pump(window, ctrl(pygame.K_s))
        assert supply_layer(window).visible
        pump(window, *click(hex_pos(window, GUAM)))
        assert "jp-ichiki" in window.primary.selection.units
        answer = path_of(game, "jp-ichiki")
        (leaves, lands), = answer["sea"]
        # one dashed straight line from Guam to the landing port, not the hex-by-hex path
        a, b = hex_pos(window, tuple(answer["path"][leaves])), hex_pos(window, tuple(answer["path"][lands]))
        along = [colours_near(window, (a[0] + (b[0] - a[0]) * n // 20, a[1] + (b[1] - a[1]) * n // 20), 1)
                 for n in range(3, 18)]
        assert sum(SEA_PATH in near for near in along) >= 5 and not any(PATH in near for near in along)
    finally:
        pygame.quit()
