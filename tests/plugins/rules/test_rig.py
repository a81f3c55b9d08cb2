"""The rig plugins (plugins/rules/rig, plugins/rules/rig-turn): lab games of any scenario
built by rig commands, refused in a normal game.  Usage: docs/MODDING.md "Building any
situation: the rig"."""

from __future__ import annotations

import pytest

import helpers
from helpers import control, lab_game, offered, place, refused, rig, types, unit
from kernel.game import Game
from kernel.verify import verify
from plugins.rules import core

LAND = "turn.impulse.land.movement.land-movement"


def lab(save, extra_plugins=("land",), **options):
    return lab_game(save, options={"start_at": LAND, "actions": {"germany": "land"}, **options},
                    extra_plugins=list(extra_plugins))


# ---------------------------------------------------------------- refused in a normal game
def test_rig_commands_are_refused_in_a_normal_game_that_loads_the_rig(save):
    game = Game.new("lab", save, seed=1, options={"start_at": LAND}, extra_plugins=["land", "rig", "rig-turn"])
    for cmd in ({"type": "RigUnit", "actor": "germany", "unit": unit("g1")},
                {"type": "RigHexControl", "actor": "germany", "hex": [205, 52], "power": "germany"},
                {"type": "RigWeather", "actor": "germany", "zone": "2", "weather": "snow"},
                {"type": "RigInitiative", "actor": "germany", "side": "allies"},
                {"type": "RigCalendar", "actor": "germany", "year": 1942, "bimonth": "jan-feb"}):
        refused(game, cmd, cmd["type"], "lab games only")
        assert game.preview(cmd)["legal"] is False
    assert not [c for c in offered(game) if c.type.startswith("Rig")]
    game.close()


def test_a_normal_game_without_the_rig_does_not_know_its_commands(save):
    game = Game.new("lab", save, seed=1, options={"start_at": LAND}, extra_plugins=["land"])
    refused(game, {"type": "RigUnit", "actor": "germany", "unit": unit("g1")}, "unknown command 'RigUnit'")
    game.close()


# ---------------------------------------------------------------- RigUnit
def test_rig_unit_places_a_counter_with_half_factors(save):
    game = lab(save)
    events = place(game, unit("g-div", combat=1.5, move=0.5, size="division"), unit("g1", hex_=(205, 52)))
    assert types(events) == ["UnitCreated", "UnitCreated"]
    div = game.state["units"].units["g-div"]
    assert div.factors == {"combat": 1.5, "move": 0.5} and div.hex == (204, 52)
    game.close()
    again = Game.open(save)  # the halves survive the log
    assert again.state["units"].units["g-div"].factors == {"combat": 1.5, "move": 0.5}
    again.close()
    report = verify(save)
    assert report.ok and report.lab


def test_half_factors_count_in_the_land_combat_odds(save):
    """Land Combat: "add up the attacking units' (modified) combat factors ... Round the total
    to the nearest whole number (rounding 0.5 up)" (L2313): halves add up before rounding."""
    from plugins.rules.combat import odds_preview

    game = lab_game(save, options={"start_at": "turn.impulse.land.combat.land-combat-declaration",
                                   "actions": {"germany": "land"}, "countries": {"GE": "germany", "SU": "ussr",
                                                                                  "PL": "germany"}},
                    extra_plugins=["combat"])
    place(game, unit("g1", hex_=(206, 52), combat=1.5, size="division"),
          unit("g2", hex_=(206, 51), combat=1.5, size="division"), unit("s1", "ussr", (207, 52), combat=1))
    assert odds_preview(game.state, ["g1"], (207, 52))["attack"] == 2  # 1.5 rounds up
    assert odds_preview(game.state, ["g1", "g2"], (207, 52))["attack"] == 3  # 1.5 + 1.5, not 2 + 2
    game.close()


