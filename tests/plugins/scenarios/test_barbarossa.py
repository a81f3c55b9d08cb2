"""Barbarossa scenario: order of battle, starting state, setup tray, reinforcements,
victory, and a scripted 5-turn game.  Each test is named after the seed section it checks."""

from __future__ import annotations

import collections

import pytest

from helpers import refused
from kernel.game import Game
from plugins.rules.core import hex_controller, world, world_map
from scripted import play_scripted
from plugins.scenarios.barbarossa import TRAY, count_objectives, oob, scenario_state

SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"
REINF_PLACING = "wif.procedures.reinforcements.placing-units-on-map"


@pytest.fixture
def game(tmp_path):
    g = Game.new("barbarossa", tmp_path / "b.wif", seed=7)
    yield g
    g.close()


def units_of(g, power, where=None):
    return [u for u in g.state["units"].units.values() if u.power == power and (where is None or u.where == where)]


# ---------------------------------------------------------------- the data
def test_order_of_battle_data_validates():
    data = oob.scenario_data()
    assert data.source and data.approximations
    assert {u.power for u in data.units} == {"germany", "ussr"}
    countries, hexes = oob.start_control()
    m = world_map()
    for u in data.units:
        assert u.type in data.unit_types, u.id
        assert u.type in (oob.LAND_TYPES if u.branch == "land" else oob.AIR_TYPES), u.id
        assert u.year in (1939, 1940, 1941) and u.name and u.size
        h = tuple(u.hex)
        assert m.is_land(h), f"{u.id} default hex {h} is not land"
        assert h in oob.area_hexes(u.area), f"{u.id} default hex {h} is outside {u.area}"
        owner = hexes.get(h) or countries.get(m.country_code(h))
        assert owner == u.power, f"{u.id} default hex {h} is controlled by {owner}"
        if u.type.startswith("hq"):
            assert u.name
    # every setup area is on land the area's power controls for at least one hex
    for area_id, area in data.areas.items():
        assert any((hexes.get(h) or countries.get(m.country_code(h))) == area.power for h in oob.area_hexes(area_id))
    # June 1941 strengths: a real front on both sides, reinforcements on turns 2-5 only
    start = collections.Counter((u.power, u.branch) for u in data.units if u.turn == 1)
    assert start[("germany", "land")] >= 35 and start[("ussr", "land")] >= 45
    assert start[("germany", "air")] >= 8 and start[("ussr", "air")] >= 8
    assert {u.turn for u in data.units} == {1, 2, 3, 4, 5}
    # Barbarossa Special Victory Conditions: 8 objectives, Leningrad counts 2, Bessarabia in
    values = oob.objective_values()
    assert len(data.objectives) == 8
    leningrad = m.city("Leningrad").hex
    assert values[leningrad] == ("Leningrad", 2)
    assert ("Kishinev", m.city("Kishinev").hex) in oob.east_european_cities()
    assert values[m.city("Warsaw").hex][1] == 1  # an objective, not a USSR city
    assert all(h[0] <= 240 for h in values)


def test_setup_default_positions_are_legal_and_not_overstacked(game):
    """Setup Tray: Restore Setup puts each unit on its saved default hex (all legal at once)."""
    from plugins.rules.land.movement import overstacked_hexes

    for power in ("ussr", "germany"):
        assert game.submit({"type": "RestoreSetup", "actor": power}).accepted
        assert game.submit({"type": "FinishStep", "actor": power}).accepted
    data = oob.scenario_data()
    for u in data.units:
        if u.turn == 1:
            unit = game.state["units"].units[u.id]
            assert unit.where == "map" and tuple(unit.hex) == tuple(u.hex), u.id
    assert overstacked_hexes(game.state) == {}


