"""Optional rule Artillery (seeds, "Land Combat", choosing combat tables: "Each defending anti-tank
unit counts as an ARM corps. AA units which have a combat factor circled in red or pink are
treated as AT units"): OFF a division-sized AT unit counts as half a unit like any division and
an AA unit not at all; ON each counts as an ARM corps, so the defender may get the table choice."""

from __future__ import annotations

import importlib

import pytest
from helpers import unit
from optlab import T, lab

from plugins.optional.framework import RulesError
from plugins.rules.combat import odds_preview

artillery = importlib.import_module("plugins.optional.artillery")


def _units(anti_tank):
    return [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-arm2", "germany", (206, 52), "arm", 6),
            unit("s-tank", "ussr", T, "arm", 2, size="division"), anti_tank]


AT = unit("s-at", "ussr", T, "at", 1, size="division")
AA = unit("s-aa", "ussr", T, "aa", 1, size="division", flags=["anti-tank"])


@pytest.mark.parametrize("anti_tank", [AT, AA], ids=["AT", "red-circled AA"])
def test_artillery_off_the_attacker_has_more_armour(save, anti_tank):
    game = lab(save, units=_units(anti_tank))
    assert odds_preview(game.state, ["g-arm", "g-arm2"], T, host=game.host)["chooser"] == "attacker"


@pytest.mark.parametrize("anti_tank", [AT, AA], ids=["AT", "red-circled AA"])
def test_artillery_on_anti_tank_counts_as_an_arm_corps(save, anti_tank):
    game = lab(save, rules=["divisions", "artillery"], units=_units(anti_tank))
    preview = odds_preview(game.state, ["g-arm", "g-arm2"], T, host=game.host)
    assert preview["chooser"] == "defender"  # 2 ARM corps against 1/2 + 1 (rounded up: 2)
    assert "no more ARM/HQ-A" in " ".join(preview["chooser_reasons"])


def test_artillery_plain_aa_is_not_anti_tank(save):
    plain = unit("s-aa", "ussr", T, "aa", 1, size="division")
    game = lab(save, rules=["divisions", "artillery"], units=_units(plain))
    assert odds_preview(game.state, ["g-arm", "g-arm2"], T, host=game.host)["chooser"] == "attacker"


def test_artillery_counters_are_divisions_of_three_kinds():
    kinds = {c["type"] for c in artillery.counters()}
    assert kinds == {"art", "at", "aa"}
    flak = artillery.artillery_counter("ge-aa-1")
    assert flak["size"] == "division" and flak["factors"]["aa"] == 3 and "anti-tank" in flak["flags"]


def test_artillery_needs_divisions(save):
    with pytest.raises(RulesError, match="Artillery needs Divisions ON"):
        lab(save, rules=["artillery"])
    assert not save.exists()