def test_rig_unit_moves_refaces_and_refactors_a_counter_in_play(save):
    game = lab(save, units=[unit("g1")])
    events = place(game, unit("g1", hex_=(205, 52), combat=2.5, face_up=False))
    assert types(events) == ["UnitMoved", "UnitFactorsChanged", "UnitFlipped"]
    g1 = game.state["units"].units["g1"]
    assert (g1.hex, g1.factors["combat"], g1.face_up) == ((205, 52), 2.5, False)
    assert game.state["units"].at_hex == {"205,52": ["g1"]}
    refused(game, {"type": "RigUnit", "actor": "germany", "unit": unit("g1", type_="arm")},
            "RigUnit", "'g1' exists as a germany land inf")
    game.close()


@pytest.mark.parametrize("counter, words", [
    (unit("g1", power="italy"), "'italy' is not a power"),
    (unit("g1", hex_=(10, 500)), "not on the map"),
    (unit("g1", hex_=None), "has no hex"),
    (unit("g1", combat=-1), "negative factors"),
])
def test_rig_unit_bad_input_names_the_thing(save, counter, words):
    game = lab(save)
    refused(game, {"type": "RigUnit", "actor": "germany", "unit": counter}, "RigUnit", words)
    game.close()


# ---------------------------------------------------------------- control, conquest, war, weather, actions
def test_rig_hex_control_is_a_capture_this_turn(save):
    game = lab(save)
    here = (207, 52)  # a Soviet hex east of the Niemen
    control(game, here, "germany")
    assert core.hex_controller(game.state, here) == "germany"
    assert core.controllers_this_turn(game.state, here) == ["germany"]
    control(game, here, None)
    assert core.hex_controller(game.state, here) == "ussr"
    game.close()


def test_rig_country_control_conquest_and_war(save):
    game = lab(save)
    rig(game, "RigCountryControl", country="PL", power="germany")
    rig(game, "RigConquest", country="SU", conqueror="germany")
    assert core.country_controller(game.state, "PL") == "germany"
    assert core.conquered_by(game.state, "SU") == "germany"
    rig(game, "RigConquest", country="SU", conqueror=None)
    assert core.conquered_by(game.state, "SU") is None
    refused(game, {"type": "RigCountryControl", "actor": "germany", "country": "XX"}, "no country 'XX'")
    refused(game, {"type": "RigWar", "actor": "germany", "powers": ["germany", "germany"]}, "two different powers")
    game.close()


def test_rig_weather_and_action(save):
    game = lab(save)
    helpers.weather(game, 2, "blizzard")
    assert core.weather_in(game.state, (204, 52)) == "blizzard"  # zone 2, north temperate
    rig(game, "RigAction", power="germany", action="combined")
    assert core.action_of(game.state, "germany") == "combined"
    refused(game, {"type": "RigWeather", "actor": "germany", "zone": "99", "weather": "snow"}, "no weather zone '99'")
    refused(game, {"type": "RigWeather", "actor": "germany", "zone": "2", "weather": "hail"}, "'hail' is no weather")
    refused(game, {"type": "RigAction", "actor": "germany", "power": "germany", "action": "nap"}, "'nap' is no action")
    game.close()


# ---------------------------------------------------------------- rig-turn
def test_rig_initiative_calendar_and_activities(save):
    from plugins.rules.turn import date_name, track
    from plugins.rules.turn.activities import remaining

    game = lab(save)
    helpers.initiative(game, side="allies", track=-2)
    assert core.world(game.state).initiative == "allies" and track(game.state).initiative_track == -2
    helpers.go_to(game, LAND, turn=3)
    helpers.calendar(game, 1942, "nov-dec")
    assert date_name(game.state) == "Nov/Dec 1942"  # turn 3 is that date; turn 1 was Jul/Aug
    rig(game, "RigActivity", power="germany", kind="rail", count=2)
    assert core.used(game.state, "germany", "rail-move") == 2
    assert remaining(game.state, "germany")["rail-move"] is not None
    refused(game, {"type": "RigInitiative", "actor": "germany", "track": 5}, "runs from -2 to 2")
    refused(game, {"type": "RigCalendar", "actor": "germany", "year": 1942, "bimonth": "june"}, "'june'")
    refused(game, {"type": "RigActivity", "actor": "germany", "power": "germany", "kind": "swim"}, "'swim'")
    game.close()


