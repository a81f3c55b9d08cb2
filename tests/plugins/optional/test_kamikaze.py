"""Optional rule Kamikaze (seeds "Optional Rules", L2754-2756; "Kamikaze Form"): its catalogue
entry (plugins/optional/kamikaze) makes the naval plugin's kamikaze rule choosable; a preset
leaves it OFF in a game without the naval rules (the lab), so it never drags them in; Barbarossa
plays the naval rules (Ships in Flames 16.3's fleets) but has no Japan: the rule does not apply
there (plugins/optional/framework/scope.py)."""

from __future__ import annotations

import re

import pytest

from kernel.plugins import discover
from plugins.optional.framework import is_on, new_game, rules_view
from plugins.optional.framework.catalogue import RulesError, build_catalogue
from plugins.optional.framework.presets import choose_rules, fits_scenario, rules_fitting, rules_not_applying


def test_kamikaze_is_implemented_by_its_catalogue_entry_which_needs_naval():
    rule = build_catalogue().get("kamikaze")
    assert rule.implemented and rule.plugin == "kamikaze" and rule.requires == ["naval"]
    assert rule.status() == "implemented" and rule.toggle == "in-play"


def test_kamikaze_switched_on_for_guadalcanal_starts_a_game_with_the_naval_rule_on(save):
    game = new_game("guadalcanal", save, on=["kamikaze"], seed=3)
    try:
        assert {"kamikaze", "naval"} <= set(game.plugin_set)
        assert is_on(game.state, "kamikaze")
        assert game.history(1, 1)[0].data["options"]["optional_rules"] == ["kamikaze"]
    finally:
        game.close()


def test_preset_all_in_a_game_without_naval_leaves_kamikaze_off_with_a_note():
    discovery = discover()
    catalogue = build_catalogue(discovery)
    choice = choose_rules(catalogue, "all", fits=fits_scenario(discovery, "lab"))
    assert "kamikaze" not in choice.rules and "naval" not in choice.plugins
    assert "Kamikaze left OFF: it needs the naval rules, which this game does not play" in choice.notes
    # the presets listing it (Standard, Advanced) leave it OFF the same way
    standard = choose_rules(catalogue, "standard", fits=fits_scenario(discovery, "lab"))
    assert "kamikaze" not in standard.rules and any(n.startswith("Kamikaze left OFF") for n in standard.notes)
    # in Guadalcanal, which plays the naval rules and Japan, All switches it ON
    chosen = choose_rules(catalogue, "all", fits=fits_scenario(discovery, "guadalcanal"))
    assert "kamikaze" in chosen.rules and not any("Kamikaze" in n for n in chosen.notes)
    # every implemented rule but Kamikaze suits Barbarossa (test_kamikaze_does_not_apply_without_japan)
    implemented = [r.id for r in catalogue.implemented()]
    assert rules_fitting("barbarossa") == [r for r in implemented if r != "kamikaze"]
    assert rules_fitting("guadalcanal") == implemented


def test_kamikaze_does_not_apply_without_japan(save):
    """"The Japanese player can declare kamikaze attacks" ("Kamikaze Form" L9952-9966): Barbarossa
    (Germany against the USSR) plays the naval rules but has no Japan, so the rule is not offered
    (the Start New Game form's data says why), a preset leaves it OFF with a note, its plugin is
    not loaded (it cannot be switched on in play), and naming it for a new game is refused."""
    discovery = discover()
    catalogue = build_catalogue(discovery)
    assert catalogue.get("kamikaze").needs_powers == ["japan"]
    why = ("Kamikaze does not apply in this scenario (barbarossa): it needs japan in play, "
           "and its major powers are germany, ussr")
    assert rules_not_applying("barbarossa") == {"kamikaze": why} and rules_not_applying("guadalcanal") == {}
    chosen = choose_rules(catalogue, "all", fits=fits_scenario(discovery, "barbarossa"))
    assert "kamikaze" not in chosen.rules and "kamikaze" not in chosen.plugins and f"{why}: left OFF" in chosen.notes
    with pytest.raises(RulesError, match=re.escape(why)):
        new_game("barbarossa", save, on=["kamikaze"], seed=1)
    assert not save.exists()
    # in play (Ctrl+O), the rules list says so too
    game = new_game("barbarossa", save, seed=1)
    try:
        [row] = [r for r in rules_view(game) if r["id"] == "kamikaze"]
        assert not row["on"] and not row["may_toggle_now"]
        assert row["why_not"] == ("Kamikaze does not apply in this scenario: it needs japan in play, "
                                  "and its major powers are germany, ussr")
    finally:
        game.close()


def test_a_lab_game_from_the_all_preset_loads_no_naval_plugin(save):
    game = new_game("lab", save, preset="all", seed=2)
    try:
        assert "naval" not in game.plugin_set and "kamikaze" not in game.plugin_set
        assert not is_on(game.state, "kamikaze")
        assert "territorials" in game.state.kernel.options["optional_rules"]
    finally:
        game.close()
