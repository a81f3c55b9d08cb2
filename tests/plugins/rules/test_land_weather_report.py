"""Weather Report, effects on terrain: "Lake hexes are frozen in snow or blizzard ... Land and
aircraft units on a lake hex when it unfreezes are destroyed immediately."  Built with the rig."""

from __future__ import annotations

import helpers
from helpers import unit
from plugins.rules import core
from plugins.rules.land import thawed_lake_losses
from plugins.rules.land.movement import hex_cost

LAKE = (205, 38)  # a lake hex of the North temperate zone (2), east of Lake Peipus
ZONE = 2


def _game(save):
    game = helpers.lab_game(save, options={"countries": {"GE": "germany", "SU": "ussr", "ES": "ussr"}},
                            extra_plugins=["land", "turn"])
    helpers.weather(game, ZONE, "snow")
    helpers.place(game, unit("g1", hex_=LAKE),
                  {"id": "ga", "power": "germany", "branch": "air", "type": "ftr", "hex": list(LAKE)},
                  unit("g2", hex_=(204, 38)))
    return game


def test_weather_report_a_frozen_lake_is_clear_and_units_on_it_stay(save):
    game = _game(save)
    assert core.world_map().terrain(LAKE) == "lake" and core.world_map().weather_zone(LAKE) == ZONE
    assert hex_cost(game.state, LAKE) is not None  # frozen: treated as clear
    assert thawed_lake_losses(game.state) == {}
    game.close()


def test_weather_report_land_and_aircraft_units_on_a_lake_that_thaws_are_destroyed(save):
    game = _game(save)
    helpers.dice(game, 1, then_ordinary=True)
    helpers.go_to(game, "turn.impulse.new-impulse.weather", impulse=1)
    assert core.weather_in(game.state, LAKE) not in ("snow", "blizzard")  # June: the lake thaws
    units = game.state["units"].units
    assert units["g1"].where == "eliminated" and units["ga"].where == "eliminated"
    assert units["g2"].on_map  # beside the lake: untouched
    lost = [r for r in game.history(1) if r.type == "UnitsLostOnThawedLake"]
    assert len(lost) == 1 and lost[0].data["units"] == ["g1", "ga"]
    assert "thaws" in game.describe(lost[0])
    game.close()