def test_a_lab_game_without_the_turn_plugin_has_no_rig_turn(save):
    game = lab_game(save, options={"start_at": LAND})
    assert "rig" in game.host.infos and "turn" not in game.host.infos and "rig-turn" not in game.host.infos
    game.close()


# ---------------------------------------------------------------- any scenario, and the choices contract
def test_a_barbarossa_lab_game_is_rigged_like_any_other(save):
    game = lab_game(save, scenario="barbarossa")
    assert game.state.kernel.lab
    helpers.weather(game, 2, "snow")
    helpers.initiative(game, side="allies")
    helpers.dice(game, 4)
    assert game.state.kernel.dice_playback == [4]
    # every offered rig command is accepted (with the ordinary dice: a short playback list
    # refuses whatever rolls more dice than it holds, RigStep into a new turn among them)
    helpers.dice(game, None)
    for choice in [c for c in offered(game) if c.type.startswith("Rig")]:
        for cmd in choice.commands(limit=12):
            out = game.dry_run(cmd)
            assert out.accepted, (cmd, out.reason)
    game.close()
    assert verify(save).lab


def test_every_offered_rig_command_is_accepted_in_a_lab_game(save):
    game = lab(save, units=[unit("g1"), unit("s1", "ussr", (207, 52), combat=1.5)])
    offers = [c for c in offered(game) if c.type.startswith("Rig")]
    assert {c.type for c in offers} >= {"RigUnit", "RigHexControl", "RigCountryControl", "RigConquest", "RigWar",
                                        "RigWeather", "RigAction", "RigInitiative", "RigCalendar", "RigActivity",
                                        "RigDice", "RigStep"}
    for choice in offers:
        for cmd in choice.commands(limit=40):
            out = game.dry_run(cmd)
            assert out.accepted, (cmd, out.reason)
            assert game.preview(cmd)["legal"], cmd
    game.close()


# ---------------------------------------------------------------- RigEvent (kernel) and the last turn
def test_rig_event_records_any_plugins_event_as_given(save):
    game = lab(save)
    events = helpers.event(game, "LastTurnSet", turn=4)
    assert types(events) == ["LastTurnSet"] and core.world(game.state).last_turn == 4
    refused(game, {"type": "RigEvent", "actor": "germany", "event": "Exploded"}, "no plugin", "'Exploded'")
    refused(game, {"type": "RigEvent", "actor": "germany", "event": "LastTurnSet", "data": {"turn": "soon"}},
            "LastTurnSet data does not fit", "turn")
    refused(game, {"type": "RigEvent", "actor": "germany", "event": "StepStarted", "data": {"step": "x"}},
            "kernel's own event", "RigStep")
    helpers.calendar(game, last_turn=2)
    assert core.world(game.state).last_turn == 2
    refused(game, {"type": "RigCalendar", "actor": "germany", "year": 1942}, "both the year and the bimonth")
    game.close()


def test_rig_commands_are_offered_once_per_player_whichever_power_submits_them(save):
    game = lab(save, units=[unit("g1"), unit("s1", "ussr", (207, 52))])
    offers = [c for c in offered(game) if c.type.startswith("Rig")]
    assert offers and len({c.type for c in offers}) == len(offers)  # one player: once each
    # to the first power in the game's order (its sides as stored: the Allies' USSR here)
    assert {c.actor for c in offers} == {game.state.kernel.powers()[0]}
    rig(game, "RigWeather", actor="germany", zone="2", weather="snow")  # still accepted from any power
    game.close()
    two = lab_game(save.with_name("two.wif"), options={"start_at": LAND, "actions": {"germany": "land"}},
                   extra_plugins=["land"], players={"berlin": ["germany"], "moscow": ["ussr"]})
    for player, power in (("berlin", "germany"), ("moscow", "ussr")):
        mine = [c for c in offered(two, player=player) if c.type.startswith("Rig")]
        assert mine and {c.actor for c in mine} == {power} and len({c.type for c in mine}) == len(mine)
    two.close()
