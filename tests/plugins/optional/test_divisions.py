"""Optional rule Divisions (seeds, "Break Down Units", "Reform Units", "Break Down Corps/Armies",
"Reform Corps/Armies"): OFF both end-of-turn phases are skipped and no division enters play; ON a
corps breaks down into force-pool divisions and two divisions (one MOT) reform into a corps."""

from __future__ import annotations

import pytest
from helpers import ok, refused, unit
from optlab import lab

from plugins.optional.framework import RulesError

BREAK_DOWN = "turn.end-of-turn.break-down-corps-armies"
REFORM = "turn.end-of-turn.reform-corps-armies"
H = (206, 51)  # Poland, next to the Soviet border


def _units(**extra):
    return [unit("g-arm", "germany", H, "arm", 7, move=5), unit("g-inf", "germany", (206, 53), "inf", 4),
            unit("g-hq", "germany", (205, 51), "hq-i", 2), unit("s-inf", "ussr", (230, 52), "inf", 3),
            *extra.get("more", [])]


def _game(save, rules=("divisions",), units=None, start_at=BREAK_DOWN):
    return lab(save, rules=rules, units=units or _units(), start_at=start_at, plugins=("combat", "land"))


def _where(game, uid):
    u = game.state["units"].units[uid]
    return u.where, (tuple(u.hex) if u.hex else None), u.face_up


def _to_reform(game):
    for power in ("germany", "ussr"):
        ok(game, {"type": "FinishStep", "actor": power})
    assert game.state.kernel.sequence.current.endswith(REFORM)


def _break_down(game):
    return ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-arm", "first": "ge-div-arm-3",
                     "second": "ge-div-mot-1"})


def test_divisions_off_skips_break_down_and_reform(save):
    game = _game(save, rules=())
    skipped = {e.data["step"] for e in game.history() if e.type == "StepSkipped"}
    assert {f"wif.{BREAK_DOWN}", f"wif.{REFORM}"} <= skipped
    refused(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-arm", "second": "x"}, "unknown command")
    assert not any(u.size == "division" for u in game.state["units"].units.values())


def test_break_down_corps_armies_into_force_pool_divisions(save):
    # 7-factor ARM corps: an ARM division (3) and a MOT division (2) with 5 > 4 factors is too
    # many; ARM 2 + INF 1 is within half (rounded up).
    game = _game(save)
    assert game.state.kernel.sequence.current.endswith(BREAK_DOWN)
    refused(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-arm", "first": "ge-div-arm-1",
                   "second": "ge-div-mot-1"}, "Divisions", "can't exceed half", "(4)")
    events = ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-arm", "first": "ge-div-arm-3",
                       "second": "ge-div-inf-4"})
    assert [e.type for e in events][:2] == ["UnitBrokenDown", "UnitMoved"]
    assert _where(game, "g-arm") == ("broken-down-pool", None, True)
    for div in ("ge-div-arm-3", "ge-div-inf-4"):
        assert _where(game, div) == ("map", H, True)
        assert game.state["units"].units[div].size == "division"
    assert game.state["divisions"].from_breakdown == {"ge-div-arm-3": "g-arm", "ge-div-inf-4": "g-arm"}


def test_break_down_units_refusals_name_the_rule(save):
    more = [unit("g-cav", "germany", (205, 52), "cav", 2),
            unit("r-inf", "germany", (204, 52), "inf", 3, nationality="romania"),
            unit("g-dis", "germany", (204, 51), "inf", 4, face_up=False),
            unit("g-front", "germany", (229, 52), "inf", 4)]
    game = _game(save, units=_units(more=more))
    cmd = {"type": "BreakDownUnit", "actor": "germany", "second": "ge-div-inf-4"}
    refused(game, {**cmd, "unit": "g-hq"}, "Divisions", "no divisions to break down into")
    refused(game, {**cmd, "unit": "g-cav"}, "Divisions", "no CAV division is available")
    refused(game, {**cmd, "unit": "r-inf"}, "Divisions", "only units of major powers")
    refused(game, {**cmd, "unit": "g-dis"}, "Divisions", "disorganized")
    refused(game, {**cmd, "unit": "g-front"}, "Divisions", "enemy ZOC")
    refused(game, {**cmd, "unit": "s-inf"}, "Divisions", "controlled by ussr")
    refused(game, {**cmd, "unit": "g-inf", "first": "ge-div-arm-1"}, "Divisions", "not one of the INF divisions")
    refused(game, {**cmd, "unit": "nobody"}, "Divisions", "no unit")
    before = game.state.kernel.seq
    ok(game, {**cmd, "unit": "g-arm", "first": "ge-div-arm-3"})
    assert game.state.kernel.seq > before
    refused(game, {**cmd, "unit": "ge-div-arm-3"}, "Divisions", "only a corps or army breaks down")


