"""Phases a game bypasses, each with the seeds' reason (turn's phases_not_in_play, Barbarossa's
phases_left_out): "This is a optional rule and if it has not been selected, the phase is
skipped" (Partisans, Use Oil, Intelligence, ...), a phase with nothing to act on (the naval
phases without naval units, Resource Lending without an ally, US Entry without the USA), and
what the Barbarossa scenario leaves out (Production, Declare War, the peace phases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import helpers
from kernel.engine import NO_RULE_YET
from kernel.game import Game
from plugins.rules.turn.phases_not_in_play import not_in_play, optional_phases

T = "wif.turn."


def skip_reason(game, step):
    return game.host.pm.hook.skip_step(state=game.state, step_id=step, spec=game.sequence_index.specs[step])


@pytest.fixture
def barbarossa(tmp_path):
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=3)
    yield game
    game.close()


def test_optional_rules_phases_are_skipped_with_the_seeds_words_when_the_rule_is_off(barbarossa):
    for step in optional_phases():
        reason = not_in_play(barbarossa.state, step)
        assert "optional rule" in reason and "if it has not been selected" in reason, (step, reason)
        assert skip_reason(barbarossa, step), step  # this or another true reason (the scenario's, the rule's)
    assert "Partisans: the optional rule Partisans is off" in not_in_play(barbarossa.state, f"{T}end-of-turn.partisans.partisan-rolls")
    assert "Use Oil: the optional rule Oil" in not_in_play(barbarossa.state, f"{T}end-of-turn.use-oil")


def test_optional_rules_phases_are_left_to_the_rule_when_it_is_on(tmp_path):
    game = Game.new("barbarossa", tmp_path / "on.wif", seed=3,
                    options={"optional_rules": ["intelligence", "partisans", "oil"]})
    for step in (f"{T}end-of-turn.intelligence.intelligence-rolls", f"{T}end-of-turn.partisans.partisan-rolls",
                 f"{T}end-of-turn.use-oil"):
        assert not_in_play(game.state, step) is None, step
    # a rule this edition does not offer (Ukraine Creation) is always off
    assert "does not offer it" in not_in_play(game.state, f"{T}end-of-turn.peace.ukraine-creation.create-ukraine")
    game.close()


def test_optional_phases_data_names_real_steps_and_catalogue_rules(barbarossa):
    catalogue = Path(__file__).parents[3] / "plugins/optional/framework/data/catalogue.toml"
    ids = {line.split('"')[1] for line in catalogue.read_text(encoding="utf-8").splitlines() if line.startswith("id = ")}
    for step, entry in optional_phases().items():
        assert step in barbarossa.sequence_index.specs, step
        assert entry["rule"] is None or entry["rule"] in ids, entry


def test_naval_phases_have_nothing_to_act_on_without_naval_units(tmp_path):
    game = helpers.lab_game(tmp_path / "n.wif", options={"countries": {"GE": "germany", "SU": "ussr"}},
                            extra_plugins=["turn"])
    step = f"{T}impulse.naval.naval-movement"
    assert not_in_play(game.state, step).startswith("Naval Movement: the phasing side has no naval units")
    assert "Stay At Sea" in not_in_play(game.state, f"{T}end-of-turn.stay-at-sea-phasing")
    # a naval unit at sea: the phase has something to act on
    k = game.state.kernel
    phasing = k.sides[k.active_side][0]
    helpers.place(game, {"id": "bb", "power": phasing, "branch": "naval", "type": "bb", "hex": [200, 45]})
    assert not_in_play(game.state, step) is None
    assert not_in_play(game.state, f"{T}end-of-turn.stay-at-sea-phasing") is None
    game.close()


def test_resource_lending_us_entry_and_vichy_need_powers_the_game_has(barbarossa):
    state = barbarossa.state
    assert "no major power has another major power on its side" in not_in_play(state, f"{T}new-turn.resource-lending")
    assert not_in_play(state, f"{T}end-of-turn.us-entry.us-entry-markers") == "US Entry: the USA is not a major power of this game"
    assert "France is not a major power" in not_in_play(state, f"{T}end-of-turn.peace.vichy-declaration")
    assert "every major power is at war" in not_in_play(state, f"{T}end-of-turn.entry.entry-initiative-side")
    assert "Guadalcanal" in not_in_play(state, f"{T}end-of-turn.naval-repair")


def test_barbarossa_scenario_leaves_out_production_declare_war_and_peace(barbarossa):
    data = json.loads((Path(__file__).parents[3] / "plugins/scenarios/barbarossa/data/phases_left_out.json")
                      .read_text(encoding="utf-8"))
    assert data["source"] and data["approximations"]
    for step in data["phases"]:
        assert step in barbarossa.sequence_index.specs, step
    assert skip_reason(barbarossa, f"{T}impulse.new-impulse.declare-war").startswith("Declare War: Germany and the USSR")
    assert skip_reason(barbarossa, f"{T}end-of-turn.production").startswith("Production: Barbarossa has no production")
    assert "no major power surrenders" in skip_reason(barbarossa, f"{T}end-of-turn.peace.surrender")


# Steps of the air missions, implemented at the same time by the air rules (not this plugin's)
AIR_STEPS = {"wif.procedures.air-mission.air-mission-performed", f"{T}impulse.end-of-impulse.reorganization-by-air-transport",
             f"{T}impulse.independent-air.carpet-bombing", f"{T}impulse.independent-air.strategic-bombardment",
             f"{T}impulse.land.movement.air-transport", f"{T}impulse.land.movement.paradrop",
             "wif.digressions.rebase-overrun-units"}


def test_sequence_of_play_a_barbarossa_game_skips_no_step_for_want_of_a_rule(tmp_path):
    """Every step a Barbarossa game enters runs its rule or records why it does not apply."""
    game = Game.new("barbarossa", tmp_path / "whole.wif", seed=5)
    from app.bots import autoplay

    autoplay(game, {"axis": "random", "allies": "random"}, seed=5)
    assert game.state.kernel.sequence.finished
    missing = {r.data["step"] for r in game.history(1) if r.type == "StepSkipped" and r.data["reason"] == NO_RULE_YET}
    assert missing <= AIR_STEPS, sorted(missing - AIR_STEPS)
    assert [r.type for r in game.history(1)][-2:] == ["GameEnded", "SequenceFinished"]
    game.close()
