"""Over-Stacked Hex, aircraft unit limits: "Minor port hex: 2 / Major port or city hex: 3 /
Mountain, desert mountain, or swamp hex: 0 / Any other hex: 1 / Hex with HQ: +1"; "If several
limits apply ... the highest of them applies"; "Each ENG (even if it is disorganized) increases
the aircraft stacking limit of a hex by 1".  Built with the rig in the lab scenario."""

from __future__ import annotations

import helpers
from helpers import unit
from plugins.rules import core
from plugins.rules.land.movement import air_limit, stacking_problems

CLEAR = (205, 52)  # clear, no city
SWAMP = (204, 54)  # Pripet marshes (Poland, North temperate zone)
MINSK = (207, 51)  # a city


def _game(save, *counters):
    game = helpers.lab_game(save, options={"countries": {"GE": "germany", "SU": "ussr", "PL": "germany"}},
                            extra_plugins=["land"])
    if counters:
        helpers.place(game, *counters)
    return game


def _air(i, hex_):
    return {"id": f"a{i}", "power": "germany", "branch": "air", "type": "ftr", "hex": list(hex_)}


def test_over_stacked_hex_aircraft_limit_by_terrain_city_and_hq(save):
    game = _game(save)
    assert air_limit(game.state, CLEAR) == 1
    assert air_limit(game.state, SWAMP) == 0
    assert air_limit(game.state, MINSK) == 3
    helpers.place(game, unit("hq", hex_=SWAMP, type_="hq-i"))
    assert air_limit(game.state, SWAMP) == 1  # "Hex with HQ: +1"
    game.close()


def test_over_stacked_hex_each_engineer_even_disorganized_adds_one_aircraft(save):
    game = _game(save, _air(1, CLEAR), _air(2, CLEAR), _air(3, CLEAR))
    assert any("at most 1 aircraft" in p for p in stacking_problems(game.state, CLEAR))
    helpers.place(game, unit("e1", hex_=CLEAR, type_="eng", size="division"),
                  unit("e2", hex_=CLEAR, type_="eng", size="division", face_up=False))
    assert air_limit(game.state, CLEAR) == 3
    assert stacking_problems(game.state, CLEAR) == []
    game.close()


def test_over_stacked_hex_a_swamp_in_snow_is_forest_for_aircraft(save):
    game = _game(save)
    helpers.weather(game, core.world_map().weather_zone(SWAMP), "snow")
    assert air_limit(game.state, SWAMP) == 1  # Weather Report: "Swamp hexes are treated as forest in snow"
    game.close()