# ---------------------------------------------------------------- starting state
def test_scenarios_barbarossa_starting_political_state(game):
    s = game.state
    m = world_map()
    w = world(s)
    assert ("germany", "ussr") in {tuple(p) for p in w.at_war}  # at war from the start
    assert w.last_turn == 5
    assert w.countries["RM"] == "germany" and w.countries["HU"] == "germany" and w.countries["PL"] == "germany"
    assert w.countries["LT"] == "ussr" and "FI" not in w.countries  # Finland neutral
    assert hex_controller(s, m.city("Warsaw").hex) == "germany"
    assert hex_controller(s, m.city("Lwow").hex) == "ussr"  # eastern Poland
    assert hex_controller(s, m.city("Kishinev").hex) == "ussr"  # Bessarabia
    assert hex_controller(s, m.city("Iasi").hex) == "germany"  # Rumania west of the Prut
    assert hex_controller(s, m.city("Viipuri").hex) == "ussr"  # Karelian isthmus
    assert hex_controller(s, m.city("Helsinki").hex) is None
    rumanians = [u for u in units_of(game, "germany") if u.nationality == "romania"]
    assert rumanians and all(u.power == "germany" for u in rumanians)
    # every counter waits in the tray, 16.3's ships too (test_barbarossa_fleets.py)
    assert all(u.where == TRAY for u in game.state["units"].units.values())


# ---------------------------------------------------------------- Setup / Setup Tray
def test_setup_ussr_sets_up_first_then_germany(game):
    k = game.state.kernel
    skipped = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert "lend lease" in skipped["wif.new-game.setup.lend-leasing-units"]
    assert k.sequence.current == SETUP_PLACING and k.sequence.pending == ["ussr"]
    assert scenario_state(game.state).setup_power == "ussr"
    assert game.submit({"type": "RestoreSetup", "actor": "ussr"}).accepted
    assert game.submit({"type": "FinishStep", "actor": "ussr"}).accepted
    assert k.sequence.current == SETUP_PLACING and k.sequence.pending == ["germany"]
    assert scenario_state(game.state).setup_power == "germany"
    assert sorted(scenario_state(game.state).tray["germany"]) == sorted(
        [u.id for u in oob.scenario_data().units if u.power == "germany" and u.turn == 1]
        + [s.id for s in oob.naval_data().units if s.power == "germany"])


def test_setup_tray_refusals_name_the_rule(game):
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-8a", "hex": [212, 50]})
    assert reason.startswith("Setup: the 8th Army must be set up in the Baltic Special Military District")
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "ge-18a", "hex": [202, 49]})
    assert "Setup Tray" in reason and "germany unit" in reason
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-8a", "hex": [199, 45]})  # Baltic Sea
    assert "land hexes" in reason
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "nope", "hex": [202, 49]})
    assert "no unit" in reason
    # three corps in one hex: Over-Stacked Hex
    for uid in ("su-8a", "su-12m"):
        assert game.submit({"type": "PlaceUnit", "actor": "ussr", "unit": uid, "hex": [202, 49]}).accepted
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-11a", "hex": [202, 49]})
    assert "at most 2 land units" in reason
    # four aircraft in a plain hex
    assert game.submit({"type": "PlaceUnit", "actor": "ussr", "unit": "su-balt-ftr", "hex": [202, 49]}).accepted
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-balt-lnd", "hex": [202, 49]})
    assert "aircraft" in reason
    # Germany may not place while the USSR sets up (wrong step for it)
    reason = refused(game, {"type": "PlaceUnit", "actor": "germany", "unit": "ge-18a", "hex": [202, 50]})
    assert "nothing" in reason and "ussr" in reason
    assert game.submit({"type": "RestoreSetup", "actor": "ussr"}).accepted
    assert game.submit({"type": "FinishStep", "actor": "ussr"}).accepted
    # a hex of the setup area controlled by the other major power (Bessarabia)
    reason = refused(game, {"type": "PlaceUnit", "actor": "germany", "unit": "ge-11a", "hex": [208, 62]})
    assert "controlled by another major power" in reason and "ussr" in reason
    reason = refused(game, {"type": "PlaceUnit", "actor": "germany", "unit": "ge-4a", "hex": [200, 50]})
    assert reason == "Setup: the 4th Army must be set up in the Army Group Centre area (German-occupied central Poland)"
    # the USSR has finished: its units can no longer be re-placed
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-8a", "hex": [203, 49]})
    assert "nothing" in reason
    reason = refused(game, {"type": "RestoreSetup", "actor": "ussr"})
    assert reason.startswith("Setup Tray: ussr is not placing units now")


