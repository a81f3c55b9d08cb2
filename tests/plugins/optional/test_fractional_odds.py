"""Optional rule Fractional odds (seeds, "Land Combat", Odds ratios): OFF the odds are rounded
down; ON a die rolled just before the combat die, at or under the fraction (rounded down to
10%), resolves the combat on the next higher odds."""

from __future__ import annotations

import importlib

from optlab import base_units, resolved, seek, to_roll

fractional = importlib.import_module("plugins.optional.fractional-odds")


def _units():
    units = base_units()  # 10 against 4: 2.5:1, rounded to 2:1, 50% of the way to 3:1
    units[2]["factors"]["combat"] = 4
    return units


def test_fraction_is_rounded_down_to_ten_percent():
    assert fractional.fraction_percent(27, 10) == 70
    assert fractional.fraction_percent(13, 10) == 60  # 1.3:1 is 60% of the way from 1:1 to 3:2
    assert fractional.fraction_percent(3, 7) == 60  # 1:2.33 is 1:3, 60% of the way to 1:2
    assert fractional.fraction_percent(30, 10) == 0


def test_fractional_odds_off_rounds_down(save):
    game, events = to_roll(save, units=_units())
    res = resolved(events).data
    assert res["odds"] == "2:1" and not any("fractional" in p for p in (e.data.get("purpose", "") for e in events))


def test_fractional_odds_on_a_low_roll_uses_the_higher_odds(tmp_path):
    game, events = seek(tmp_path, lambda g, ev: resolved(ev).data["odds"] == "3:1",
                        rules=["fractional-odds"], units=_units())
    res = resolved(events).data
    roll = next(e for e in events if e.type == "DiceRolled" and "fractional" in e.data["purpose"])
    assert roll.data["results"][0] <= 5 and "50%" in roll.data["purpose"]
    assert any(k.startswith("fractional odds (50%") for k in res["shifts"])


def test_fractional_odds_on_a_high_roll_keeps_the_lower_odds(tmp_path):
    game, events = seek(tmp_path, lambda g, ev: resolved(ev).data["odds"] == "2:1",
                        rules=["fractional-odds"], units=_units())
    dice = [e for e in events if e.type == "DiceRolled"]
    assert "fractional" in dice[0].data["purpose"] and dice[0].data["results"][0] > 5
    assert "land combat" in dice[1].data["purpose"]  # the odds roll comes just before the combat die
