"""Guadalcanal scenario: order of battle, starting state (Scenarios: Guadalcanal), the partial
map, the phases it leaves out, reinforcements, and the Guadalcanal Special Victory
Conditions built with the rig.  Each test is named after the seed section it checks."""

from __future__ import annotations

import collections

import pytest

from app.victory import victory_report
from helpers import control, go_to, lab_game, ok, place, refused, rig, unit
from kernel.game import Game
from plugins.rules.core import hex_controller, world, world_map
from plugins.rules.naval.naval_movement import closed_area_problem
from plugins.rules.naval.state import naval
from plugins.rules.turn import date_name
from plugins.scenarios.guadalcanal import (
    arrival_hex,
    count_victory_points,
    margin_level,
    oob,
    phases_left_out,
    result_words,
    scenario_state,
    sea_area_refusal,
)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    g = Game.new("guadalcanal", tmp_path_factory.mktemp("g") / "g.wif", seed=3)
    yield g
    g.close()


def city(name):
    return world_map().city(name).hex


# ---------------------------------------------------------------- the data
def test_order_of_battle_counts_by_power_and_class():
    """The land and air order of battle is authored; the naval one is 16.4's
    (test_guadalcanal_setup.py checks it ship by ship)."""
    data = oob.scenario_data()
    assert data.source and data.approximations
    start = collections.Counter((u.power, u.branch, u.type) for u in data.units if u.turn == 1 and not u.pool)
    assert start[("japan", "naval", "cv")] == 13 and start[("japan", "naval", "bb")] == 11
    assert start[("japan", "naval", "convoy")] == 6
    assert start[("usa", "naval", "cv")] == 5 and start[("usa", "naval", "bb")] == 8
    assert start[("commonwealth", "naval", "cv")] == 3 and start[("commonwealth", "naval", "bb")] == 3
    # every carrier air unit of the set-up is aboard a carrier of its power that takes its class
    by_id = {u.id: u for u in data.units}
    for a in data.units:
        if a.type == "cvp" and a.aboard:
            assert a.factors["class"] <= by_id[a.aboard].factors["class"] and by_id[a.aboard].power == a.power
    land = collections.Counter(u.power for u in data.units if u.branch == "land" and u.turn == 1)
    assert land["japan"] >= 25 and land["usa"] >= 10 and land["commonwealth"] >= 12
    assert {u.turn for u in data.units} == {1, 2, 3, 4, 5}
    assert {u.turn for u in data.units if u.branch == "naval"} >= {2, 3, 4, 5}


def test_order_of_battle_positions_are_in_the_playable_area_and_friendly():
    m = world_map()
    for u in oob.scenario_data().units:
        if u.aboard or u.pool or u.type == "cvp":
            continue
        h = oob.unit_hex(u)
        assert oob.in_play(h), f"{u.id} at {u.at} {h} is outside the Pacific playable area"
        owner = oob.start_controller(h)
        assert owner is not None and owner in oob.scenario_data().sides[
            "axis" if u.power == "japan" else "allies"], f"{u.id} at {u.at} is controlled by {owner}"
        if u.branch == "naval":
            assert oob.place(u.at).port, u.id
        if u.sea is not None:
            assert u.sea.area in oob.sea_areas_in_play(), u.id


def test_order_of_battle_bad_input_names_the_unit():
    taken = {}
    bad = oob.UnitData(id="x-1", power="italy", branch="land", type="inf", name="X", year=1942,
                       factors={"combat": 1, "move": 1}, turn=1, at="Rabaul")
    assert "'italy' is not a major power" in oob.unit_problem(bad, taken, {"japan"}, 5)
    ship = bad.model_copy(update={"power": "japan", "branch": "naval", "type": "bb", "at": "Delhi",
                                  "factors": {"attack": 1, "defense": 1, "aa": 0, "speed": 4, "range": 4}})
    assert oob.unit_problem(ship, taken, {"japan"}, 5) == "unit x-1: 'Delhi' is not a port"
    unarmed = ship.model_copy(update={"factors": {"attack": 1}})
    assert "has no defense, aa, speed, range factor" in oob.unit_problem(unarmed, taken, {"japan"}, 5)


def test_order_of_battle_bad_file_names_the_file(tmp_path):
    bad = tmp_path / "naval_order_of_battle.json"
    bad.write_text('{"source": "x", "approximations": "y", "units": [{"id": "jp-x"}]}')
    with pytest.raises(ValueError, match="naval_order_of_battle.json"):
        oob._load(bad, oob.NavalData)


