"""Optional rule 2D10 Land CRT (seeds, "Land Combat Chart": "2 Die 10 Land CRT (an optional
rule)"): OFF the 1D10 tables; ON two dice added, the odds as a modifier, +/-2 modifiers, the
half-disorganized and the bad-weather extra-loss results, the +23 cap."""

from __future__ import annotations

import importlib

from helpers import unit
from optlab import base_units, resolved, seek, to_roll, T

crt = importlib.import_module("plugins.optional.2d10-land-crt")


def _dice(events):
    return next(e for e in events if e.type == "DiceRolled" and "land combat" in e.data["purpose"]).data["results"]


def test_2d10_land_crt_off_rolls_one_die_on_the_1d10_tables(save):
    game, events = to_roll(save)
    assert len(_dice(events)) == 1
    assert "odds 3:2" not in resolved(events).data["drm"]


def test_2d10_land_crt_on_rolls_two_dice_with_the_odds_as_a_modifier(save):
    units = base_units()
    units[2]["face_up"] = False  # a disorganized defender: +2 instead of +1
    game, events = to_roll(save, rules=["2d10-land-crt"], units=units)
    dice, res = _dice(events), resolved(events).data
    assert len(dice) == 2 and res["roll"] == sum(dice)
    # 10 against 3 is 3:1 (one level above 2:1: +2); a disorganized defender +2; the
    # attacking ARM corps in a clear, fine, non-city hex on the Blitz column +1
    assert res["drm"] == {"odds 3:1": 2, "disorganized defenders": 2, "attacking ARM/MECH/HQ-A in the open": 1}
    assert res["modified"] == res["roll"] + 5
    assert res["result"] == crt.read("blitz", res["modified"])


def test_2d10_land_crt_rows_are_capped_at_plus_23():
    assert crt.read("assault", 40) == crt.read("assault", 23) == "*/2S"
    assert crt.read("blitz", -9) == crt.read("blitz", 0)


def test_2d10_land_crt_extra_loss_only_in_bad_weather_or_terrain():
    fine = {"weather": "fine", "terrain": "clear"}
    assert crt.losses("1E/1R", fine) == {"attacker": 1, "defender": 1}
    assert crt.losses("1E/1R", {**fine, "weather": "rain"}) == {"attacker": 2, "defender": 1}
    assert crt.losses("2E/-", {**fine, "terrain": "forest"}) == {"attacker": 3, "defender": 0}


def test_2d10_land_crt_extra_loss_is_taken_in_play(tmp_path):
    game, events = seek(tmp_path, lambda g, ev: "E" in resolved(ev).data["result"].split("/")[0],
                        rules=["2d10-land-crt"], table="assault", weather={"2": "rain"})
    res = resolved(events).data
    assert res["losses"]["attacker"] == int(res["result"][0]) + 1


def test_2d10_land_crt_half_disorganized_keeps_half_the_attackers_organized(tmp_path):
    units = base_units() + [unit("g-inf2", "germany", (206, 52), "inf", 3)]
    units[2]["factors"]["combat"] = 6  # 13 against 6: 2:1, no odds modifier
    def half(g, ev):
        code = resolved(ev).data["result"]
        return "H" in code.split("/")[0] and not code.split("/")[0][0].isdigit()
    game, events = seek(tmp_path, half, rules=["2d10-land-crt"], units=units,
                        attackers=("g-arm", "g-inf", "g-inf2"))
    while not any(e.type == "LandCombatOutcome" for e in events):
        events = game.submit({"type": "FinishStep", "actor": game.state.kernel.sequence.pending[0]}).events
    outcome = next(e for e in events if e.type == "LandCombatOutcome").data
    # three organized attackers: one (the strongest) stays organized, two are disorganized
    assert set(outcome["disorganized"]) >= {"g-inf", "g-inf2"} and "g-arm" not in outcome["disorganized"]
    assert game.state["units"].units["g-arm"].face_up


def test_2d10_land_crt_result_is_charted_on_its_own_table_with_the_column_and_row_read(save):
    """Land Combat Chart: the window's chart of a 2D10 combat is the 2D10 table (asked through
    the front end's land_combat_chart hook), its cell at the column and row read is the result;
    a 1D10 combat is charted on the 1D10 table."""
    from app.combatchart import chart_for

    game, events = to_roll(save, rules=["2d10-land-crt"])
    data = resolved(events).data
    assert data["crt"] == "2d10"
    chart = chart_for(game, data)
    assert chart is not None and chart["title"].startswith("2D10 Land CRT")
    assert chart["columns"] == ["blitz", "assault"] and chart["column"] == data["table"]
    assert chart["cells"][chart["row"]][chart["column"]] == data["result"]
    assert any(code == "H" for code, _ in chart["legend"])


def test_1d10_result_is_charted_on_the_1d10_table(tmp_path):
    from app.combatchart import chart_for

    game, events = to_roll(tmp_path / "one.wif")
    data = resolved(events).data
    assert data["crt"] == "1d10"
    chart = chart_for(game, data)
    assert chart is not None and chart["title"].startswith("1D10 Land CRT")
    assert chart["cells"][chart["row"]][chart["column"]] == data["result"]