def test_setup_tray_units_can_be_replaced_until_the_power_finishes(game):
    place = {"type": "PlaceUnit", "actor": "ussr", "unit": "su-8a", "hex": [202, 49]}
    out = game.submit(place)
    assert out.accepted and [e.type for e in out.events] == ["UnitMoved"]
    assert game.submit({**place, "hex": [203, 49]}).accepted
    assert tuple(game.state["units"].units["su-8a"].hex) == (203, 49)
    out = game.submit({"type": "RestoreSetup", "actor": "ussr"})
    assert out.accepted
    assert tuple(game.state["units"].units["su-8a"].hex) == (203, 49)  # placed units stay
    assert not units_of(game, "ussr", TRAY)
    reason = refused(game, {"type": "RestoreSetup", "actor": "ussr"})
    assert "empty" in reason


def test_setup_units_left_in_the_tray_go_to_their_default_hexes(game):
    assert game.submit({"type": "PlaceUnit", "actor": "ussr", "unit": "su-8a", "hex": [203, 49]}).accepted
    assert game.submit({"type": "FinishStep", "actor": "ussr"}).accepted
    assert not units_of(game, "ussr", TRAY)
    assert tuple(game.state["units"].units["su-11a"].hex) == (203, 50)
    assert tuple(game.state["units"].units["su-8a"].hex) == (203, 49)


# ---------------------------------------------------------------- Reinforcements
def _finish_all(g, stop):
    """FinishStep for whoever is pending (RestoreSetup first) until ``stop(g)``."""
    for _ in range(2000):
        if stop(g) or g.state.kernel.sequence.finished:
            return
        k = g.state.kernel
        who, step = k.sequence.pending[0], k.sequence.current
        power = who if who in k.powers() else k.sides[who][0]
        legal = g.legal_commands()
        if units_of(g, power, TRAY) and k.sequence.current in (SETUP_PLACING, REINF_PLACING):
            g.submit({"type": "RestoreSetup", "actor": power})
        if "ChooseFirstMover" in legal and g.submit({"type": "ChooseFirstMover", "actor": who, "side": "axis"}).accepted:
            continue
        if "ChooseAction" in legal:
            g.submit({"type": "ChooseAction", "actor": power, "action": "pass"})
            if who not in k.sequence.pending or k.sequence.current != step:
                continue  # choosing the action finished the step for it
        out = g.submit({"type": "FinishStep", "actor": who})
        assert out.accepted, out.reason


def test_reinforcements_arrive_every_turn_except_the_first(game):
    _finish_all(game, lambda g: g.state.kernel.sequence.current == REINF_PLACING)
    history = game.history()
    first = [e for e in history if e.type == "StepSkipped" and e.data["step"] == "wif.turn.new-turn.reinforcements"]
    assert len(first) == 1 and "except the first" in first[0].data["reason"] and first[0].turn == 1
    assert game.state.kernel.turn == 2
    arriving = {u.id for u in oob.scenario_data().units if u.turn == 2}
    assert arriving and all(game.state["units"].units[u].where == TRAY for u in arriving)
    assert sorted(game.state.kernel.sequence.pending) == ["germany", "ussr"]
    # placed in the reinforcement area only
    reason = refused(game, {"type": "PlaceUnit", "actor": "ussr", "unit": "su-29a", "hex": [213, 49]})
    assert "Soviet reinforcement area" in reason
    assert game.submit({"type": "PlaceUnit", "actor": "ussr", "unit": "su-29a", "hex": [217, 51]}).accepted
    assert game.submit({"type": "RestoreSetup", "actor": "ussr"}).accepted
    assert game.submit({"type": "RestoreSetup", "actor": "germany"}).accepted
    for p in ("ussr", "germany"):
        assert game.submit({"type": "FinishStep", "actor": p}).accepted
    assert all(game.state["units"].units[u].where == "map" for u in arriving)
    assert tuple(game.state["units"].units["su-29a"].hex) == (217, 51)
    assert game.state.kernel.sequence.stack == []  # back from the reinforcement procedure


