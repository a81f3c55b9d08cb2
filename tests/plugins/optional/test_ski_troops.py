"""Optional rule Ski troops (seeds, "Weather Report": "MTN, ski troops (AsA option 65), Swedish,
Finnish, Norwegian, or elite Soviet units" lessen the snow and blizzard odds reduction by 2): OFF a
ski unit is not a snow unit; ON it counts towards the half of the attackers."""

from __future__ import annotations

import importlib

from helpers import unit
from optlab import T, lab

from plugins.rules.combat import odds_preview

ski = importlib.import_module("plugins.optional.ski-troops")


def _units(flagged=False):
    skier = (unit("g-ski", "germany", (206, 51), "inf", 2, size="division", flags=["ski"]) if flagged
             else unit("g-ski", "germany", (206, 51), "ski", 2, size="division"))
    return [skier, unit("g-inf", "germany", (206, 52), "inf", 4), unit("s-inf", "ussr", T, "inf", 2)]


def test_ski_troops_off_are_no_snow_units(save):
    game = lab(save, units=_units(), weather={"2": "snow"})
    prev = odds_preview(game.state, ["g-ski", "g-inf"], T, host=game.host)
    assert not prev["snow_units_eligible"] and prev["shifts"] == {"weather (snow)": -2} and prev["odds"] == "3:2"


def test_ski_troops_on_lessen_the_snow_reduction(save):
    game = lab(save, rules=["divisions", "ski-troops"], units=_units(), weather={"2": "snow"})
    prev = odds_preview(game.state, ["g-ski", "g-inf"], T, host=game.host)
    assert prev["snow_units_eligible"] and prev["shifts"] == {} and prev["odds"] == "3:1"


def test_ski_troops_on_blizzard_becomes_minus_one_and_flag_counts(save):
    game = lab(save, rules=["divisions", "ski-troops"], units=_units(flagged=True), weather={"2": "blizzard"})
    prev = odds_preview(game.state, ["g-ski", "g-inf"], T, host=game.host)
    assert prev["snow_units_eligible"] and prev["shifts"] == {"weather (blizzard)": -1}


def test_ski_troops_no_benefit_in_rain(save):
    game = lab(save, rules=["divisions", "ski-troops"], units=_units(), weather={"2": "rain"})
    assert not odds_preview(game.state, ["g-ski", "g-inf"], T, host=game.host)["snow_units_eligible"]


def test_ski_counters_are_ski_divisions():
    assert ski.counters() and all(c["type"] == "ski" and "ski" in c["flags"] for c in ski.counters())