# ---------------------------------------------------------------- Scenarios: Guadalcanal
def test_scenarios_guadalcanal_starting_state(game):
    s = game.state
    assert s.kernel.sides == {"axis": ["japan"], "allies": ["usa", "commonwealth"]}
    assert date_name(s) == "May/Jun 1942" and world(s).last_turn == 5
    assert sorted(map(tuple, world(s).at_war)) == [("commonwealth", "japan"), ("japan", "usa")]
    for place, power in [("Rabaul", "japan"), ("Tulagi", "japan"), ("Manila", "japan"), ("Singapore", "japan"),
                         ("Batavia", "japan"), ("Guam", "japan"), ("Port Moresby", "commonwealth"),
                         ("Guadalcanal", "commonwealth"), ("Noumea", "commonwealth"), ("Honolulu", "usa")]:
        assert hex_controller(s, city(place)) == power, place
    # no combat in China or the USSR: their hexes have no controller (neutral to everyone)
    for place in ("Chungking", "Shanghai", "Vladivostok", "Hsinking"):
        assert hex_controller(s, city(place)) is None, place
    # the setup is legal: no overstacking digression, every counter of turn 1 in play
    assert s.kernel.sequence.current != "wif.digressions.correct-overstacking"
    placed = {u.id for u in s["units"].units.values() if u.where in ("map", "aboard", "repair-pool")}
    assert placed == {u.id for u in oob.scenario_data().units if u.turn == 1}
    # Task Force 17 in the Coral Sea (16.1.1 Previous Naval Moves), the carriers' air groups aboard
    assert naval(s).at_sea["us-yorktown"].area == "CO" and "cw-australia" not in naval(s).at_sea
    assert naval(s).aboard["jp-akagi"] == ["jp-akagi-air"]
    assert s["units"].units["jp-akagi-air"].where == "aboard"


def test_scenarios_guadalcanal_partial_map():
    assert oob.in_play(city("Tokyo")) and oob.in_play(city("Honolulu")) and oob.in_play(city("Calcutta"))
    for outside in ("Chungking", "Vladivostok", "London", "Berlin"):
        assert not oob.in_play(city(outside)), outside
    names = {n for n, _ in oob.objectives()}
    assert {"Rabaul", "Truk", "Manila", "Singapore", "Canberra", "Honolulu"} <= names
    assert not names & {"Chungking", "Shanghai", "Lanchow", "Vladivostok", "London"}
    oil = {place for place, _, kind, _ in oob.resources() if kind == "oil"}
    assert {"Balikpapan", "Palembang", "Tarakan", "Brunei"} <= oil
    seas = oob.sea_areas_in_play()
    assert {"CO", "BM", "SC", "CS", "HI", "BE", "TS"} <= seas and not seas & {"NA", "WM", "IO", "AS"}


def test_scenarios_guadalcanal_partial_map_at_sea(game):
    assert sea_area_refusal(game.state, "CO") is None
    assert "limited to just the Pacific" in sea_area_refusal(game.state, "NA")
    # Naval Movement asks it for each sea area on the way: from Colombo into the Arabian Sea
    colombo = "{},{}".format(*city("Colombo"))
    assert closed_area_problem(game.state, game.host, colombo, "BE") is None
    assert "sea area AS lies outside its playable area" in closed_area_problem(game.state, game.host, colombo, "AS")


def test_production_is_skipped_and_naval_repair_is_not():
    phases = phases_left_out()
    assert "Production is not part of the Guadalcanal scenario" in phases[
        "wif.turn.end-of-turn.production-planning-preliminary"]
    assert "skipped when playing the Guadalcanal scenario" in phases["wif.turn.end-of-turn.production"]
    assert "wif.turn.end-of-turn.naval-repair" not in phases  # "executed instead of the Production phase"


def test_phases_left_out_are_recorded_with_their_reasons(game):
    skipped = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert "fixed setup" in skipped["wif.new-game.setup.set-up-each-major-power"]


# ---------------------------------------------------------------- Reinforcements
def test_reinforcements_arrive_at_their_city_or_the_nearest_friendly_one(tmp_path):
    g = lab_game(tmp_path / "r.wif", "guadalcanal")
    by_id = {x.id: x for x in oob.scenario_data().units}
    assert arrival_hex(g.state, by_id["us-essex"]) == city("San Diego")
    assert arrival_hex(g.state, by_id["us-2mar"]) == city("Wellington")
    # Rabaul holds the 17th Army and the South Seas Detachment: a third land unit there would
    # overstack, so the 38th Division lands at the nearest Japanese city that can take it
    place(g, unit("jp-extra", power="japan", hex_=city("Rabaul")))
    elsewhere = arrival_hex(g.state, by_id["jp-38d"])
    assert elsewhere == city("Kavieng") and hex_controller(g.state, elsewhere) == "japan"
    control(g, city("Wellington"), "japan")  # taken by the enemy: the nearest Allied city instead
    instead = arrival_hex(g.state, by_id["us-2mar"])
    assert instead != city("Wellington") and hex_controller(g.state, instead) in ("usa", "commonwealth")
    g.close()