# ---------------------------------------------------------------- Victory
def _lab(tmp_path, name, hex_control, last_turn):
    countries, hexes = oob.start_control()
    control = {f"{h[0]},{h[1]}": p for h, p in hexes.items()}
    control.update(hex_control)
    return Game.new("lab", tmp_path / name, seed=1, extra_plugins=["barbarossa", "turn"], options={
        "scenario_rules": "barbarossa", "last_turn": last_turn, "countries": countries,
        "hex_control": control, "start_at": "turn.end-of-turn.victory-check"})


def test_victory_barbarossa_special_victory_conditions(tmp_path):
    m = world_map()
    captured = {f"{m.city(c).hex[0]},{m.city(c).hex[1]}": "germany" for c in ("Leningrad", "Kiev", "Minsk", "Riga")}
    g = _lab(tmp_path, "v.wif", captured, last_turn=1)
    events = [e for e in g.history() if e.type in ("ObjectivesCounted", "VictoryDetermined")]
    assert [e.type for e in events] == ["ObjectivesCounted", "VictoryDetermined"]
    counted, result = events[0].data, events[1].data
    # Germany: Warsaw, Budapest, Bucharest, half of neutral Helsinki (equidistant from
    # Berlin and Moscow), Leningrad 2, Kiev 2, Minsk, Riga
    assert counted["objectives"] == {"germany": 9.5, "ussr": 45.5}
    rows = {r["name"]: r for r in counted["held"]}
    assert rows["Leningrad"]["value"] == 2 and rows["Leningrad"]["controller"] == "germany"
    assert rows["Helsinki"]["credited"] == {"germany": 0.5, "ussr": 0.5}
    assert rows["Kishinev"]["controller"] == "ussr"
    assert result["winner"] == "ussr" and result["side"] == "allies"
    assert result["result"] == "The USSR wins with 45.5 objectives (germany 9.5)"
    assert scenario_state(g.state).result == result
    assert count_objectives(g.state)[0] == counted["objectives"]
    g.close()


def test_victory_no_automatic_victory_before_the_last_turn(tmp_path):
    # Germany holds every objective: still no automatic victory in Barbarossa
    everything = {f"{h[0]},{h[1]}": "germany" for h in oob.objective_values()}
    g = _lab(tmp_path, "a.wif", everything, last_turn=3)
    types = [e.type for e in g.history() if e.type in ("ObjectivesCounted", "VictoryDetermined", "SequenceFinished")]
    assert types == ["ObjectivesCounted"]
    assert scenario_state(g.state).standing == {"germany": 55.0, "ussr": 0.0}
    assert scenario_state(g.state).result is None
    g.close()


# ---------------------------------------------------------------- the scripted game
# The policy (tests/plugins/scenarios/scripted.py) draws every command from Game.choices.


def test_scenarios_barbarossa_scripted_game_plays_five_turns_and_replays(tmp_path):
    path = tmp_path / "game.wif"
    g = Game.new("barbarossa", path, seed=1941)
    play_scripted(g)
    k = g.state.kernel
    assert k.sequence.finished and k.turn == 5
    history = g.history()
    results = [e for e in history if e.type == "VictoryDetermined"]
    assert len(results) == 1 and results[0].turn == 5
    counts = [e for e in history if e.type == "ObjectivesCounted"]
    assert [e.data["turn"] for e in counts] == [1, 2, 3, 4, 5]
    result = results[0].data
    assert sum(result["objectives"].values()) == sum(v for _, v in oob.objective_values().values())
    assert scenario_state(g.state).result == result
    assert any(e.type == "UnitMoved" and e.turn >= 1 and e.actor == "germany" for e in history)
    assert {u.id for u in oob.scenario_data().units} <= set(g.state["units"].units)
    assert not [u.id for u in g.state["units"].units.values() if u.where == TRAY]  # every arrival placed
    final = g.state.to_json()
    g.close()
    with Game.open(path) as again:  # the event log replays to the same final state
        assert again.state.to_json() == final
        assert again.state["barbarossa"].result == result
