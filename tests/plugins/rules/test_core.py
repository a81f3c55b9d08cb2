"""Core WiF state: control of countries and hexes, war, weather, actions — built in the lab."""

from helpers import control, lab_game
from kernel.game import Game
from plugins.rules import core


def test_lab_builds_a_situation_from_options_and_replays_it(save):
    options = {
        "units": [{"id": "g1", "power": "germany", "branch": "land", "type": "inf",
                   "factors": {"combat": 4, "move": 3}, "hex": [200, 40]}],
        "hex_control": {"200,40": "germany"},
        "weather": {"3": "rain"},
        "actions": {"germany": "land"},
        "start_at": "turn.impulse.land.movement.land-movement",
    }
    game = Game.new("lab", save, seed=1, options=options)
    state = game.state
    assert core.enemies(state, "ussr", "germany")
    assert core.hex_controller(state, (200, 40)) == "germany"
    assert core.action_of(state, "germany") == "land"
    assert core.world(state).weather["3"] == "rain"
    assert state["units"].in_hex((200, 40))[0].id == "g1"
    assert state.kernel.active_side == "axis"
    assert state.kernel.turn == 1 and state.kernel.impulse == 1
    before = state.to_json()
    game.close()
    with Game.open(save) as again:
        assert again.state.to_json() == before


def test_hex_control_marker_disappears_when_the_owner_takes_it_back(save):
    game = lab_game(save, options={"hex_control": {"200,40": "germany"}})
    owner = core.country_controller(game.state, core.world_map().country_code((200, 40)))
    control(game, (200, 40), owner)  # RigHexControl: HexControlChanged to the country's owner
    assert "200,40" not in core.world(game.state).hex_control
    game.close()


def test_lab_sets_the_last_turn_and_the_calendar_when_the_turn_plugin_is_loaded(save):
    game = Game.new("lab", save, seed=1, options={"last_turn": 3, "calendar": [1942, "jul-aug"]},
                    extra_plugins=["turn"])
    assert core.world(game.state).last_turn == 3
    from plugins.rules.turn import date_name

    assert "1942" in date_name(game.state)
    game.close()


def test_a_control_change_reports_its_hex_for_replay_and_redraw(save):
    from kernel.replay import Replay

    game = Game.new("lab", save, seed=1, options={"hex_control": {"200,40": "germany"}})
    change = [e for e in game.history() if e.type == "HexControlChanged"][0]
    assert Replay(game).touched_hexes(change) == [(200, 40)]
    game.close()
