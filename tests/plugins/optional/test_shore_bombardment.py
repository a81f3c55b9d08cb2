"""Optional rule Shore Bombardment, option 38 (seeds "Defending Shore Bombardment", L10732-10745:
"This is a optional rule and if it has not been selected, the phase is skipped"): its catalogue
entry (plugins/optional/shore-bombardment) makes the naval plugin's defending step choosable in a
new game; the step itself is tested in tests/plugins/rules/test_naval_transport.py and the bots'
use of it in tests/app/test_bots_shore_bombardment.py."""

from __future__ import annotations

from kernel.plugins import discover
from plugins.optional.framework import is_on, new_game
from plugins.optional.framework.catalogue import build_catalogue
from plugins.optional.framework.presets import choose_rules, fits_scenario
from plugins.rules.turn.phases_not_in_play import optional_rule_off

STEP = "wif.turn.impulse.land.combat.defending-shore-bombardment"


def test_shore_bombardment_is_implemented_by_its_catalogue_entry_which_needs_naval():
    rule = build_catalogue().get("shore-bombardment")
    assert rule.implemented and rule.plugin == "shore-bombardment" and rule.requires == ["naval"]
    assert rule.status() == "implemented"


def test_shore_bombardment_switched_on_for_barbarossa_plays_the_defending_step(save):
    """Barbarossa's fleets (Ships in Flames 16.3) may bombard in defence with the rule on; with it
    off the step's skip reason names the rule."""
    game = new_game("barbarossa", save, on=["shore-bombardment"], seed=3)
    try:
        assert {"shore-bombardment", "naval"} <= set(game.plugin_set)
        assert is_on(game.state, "shore-bombardment")
        assert optional_rule_off(game.state, STEP) is None
    finally:
        game.close()
    off = new_game("barbarossa", save.with_name("off.wif"), seed=3)
    try:
        assert not is_on(off.state, "shore-bombardment")
        assert "optional rule Shore bombardment is off" in optional_rule_off(off.state, STEP)
    finally:
        off.close()


def test_preset_all_in_a_game_without_naval_leaves_shore_bombardment_off_with_a_note():
    discovery = discover()
    catalogue = build_catalogue(discovery)
    choice = choose_rules(catalogue, "all", fits=fits_scenario(discovery, "lab"))
    assert "shore-bombardment" not in choice.rules and "naval" not in choice.plugins
    assert "Shore bombardment left OFF: it needs the naval rules, which this game does not play" in choice.notes
    advanced = choose_rules(catalogue, "advanced", fits=fits_scenario(discovery, "barbarossa"))
    assert "shore-bombardment" in advanced.rules