# ---------------------------------------------------------------- Victory
def test_victory_margins_of_the_guadalcanal_table():
    assert [margin_level(m) for m in (40, 21, 20, 11, 10, 6, 5, 0)] == [
        "Decisive", "Decisive", "Substantive", "Substantive", "Marginal", "Marginal", "Draw", "Draw"]
    assert result_words({"axis": 8, "allies": 3})[:3] == (None, 5, "Draw")
    winner, margin, level, words = result_words({"axis": 2, "allies": 14})
    assert (winner, margin, level) == ("allies", 12, "Substantive")
    assert words.startswith("Substantive victory for the US/CW/France player by 12")


def test_victory_guadalcanal_special_victory_conditions(tmp_path):
    g = lab_game(tmp_path / "v.wif", "guadalcanal")
    assert count_victory_points(g.state)[0] == {"axis": 0, "allies": 0}  # nothing taken yet
    control(g, city("Rabaul"), "usa")  # objective: 5
    control(g, city("Balikpapan"), "commonwealth")  # oil: 2
    control(g, city("Penang"), "commonwealth")  # other resource: 1
    control(g, city("Canberra"), "japan")  # objective for Japan: 5
    units = g.state["units"].units
    akagi = units["jp-akagi"].model_dump()
    rig(g, "RigUnit", unit={**akagi, "hex": None, "where": "eliminated"})  # enemy CV destroyed: 4
    convoy = units["jp-convoy-cs1"].model_dump()  # 2 of the 6 Japanese convoy points in the China Sea
    rig(g, "RigUnit", unit={**convoy, "hex": None, "where": "eliminated"})
    rig(g, "RigCalendar", last_turn=1)
    go_to(g, "turn.end-of-turn.victory-check", turn=1)
    events = {e.type: e.data for e in g.history() if e.type in
              ("ConvoyPointsScored", "VictoryPointsCounted", "VictoryMarginDetermined")}
    assert events["ConvoyPointsScored"]["points"] == {"CS": 1, "SC": 0}  # 4 left: 1 short of 5
    assert events["VictoryPointsCounted"]["points"] == {"axis": 5, "allies": 5 + 2 + 1 + 4 + 1}
    rows = {r["what"]: r for r in events["VictoryPointsCounted"]["rows"]}
    assert rows["objective Rabaul"]["side"] == "allies" and rows["oil at Balikpapan"]["points"] == 2
    assert rows["CV Akagi destroyed"]["points"] == 4
    result = events["VictoryMarginDetermined"]
    assert (result["winner"], result["margin"], result["level"]) == ("allies", 8, "Marginal")
    assert scenario_state(g.state).result == result
    assert g.state.kernel.sequence.finished
    # the Victory form: the result in words and one row per thing that scored
    report = victory_report(g)
    assert "Marginal victory for the US/CW/France player by 8" in report["lines"][0]
    assert {"objective Rabaul", "CV Akagi destroyed", "turn 1: Japanese convoys short in CS"} <= {
        r["name"] for r in report["rows"]}
    assert report["totals"] == {"axis": 5, "allies": 13}
    g.close()


def test_victory_no_automatic_victory_before_the_last_turn(tmp_path):
    g = lab_game(tmp_path / "a.wif", "guadalcanal")
    for _, h in oob.objectives():
        if hex_controller(g.state, h) != "japan":
            control(g, h, "japan")
    go_to(g, "turn.end-of-turn.victory-check", turn=1)
    kinds = [e.type for e in g.history() if e.type in ("VictoryPointsCounted", "VictoryMarginDetermined")]
    assert kinds == ["VictoryPointsCounted"]
    # the 10 Allied objectives in play, and the oil of Los Angeles and the resource of Calcutta
    assert scenario_state(g.state).standing["axis"] == 5 * 10 + 2 + 1
    assert scenario_state(g.state).result is None and not g.state.kernel.sequence.finished
    g.close()


def test_scenarios_guadalcanal_partial_map_a_ship_may_not_sail_off_it(tmp_path):
    """Scenarios: Guadalcanal "is limited to just the Pacific": a Japanese ship in Singapore is
    not offered the Indian Ocean, and the move is refused with the scenario's reason, nothing
    appended (Naval Movement asks the ``sea_area_refusal`` hook for each sea area entered)."""
    g = lab_game(tmp_path / "p.wif", "guadalcanal")
    rig(g, "RigAction", power="japan", action="naval")
    go_to(g, "turn.impulse.naval.naval-movement", active_side="axis")
    singapore = "{},{}".format(*city("Singapore"))
    offered = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()
               if c["origin"] == singapore]
    seas = {c["to"] for c in offered if "," not in c["to"]}
    assert {"SC", "JS", "AN", "BE"} <= seas and not seas & {"IO", "AS", "SO"}
    reason = refused(g, {"type": "MoveNavalGroup", "actor": "japan", "origin": singapore, "to": "IO", "section": 0,
                         "units": ["jp-tone"]}, "limited to just the Pacific")
    assert "IO" in reason
    ok(g, {"type": "MoveNavalGroup", "actor": "japan", "origin": singapore, "to": "AN", "section": 0,
           "units": ["jp-tone"]})
    g.close()
