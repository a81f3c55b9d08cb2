"""Optional rules that add units to Barbarossa (seeds, "Optional Rules": additional units):
Territorials ("Land Combat", RAC 22.4.5), Militia ("Declare War": the Soviet 'Moscow' militia),
Guards banner armies (provisional), Motorized infantry, Anti-aircraft and anti-tank units
("Land Combat": "Each defending anti-tank unit counts as an ARM corps").  ON: their counters
are in the setup tray or arrive as reinforcements on their turn; OFF: none of them exists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ok

from plugins.optional.framework import new_game
from plugins.optional.framework.added_units import AddedUnitsError, load
from plugins.scenarios.barbarossa import scenario_state, tray_units

REPO = Path(__file__).resolve().parents[3]
RULES = ["territorials", "militia", "guards-banner-armies", "motorized-infantry",
         "anti-aircraft-and-anti-tank-units"]


def _units_of(rule):
    return load(REPO / "plugins" / "optional" / rule / "data" / "added_units.json")["scenarios"]["barbarossa"]


@pytest.mark.parametrize("rule", RULES)
def test_additional_units_on_their_counters_join_the_order_of_battle(save, rule):
    game = new_game("barbarossa", save, on=[rule], seed=1)
    added = _units_of(rule)
    assert set(scenario_state(game.state).added) == {u["id"] for u in added}
    units = game.state["units"].units
    for u in added:
        if u["turn"] == 1:
            assert units[u["id"]].type == u["type"] and units[u["id"]].factors == u["factors"]
        else:
            assert u["id"] not in units  # arrives with the reinforcements of its turn
    ussr_setup = [u["id"] for u in added if u["turn"] == 1 and u["power"] == "ussr"]
    assert set(ussr_setup) <= set(tray_units(game.state, "ussr"))  # the USSR sets up first


@pytest.mark.parametrize("rule", RULES)
def test_additional_units_off_none_of_their_counters_exists(save, rule):
    game = new_game("barbarossa", save, seed=1)
    units = game.state["units"].units
    assert not scenario_state(game.state).added
    assert not [u["id"] for u in _units_of(rule) if u["id"] in units]


def test_additional_units_each_file_states_its_source_and_approximations():
    for rule in RULES:
        data = load(REPO / "plugins" / "optional" / rule / "data" / "added_units.json")
        assert data["source"] and data["approximations"]


def test_additional_units_a_file_without_its_header_is_refused_by_name(tmp_path):
    bad = tmp_path / "added_units.json"
    bad.write_text(json.dumps({"scenarios": {"barbarossa": []}}))
    with pytest.raises(AddedUnitsError, match="added_units.json.*source, approximations"):
        load(bad)


def test_militia_moscow_militia_arrives_as_a_reinforcement_on_turn_2(save):
    game = new_game("barbarossa", save, on=["militia"], seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.new-turn.reinforcements", "turn": 2})
    assert "su-mil-mos" in tray_units(game.state, "ussr")
    assert game.state["units"].units["su-mil-mos"].name == "Moscow Militia"


def test_territorials_only_territorials_defending_add_1_to_the_roll(save):
    from plugins.rules.combat import odds_preview

    game = new_game("barbarossa", save, on=["territorials"], seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    ok(game, {"type": "RigUnit", "actor": "germany", "unit": {
        "id": "su-terr-mos", "power": "ussr", "branch": "land", "type": "terr", "hex": [217, 48], "where": "map",
        "factors": {"combat": 1, "move": 1}, "size": "army"}})
    ok(game, {"type": "RigUnit", "actor": "germany", "unit": {
        "id": "ge-inf-x", "power": "germany", "branch": "land", "type": "inf", "hex": [216, 48], "where": "map",
        "factors": {"combat": 4, "move": 3}, "size": "army"}})
    preview = odds_preview(game.state, ["ge-inf-x"], (217, 48), host=game.host)
    assert "only territorials defend" in json.dumps(preview)


def test_additional_units_of_several_rules_are_recorded_in_id_order_and_the_save_verifies(save):
    """The hook answers in the plugins' registration order, which ``wif verify`` re-deciding
    NewGame need not repeat: the counters are recorded by id, so the log is the same."""
    from kernel.verify import verify

    game = new_game("barbarossa", save, on=RULES, seed=1)
    (added,) = [e for e in game.history() if e.type == "ScenarioUnitsAdded"]
    ids = [u["id"] for u in added.data["units"]]
    assert ids == sorted(ids) and set(ids) == {u["id"] for rule in RULES for u in _units_of(rule)}
    game.close()
    assert verify(save).ok