def test_ss_corps_breaks_down_into_an_ss_division(save):
    game = _game(save, units=_units(more=[unit("g-ss", "germany", (205, 52), "mot", 4, flags=["ss"])]))
    from plugins.optional.divisions import breakdown_options

    options = breakdown_options(game.state, game.state["units"].units["g-ss"])
    assert [o["id"] for o in options["first"]] == ["ge-div-ss-mot-1"]
    assert "ge-div-ss-inf-1" in [o["id"] for o in options["second"]]
    plain = breakdown_options(game.state, game.state["units"].units["g-inf"])
    assert not any("ss" in o["flags"] for o in plain["first"] + plain["second"])


def test_reform_units_draws_a_corps_from_the_pools(save):
    game = _game(save)
    _break_down(game)
    _to_reform(game)
    events = ok(game, {"type": "ReformUnits", "actor": "germany", "divisions": ["ge-div-arm-3", "ge-div-mot-1"]})
    reformed = next(e for e in events if e.type == "DivisionsReformed").data
    # ARM (the non-MOT division's type), fewer than 2 x 4 factors: only g-arm in the pools
    assert reformed["corps"] == "g-arm" and reformed["candidates"] == ["g-arm"] and reformed["chosen_by"] == "die"
    assert _where(game, "g-arm") == ("map", H, True)
    assert _where(game, "ge-div-arm-3")[0] == _where(game, "ge-div-mot-1")[0] == "force-pool"


def test_reform_units_rolls_among_several_candidates(save):
    pool = [unit(f"g-arm{i}", "germany", (0, 0), "arm", 5, where="force-pool") for i in (1, 2, 3)]
    pool.append(unit("g-big", "germany", (0, 0), "arm", 9, where="force-pool"))  # 9 >= 2 x 4
    for u in pool:
        u["hex"] = None
    game = _game(save, units=_units(more=pool))
    _break_down(game)
    _to_reform(game)
    events = ok(game, {"type": "ReformUnits", "actor": "germany", "divisions": ["ge-div-mot-1", "ge-div-arm-3"]})
    roll = next(e for e in events if e.type == "DiceRolled")
    reformed = next(e for e in events if e.type == "DivisionsReformed").data
    assert roll.data["faces"] == 4 and reformed["candidates"] == ["g-arm", "g-arm1", "g-arm2", "g-arm3"]
    assert reformed["corps"] == reformed["candidates"][roll.data["results"][0] - 1]


def test_reform_units_refusals_name_the_rule(save):
    more = [unit("ge-div-inf-1", "germany", (204, 51), "inf", 2, size="division"),
            unit("ge-div-mot-2", "germany", (204, 52), "mot", 2, size="division"),
            unit("ge-div-inf-2", "germany", (204, 52), "inf", 2, size="division")]
    game = _game(save, units=_units(more=more), start_at=REFORM)
    cmd = {"type": "ReformUnits", "actor": "germany"}
    refused(game, {**cmd, "divisions": ["ge-div-inf-1"]}, "Divisions", "exactly 2 divisions")
    refused(game, {**cmd, "divisions": ["ge-div-inf-1", "ge-div-mot-2"]}, "Divisions", "stacked together")
    refused(game, {**cmd, "divisions": ["ge-div-inf-2", "g-inf"]}, "Divisions", "not a division")
    more2 = [unit("ge-div-inf-3", "germany", (204, 52), "inf", 2, size="division")]
    game.close()
    game = _game(save.with_name("b.wif"), units=_units(more=more + more2), start_at=REFORM)
    refused(game, {**cmd, "divisions": ["ge-div-inf-2", "ge-div-inf-3"]}, "Divisions", "MOT division")
    refused(game, {**cmd, "divisions": ["ge-div-inf-2", "ge-div-mot-2"]}, "Divisions", "no INF corps or army")
    refused(game, {**cmd, "divisions": ["ge-div-inf-2", "ge-div-mot-2"], "corps": "g-inf"}, "Divisions")


def test_reform_units_choosing_the_corps_needs_unlimited_breakdown(save):
    game = _game(save)
    _break_down(game)
    _to_reform(game)
    refused(game, {"type": "ReformUnits", "actor": "germany", "divisions": ["ge-div-arm-3", "ge-div-mot-1"],
                   "corps": "g-arm"}, "drawn at random", "Unlimited breakdown")


def test_divisions_prerequisite_of_the_division_rules(save):
    for rule in ("unlimited-breakdown", "artillery", "combat-engineers", "ski-troops"):
        with pytest.raises(RulesError, match="needs Divisions ON"):
            _game(save, rules=(rule,))
    assert not save.exists()


def test_divisions_cannot_be_toggled_during_play(save):
    game = _game(save, rules=())
    refused(game, {"type": "ToggleOptionalRule", "actor": "germany", "rule": "divisions", "on": True})
