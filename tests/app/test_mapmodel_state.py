"""The map reads hex control and weather from a WiF game's core state."""

from app.mapmodel import MapModel
from kernel.game import Game
from plugins.rules import core


def test_hex_control_and_weather_come_from_the_core_state(save):
    world = core.world_map()
    warsaw = world.city("Warsaw").hex
    minsk = world.city("Minsk").hex
    zone = world.weather_zone(minsk)
    game = Game.new("lab", save, seed=1, options={
        "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
        "hex_control": {f"{minsk[0]},{minsk[1]}": "germany"},
        "weather": {str(zone): "snow"},
    })
    model = MapModel(world, game)
    assert model.controller(warsaw) == "germany"  # Poland is German-controlled in this game
    assert model.controller(minsk) == "germany"  # a control marker on a Soviet hex
    assert model.controller(world.city("Moscow").hex) == "ussr"
    assert model.controller(world.city("Madrid").hex) == "neutral"
    assert model.weather(zone) == "snow"
    grid = model.controller_grid()
    assert grid[minsk[1]][minsk[0]] == "germany" and grid[warsaw[1]][warsaw[0]] == "germany"
    game.close()
