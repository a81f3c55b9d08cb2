"""Air rules, each seed procedure built in the lab scenario on the real map.

Map facts used: (201,51) and (201,52) are German land hexes 3 hexes from (203,54), a Soviet
land hex; (207,53) is Soviet, 5 hexes from it; (187,59) is German, 18 hexes away.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from helpers import air_unit, ok, refused, types, unit
from kernel.game import Game
from plugins.rules import air as air_plugin

AM = "wif.procedures.air-mission"
TARGET = (203, 54)
GE_BASE, GE_BASE2, GE_FAR, SU_BASE = (201, 51), (201, 52), (187, 59), (207, 53)
land_unit = partial(unit, combat=3, move=3)  # a 3-3 infantry army


STUKA = air_unit("stuka", "germany", "tac", GE_BASE, air=1, tactical=3)
ME109 = air_unit("me109", "germany", "ftr", GE_BASE, air=5, tactical=1)
I16 = air_unit("i16", "ussr", "ftr", SU_BASE, air=3, range_=10)
RIFLE = land_unit("r1", "ussr", TARGET)


def lab(save, units, seed=3, actions=None, start="turn.impulse.independent-air.ground-strike", **extra):
    options = {"units": units, "actions": actions or {"germany": "air"}, "start_at": start, **extra}
    return Game.new("lab", save, seed=seed, options=options, extra_plugins=["air"])


def support_lab(save, units, attacks, **extra):
    """A lab game at the Ground Support mission: Germany (Land action) has declared ``attacks``
    (hex -> attacking German land units) in Land Combat Declaration."""
    game = lab(save, units, actions=extra.pop("actions", {"germany": "land"}),
               start="turn.impulse.land.combat.land-combat-declaration", **extra)
    for hex_, attackers in attacks.items():
        ok(game, type="DeclareAttack", actor="germany", hex=list(hex_), units=list(attackers))
    ok(game, type="FinishStep", actor="germany")
    return game


def current(game):
    return game.state.kernel.sequence.current


def game_events(game):
    return list(game.store.records())


def units(game):
    return game.state["units"].units


# ---------------------------------------------------------------- Ground Strike
def test_ground_strike_disorganizes_targets_on_a_roll_at_most_the_tactical_factor(save):
    game = lab(save, [STUKA, RIFLE, land_unit("r2", "ussr", TARGET)], seed=5)
    # CAP is skipped: the USSR has no fighters; the phasing side flies bombers
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    events = ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    assert types(events) == ["ActivityUsed", "AirUnitFlew", "UnitMoved"]
    assert events[0].data == {"power": "germany", "kind": "air-mission", "count": 1}
    events = ok(game, type="FinishStep", actor="germany")
    rolls = [e for e in events if e.type == "DiceRolled"]
    strikes = [e for e in events if e.type == "GroundStrikeRolled"]
    assert [r.data["purpose"] for r in rolls] == ["ground strike at (203, 54): stuka vs r1", "ground strike at (203, 54): stuka vs r2"]
    assert all(len(r.data["results"]) == 1 and r.data["faces"] == 10 for r in rolls)
    for roll, strike in zip(rolls, strikes):
        assert strike.data["die"] == roll.data["results"][0]
        assert strike.data["success"] == (strike.data["die"] <= 3)
        assert units(game)[strike.data["target"]].face_up == (not strike.data["success"])
    assert "AirMissionPerformed" in types(events)
    assert current(game) == f"{AM}.return-to-base-phasing"
    # Return to Base by Phasing Side: the bomber goes home face down (disorganized)
    events = ok(game, type="ReturnAirToBase", actor="germany", unit="stuka", hex=list(GE_BASE))
    assert units(game)["stuka"].hex == GE_BASE and not units(game)["stuka"].face_up
    assert "DigressionEnded" in types(events)  # the mission is over; play goes on
    text = [game.describe(e) for e in events]
    assert "germany stuka (stuka) returns to base at (201, 51)" in text
    before = game.state.to_json()
    game.close()
    with Game.open(save) as again:  # the log replays to the same state
        assert again.state.to_json() == before


def test_ground_strike_phase_is_skipped_without_an_allowing_action(save):
    game = lab(save, [STUKA, RIFLE], actions={"germany": "pass"})
    assert not current(game).startswith(AM)
    skipped = [e for e in game_events(game) if e.type == "StepSkipped"
               and e.data["step"] == "wif.turn.impulse.independent-air.ground-strike"]
    assert skipped[0].data["reason"] == "no phasing power's action allows Ground Strike"


# ---------------------------------------------------------------- Air-to-air Combat
def test_air_to_air_strength_front_fighter_plus_one_per_fighter_half_per_carrier_plane(save):
    game = lab(save, [STUKA, RIFLE, air_unit("f2", "germany", "ftr", GE_BASE, air=2),
                      air_unit("cv1", "germany", "carrier-air", GE_BASE, air=4), ME109])
    s = game.state
    assert air_plugin.strength(s, {"fighters": ["me109", "f2", "cv1"], "bombers": ["stuka"]}) == (5 + 1 + 0.5, True)
    assert air_plugin.strength(s, {"fighters": [], "bombers": ["stuka"]}) == (1, True)  # front bomber's rating
    unarmed = {**STUKA, "id": "ju52", "flags": ["unarmed"]}
    game.close()
    game = lab(save.with_name("b.wif"), [unarmed, RIFLE])
    assert air_plugin.strength(game.state, {"fighters": [], "bombers": ["ju52"]}) == (1, False)  # does not roll


def test_air_to_air_combat_inactive_side_rolls_first_2d10_and_results_apply(save):
    game = lab(save, [STUKA, ME109, RIFLE, I16], seed=55)
    ok(game, type="FinishStep", actor="ussr")  # no CAP
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="me109", hex=list(TARGET), role="escort")
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.non-phasing-side-flies-interceptors"
    ok(game, type="FlyIntercept", actor="ussr", unit="i16", hex=list(TARGET))
    # Phasing Side Flies Interceptors is skipped: germany has no fighter left on the ground
    events = ok(game, type="FinishStep", actor="ussr")
    round_ = next(e for e in events if e.type == "AirCombatRoundStarted")
    assert round_.data["strength"] == {"allies": 3, "axis": 5}
    assert round_.data["value"] == {"allies": -2, "axis": 2}
    first = next(e for e in events if e.type == "DiceRolled")
    assert "allies fires" in first.data["purpose"] and len(first.data["results"]) == 2  # inactive side first
    rolled = next(e for e in events if e.type == "AirCombatRolled")
    assert rolled.data["modified"] == sum(first.data["results"]) - 2
    assert rolled.data["result"] == air_plugin.a2a_result(rolled.data["modified"])
    # seed 55: allies roll 5+9-2 = 12, DA: the owner (germany) picks its front fighter or bomber
    assert rolled.data["result"] == "DA" and rolled.data["candidates"] == ["me109", "stuka"]
    assert current(game) == "wif.procedures.air-to-air-combat.round.affected-attacking-unit"
    assert "one of: me109, stuka" in refused(game, type="ChooseAirCasualty", actor="germany", unit="r1")
    events = ok(game, type="ChooseAirCasualty", actor="germany", unit="me109")
    applied = next(e for e in events if e.type == "AirCombatResultApplied")
    assert applied.data == {"unit": "me109", "effect": "aborted", "cause": "DA"}
    assert not units(game)["me109"].face_up  # an aborted air unit becomes disorganized
    # Return to Base Digression: the aborted escort goes home before the attacker fires
    assert current(game) == "wif.digressions.return-to-base"
    events = ok(game, type="ReturnAirToBase", actor="germany", unit="me109", hex=list(GE_BASE2))
    second = [e for e in events if e.type == "DiceRolled"]
    assert "axis fires" in second[0].data["purpose"]  # then the active side, with its round-1 value
    axis = next(e for e in events if e.type == "AirCombatRolled")
    assert axis.data["value"] == 2 and axis.data["modified"] == sum(second[0].data["results"]) + 2
    # seed 55: axis rolls 3+10+2 = 15, AA: the roller aborts the only opposing unit, the I-16
    assert axis.data["result"] == "AA" and axis.data["candidates"] == ["i16"]
    assert {"unit": "i16", "effect": "aborted", "cause": "AA"} in [e.data for e in events if e.type == "AirCombatResultApplied"]
    assert current(game) == "wif.digressions.return-to-base" and game.state.kernel.sequence.pending == ["ussr"]
    events = ok(game, type="ReturnAirToBase", actor="ussr", unit="i16", hex=list(SU_BASE))
    text = [game.describe(e) for e in events]
    assert "axis rolls 3+10 +2 = 15: AA" in [game.describe(e) for e in game.history() if e.type == "AirCombatRolled"]
    assert "Air-to-air combat over (203, 54) ends: one side has no aircraft left" in text
    # the bomber survived and strikes; then both sides return to base
    assert "GroundStrikeRolled" in types(events)
    assert current(game) == f"{AM}.return-to-base-phasing"
    ok(game, type="ReturnAirToBase", actor="germany", unit="stuka", hex=list(GE_BASE))
    assert not current(game).startswith("wif.procedures")  # the aborted units are home already


def test_air_to_air_voluntary_abort_aborts_every_unit_of_the_side(save):
    game = lab(save, [STUKA, ME109, RIFLE, I16], seed=8)
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="me109", hex=list(TARGET), role="escort")
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="FlyIntercept", actor="ussr", unit="i16", hex=list(TARGET))
    ok(game, type="FinishStep", actor="ussr")
    # answer whatever choices come until the abort-or-stay decision
    while current(game).endswith("affected-attacking-unit") or current(game).endswith("affected-defending-unit"):
        who = game.state.kernel.sequence.pending[0]
        unit = air_plugin.air(game.state).mission.combat.pending["candidates"][0]
        ok(game, type="ChooseAirCasualty", actor=who, unit=unit)
    assert current(game).endswith("attacker-aborts-or-stays")
    events = ok(game, type="AirCombatAbortOrStay", actor="germany", abort=True)
    assert "axis aborts the air combat" in [game.describe(e) for e in events]
    aborted = {e.data["unit"] for e in events if e.type == "AirCombatResultApplied" and e.data["cause"] == "voluntary abort"}
    assert aborted and all(not units(game)[u].face_up for u in aborted)
    # the aborted units return to base at once (Return to Base Digression)
    assert current(game) == "wif.digressions.return-to-base"
    for unit in sorted(aborted):
        events = ok(game, type="ReturnAirToBase", actor="germany", unit=unit, hex=list(GE_BASE2))
    # the combat is over (the defender has nobody left to fight): no second choice
    assert any(e.type == "AirCombatEnded" and "voluntary abort" in e.data["reason"] for e in events)
    # aborted bombers do not strike; a bomber already cleared through still does
    cleared = air_plugin.air(game.state).mission.cleared
    assert cleared == ["stuka"] and aborted == {"me109"}  # seed 8: DC cleared the Ju87 through first
    assert [e.data["bomber"] for e in events if e.type == "GroundStrikeRolled"] == ["stuka"]
    assert current(game) == f"{AM}.return-to-base-phasing"


def test_air_to_air_combat_results_table_is_authored_data_with_its_source():
    raw = json.loads((air_plugin.DATA / "air_to_air_table.json").read_text())
    assert "Air-to-air Combat Results Table" in raw["source"] and raw["approximations"]
    codes = {row["result"] for row in raw["ladder"]}
    assert codes == {"AX", "DX", "AC", "DC", "AA", "DA", "-"}
    assert air_plugin.a2a_result(2 - 20) == "-" and air_plugin.a2a_result(20 + 5) == "AX"
    # a better total never gives a worse result
    order = ["-", "DC", "AC", "DA", "AA", "DX", "AX"]
    results = [order.index(air_plugin.a2a_result(t)) for t in range(-10, 30)]
    assert results == sorted(results)


# ---------------------------------------------------------------- CAP, interception, escort
def test_combat_air_patrol_full_range_to_a_threatened_hex_and_returns_face_down(save):
    far_i16 = air_unit("i16", "ussr", "ftr", (206, 57), air=3, range_=5)
    game = lab(save, [STUKA, RIFLE, far_i16])
    assert current(game) == f"{AM}.combat-air-patrol"
    assert "not threatened" in refused(game, type="FlyCAP", actor="ussr", unit="i16", hex=list(SU_BASE))
    assert "can fly 5 hexes for cap" in refused(game, type="FlyCAP", actor="ussr", unit="i16", hex=[201, 51]) \
        or "not threatened" in refused(game, type="FlyCAP", actor="ussr", unit="i16", hex=[201, 51])
    events = ok(game, type="FlyCAP", actor="ussr", unit="i16", hex=list(TARGET))  # 5 hexes: full range
    assert "ActivityUsed" not in types(events)  # CAP does not count against limits
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="FinishStep", actor="germany")  # no bombers fly: the rest is skipped
    assert current(game) == f"{AM}.return-to-base-non-phasing"
    ok(game, type="ReturnAirToBase", actor="ussr", unit="i16", hex=[206, 57])
    assert not units(game)["i16"].face_up


def test_interception_uses_half_range_and_escort_needs_a_bomber(save):
    game = lab(save, [STUKA, ME109, RIFLE, air_unit("i16", "ussr", "ftr", SU_BASE, air=3, range_=9)])
    ok(game, type="FinishStep", actor="ussr")
    assert "no friendly bomber" in refused(game, type="FlyMission", actor="germany", unit="me109",
                                           hex=list(TARGET), role="escort")
    assert "no tactical factor" not in refused(game, type="FlyMission", actor="germany", unit="stuka", hex=[207, 53])
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="me109", hex=list(TARGET), role="escort")
    ok(game, type="FinishStep", actor="germany")
    reason = refused(game, type="FlyIntercept", actor="ussr", unit="i16", hex=list(TARGET))
    assert reason == "Interception (half range): ussr i16 (i16) can fly 4 hexes for intercept, hex (203, 54) is 5 hexes away"
    assert "no enemy aircraft" in refused(game, type="FlyIntercept", actor="ussr", unit="i16", hex=list(SU_BASE))


# ---------------------------------------------------------------- Ground Support
def test_ground_support_adds_tactical_factors_to_the_attacked_hex(save):
    units_ = [STUKA, {**STUKA, "id": "stuka2", "hex": list(GE_BASE2)}, RIFLE, land_unit("g1", "germany", (202, 53)),
              air_unit("il2", "ussr", "tac", (206, 57), air=1, tactical=2, range_=6)]  # not in the SU_BASE swamp:
    game = support_lab(save, units_, {TARGET: ["g1"]})  # no aircraft may stay there at the end of the declaration
    assert air_plugin.attacked_hexes(game.state) == {TARGET}
    assert current(game) == f"{AM}.phasing-side-flies-bombers"  # no Soviet fighters: no CAP
    assert "not a target" in refused(game, type="FlyMission", actor="germany", unit="stuka", hex=[202, 53])
    events = ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    assert "ActivityUsed" not in types(events)  # ground support is not counted
    ok(game, type="FlyMission", actor="germany", unit="stuka2", hex=list(TARGET))
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.non-phasing-side-flies-bombers"  # only in Ground Support
    ok(game, type="FlyMission", actor="ussr", unit="il2", hex=list(TARGET))
    events = ok(game, type="FinishStep", actor="ussr")
    added = {e.data["side"]: e.data["factors"] for e in events if e.type == "AirGroundSupportFlown"}
    assert added == {"axis": 6, "allies": 2}
    assert air_plugin.ground_support(game.state, TARGET) == {"axis": 6, "allies": 2}
    assert "Ground support: axis adds 6 tactical factors to the combat at (203, 54)" in [game.describe(e) for e in events]


# ---------------------------------------------------------------- Air Rebase
def test_air_rebase_counts_rebases_within_twice_the_range_and_does_not_disorganize(save):
    game = lab(save, [STUKA, air_unit("far", "germany", "ftr", GE_FAR, range_=4)], actions={"germany": "land"},
               start="turn.impulse.air-rebase.air-rebase")
    events = ok(game, type="RebaseAir", actor="germany", unit="stuka", hex=list(GE_BASE2))
    assert types(events) == ["ActivityUsed", "AirUnitRebased", "UnitMoved"]
    assert events[0].data["kind"] == "air-rebase"
    assert units(game)["stuka"].hex == GE_BASE2 and units(game)["stuka"].face_up
    assert refused(game, type="RebaseAir", actor="germany", unit="far", hex=list(GE_BASE)) == \
        "Air Rebase: germany far (far) can fly 8 hexes for rebase, hex (201, 51) is 18 hexes away"
    assert "not a land hex controlled by your side" in refused(game, type="RebaseAir", actor="germany", unit="stuka",
                                                                hex=list(TARGET))
    assert "not an air unit of germany" in refused(game, type="RebaseAir", actor="germany", unit="i16", hex=list(GE_BASE))


# ---------------------------------------------------------------- Return to Base
def test_return_to_base_range_friendly_hex_and_units_without_a_base_are_destroyed(save):
    short = air_unit("short", "germany", "tac", (201, 51), tactical=2, range_=3)
    game = lab(save, [STUKA, short, RIFLE], seed=2)
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="short", hex=list(TARGET))
    # take (201,51)/(201,52) … away: no German hex is within 3 of the target once they fall
    events = ok(game, type="FinishStep", actor="germany")
    assert not any(e.type == "AirUnitDestroyed" for e in events)  # (201,51) is 3 hexes away
    assert "not a land hex controlled by your side" in refused(game, type="ReturnAirToBase", actor="germany",
                                                                unit="stuka", hex=list(SU_BASE))
    assert "can fly 4 hexes for return" in refused(game, type="ReturnAirToBase", actor="germany", unit="stuka",
                                                   hex=list(GE_FAR))
    assert "did not fly" in refused(game, type="ReturnAirToBase", actor="germany", unit="stuka2", hex=list(GE_BASE)) \
        or "not an air unit" in refused(game, type="ReturnAirToBase", actor="germany", unit="stuka2", hex=list(GE_BASE))
    ok(game, type="ReturnAirToBase", actor="germany", unit="stuka", hex=list(GE_BASE))
    assert current(game) == f"{AM}.return-to-base-phasing"  # short still flying
    ok(game, type="ReturnAirToBase", actor="germany", unit="short", hex=list(GE_BASE2))
    assert not current(game).startswith(AM)


def test_return_to_base_destroys_units_with_no_friendly_base_in_range(save):
    short = air_unit("short", "germany", "tac", (201, 51), tactical=2, range_=3)
    game = lab(save, [short, RIFLE], seed=2, hex_control={"201,51": "ussr", "201,52": "ussr"})
    ok(game, type="FlyMission", actor="germany", unit="short", hex=list(TARGET))
    events = ok(game, type="FinishStep", actor="germany")
    destroyed = [e for e in events if e.type == "AirUnitDestroyed"]
    assert [d.data for d in destroyed] == [{"unit": "short", "reason": "no friendly base within range"}]
    assert units(game)["short"].where == "force-pool"
    assert not current(game).startswith(AM)  # nothing left to return


# ---------------------------------------------------------------- bad input
def test_bad_input_flying_is_refused_naming_the_rule(save):
    game = lab(save, [STUKA, {**ME109, "face_up": False}, air_unit("far", "germany", "tac", GE_FAR, tactical=2),
                      RIFLE, land_unit("g1", "germany", (202, 53))])
    # wrong phase: a rebase during the mission, a mission during CAP is not this power's step
    assert "not allowed now" in refused(game, type="RebaseAir", actor="germany", unit="stuka", hex=list(GE_BASE2))
    assert "face down" in refused(game, type="FlyMission", actor="germany", unit="me109", hex=list(TARGET), role="escort")
    assert refused(game, type="FlyMission", actor="germany", unit="far", hex=list(TARGET)) == \
        "Ground Strike: germany far (far) can fly 4 hexes for mission, hex (203, 54) is 18 hexes away"
    assert "not a target" in refused(game, type="FlyMission", actor="germany", unit="stuka", hex=[202, 53])
    assert "belongs to ussr" in refused(game, type="FlyMission", actor="germany", unit="r1", hex=list(TARGET))
    assert "nothing (more) to decide" in refused(game, type="FlyMission", actor="ussr", unit="r1", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    assert "already flying" in refused(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))


def test_bad_input_flying_without_an_allowing_action(save):
    # Ground Support: "All major powers on both sides can fly ground support missions, except
    # for major powers on the phasing side which chose a Pass action."  The lab's axis is
    # Germany alone, whose attack needs a Land action: so another phasing power's Pass is
    # played by changing Germany's action in memory once the attack is declared.
    from plugins.rules.core import world

    game = support_lab(save, [STUKA, RIFLE, land_unit("g1", "germany", (202, 53))], {TARGET: ["g1"]})
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    world(game.state).impulses["germany"].action = "pass"
    reason = refused(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    assert "germany chose a Pass action" in reason and "Ground Support" in reason
    assert world(game.state).impulses["germany"].action == "land"  # a refusal rebuilds the state from the log


def test_bad_input_over_the_activity_limits(save):
    activities = pytest.importorskip("plugins.rules.turn.activities")
    assert activities  # the turn plugin counts the limits; flying past them is refused
    bombers = [{**STUKA, "id": f"s{i}"} for i in range(12)]
    game = lab(save, bombers + [RIFLE], actions={"germany": "naval"})
    reasons = []
    for b in bombers:
        out = game.submit({"type": "FlyMission", "actor": "germany", "unit": b["id"], "hex": list(TARGET)})
        if not out.accepted:
            reasons.append(out.reason)
    assert reasons, "a Naval action allows only a few air missions"


# ---------------------------------------------------------------- Air-to-air sub-machine
RTB_DIGRESSION = "wif.digressions.return-to-base"
HOME = {"germany": GE_BASE2, "ussr": SU_BASE}


def return_aborted(game):
    """Answer a Return to Base digression: every aborted unit flies home."""
    for unit in list(air_plugin.air(game.state).mission.returning):
        power = units(game)[unit].power
        ok(game, type="ReturnAirToBase", actor=power, unit=unit, hex=list(HOME[power]))
T2 = (207, 52)


def _two_and_two(save, seed, same_hex=True, players=None):
    units_ = [air_unit("s1", "germany", "tac", GE_BASE, tactical=3, range_=8),
              air_unit("s2", "germany", "tac", GE_BASE, tactical=2, range_=8),
              air_unit("f1", "germany", "ftr", GE_BASE, air=5, range_=8),
              air_unit("f2", "germany", "ftr", GE_BASE, air=4, range_=8),
              RIFLE, land_unit("r2", "ussr", T2),
              air_unit("i1", "ussr", "ftr", SU_BASE, air=3, range_=10),
              air_unit("i2", "ussr", "ftr", SU_BASE, air=2, range_=10)]
    if players:
        options = {"units": units_, "actions": {"germany": "air"}, "start_at": "turn.impulse.independent-air.ground-strike"}
        game = Game.new("lab", save, seed=seed, options=options, extra_plugins=["air"], players=players)
    else:
        game = lab(save, units_, seed=seed)
    second = TARGET if same_hex else T2
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="FlyMission", actor="germany", unit="s1", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="s2", hex=list(second))
    ok(game, type="FlyMission", actor="germany", unit="f1", hex=list(TARGET), role="escort")
    ok(game, type="FlyMission", actor="germany", unit="f2", hex=list(second), role="escort")
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="FlyIntercept", actor="ussr", unit="i1", hex=list(TARGET))
    ok(game, type="FlyIntercept", actor="ussr", unit="i2", hex=list(second))
    return game, ok(game, type="FinishStep", actor="ussr")


def test_air_to_air_arrange_units_sets_the_front_units_before_the_first_roll(save):
    game, events = _two_and_two(save, seed=3)
    assert current(game) == "wif.procedures.air-to-air-combat.round.arrange-units"
    assert not any(e.type == "DiceRolled" for e in events)
    assert "units cannot change lines" in refused(game, type="ArrangeAirLine", actor="germany",
                                                  fighters=["f2", "s1"], bombers=["f1", "s2"])
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])
    events = ok(game, type="ArrangeAirLine", actor="ussr", fighters=["i1", "i2"], bombers=[])
    round_ = next(e for e in events if e.type == "AirCombatRoundStarted")
    # axis: front f2 (4) + 1 for f1 = 5; allies: front i1 (3) + 1 for i2 = 4
    assert round_.data["strength"] == {"allies": 4, "axis": 5}
    rolled = next(e for e in events if e.type == "AirCombatRolled")
    assert rolled.data["side"] == "allies" and rolled.data["candidates"]
    if rolled.data["result"] in ("AX", "DX", "AA", "DA"):
        assert rolled.data["candidates"] == ["f2", "s2"]  # the front fighter or the front bomber


def test_air_to_air_select_location_when_several_combats_then_each_in_turn(save):
    game, events = _two_and_two(save, seed=3, same_hex=False)
    assert next(e for e in events if e.type == "AirCombatsFound").data["hexes"] == [list(TARGET), list(T2)] or \
        [tuple(h) for h in next(e for e in events if e.type == "AirCombatsFound").data["hexes"]] == [TARGET, T2]
    assert current(game) == "wif.procedures.air-to-air-combat.select-location"
    assert game.state.kernel.sequence.pending == ["germany"]
    assert "no air combat waits at (201, 51)" in refused(game, type="SelectAirCombat", actor="germany", hex=list(GE_BASE))
    events = ok(game, type="SelectAirCombat", actor="germany", hex=list(T2))
    assert next(e for e in events if e.type == "AirCombatSelected").data["hex"] in ([207, 52], (207, 52))
    fought = []
    for _ in range(40):  # answer every decision until both combats are over
        cur = current(game)
        if cur == RTB_DIGRESSION:
            return_aborted(game)
            continue
        if not cur.startswith("wif.procedures.air-to-air-combat"):
            break
        who = game.state.kernel.sequence.pending[0]
        combat = air_plugin.air(game.state).mission.combat
        fought.append(tuple(combat.hex))
        if cur.endswith("unit"):
            ok(game, type="ChooseAirCasualty", actor=who, unit=combat.pending["candidates"][0])
        elif cur.endswith("stays"):
            ok(game, type="AirCombatAbortOrStay", actor=who, abort=False)
    assert current(game) == f"{AM}.return-to-base-phasing"
    assert air_plugin.air(game.state).mission.performed
    assert not air_plugin.air(game.state).mission.combats_left


# ---------------------------------------------------------------- Return to Base Digression
def _escorted_strike_intercepted(save, seed, me109=ME109, **extra):
    game = lab(save, [STUKA, me109, RIFLE, I16], seed=seed, **extra)
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="me109", hex=list(TARGET), role="escort")
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="FlyIntercept", actor="ussr", unit="i16", hex=list(TARGET))
    return game, ok(game, type="FinishStep", actor="ussr")


def test_return_to_base_digression_an_aborted_unit_returns_at_once(save):
    # Air-to-air Combat: Attacking Unit's Result: "if a unit is aborted, a digression is
    # necessary for the owner to perform a return to base for the air unit"
    game, _ = _escorted_strike_intercepted(save, seed=55)  # the allies roll DA
    events = ok(game, type="ChooseAirCasualty", actor="germany", unit="me109")
    started = next(e for e in events if e.type == "DigressionStarted")
    assert started.data["step"] == RTB_DIGRESSION
    assert started.data["resume"] == "wif.procedures.air-to-air-combat.round.attacking-unit-result"
    assert current(game) == RTB_DIGRESSION and game.state.kernel.sequence.pending == ["germany"]
    assert not any(e.type == "AirCombatRolled" and e.data["side"] == "axis" for e in events)  # waits for the return
    assert "did not abort" in refused(game, type="ReturnAirToBase", actor="germany", unit="stuka", hex=list(GE_BASE))
    assert "can fly 4 hexes for return" in refused(game, type="ReturnAirToBase", actor="germany", unit="me109",
                                                   hex=list(GE_FAR))
    events = ok(game, type="ReturnAirToBase", actor="germany", unit="me109", hex=list(GE_BASE2))
    assert types(events)[:3] == ["UnitMoved", "AirUnitReturned", "DecisionFinished"]
    assert "DigressionEnded" in types(events)
    assert units(game)["me109"].hex == GE_BASE2 and not units(game)["me109"].face_up
    # then the combat goes on: the attacker fires on the defender
    assert next(e for e in events if e.type == "AirCombatRolled").data["side"] == "axis"
    assert "me109" not in air_plugin.air(game.state).mission.flights


def test_return_to_base_digression_destroys_an_aborted_unit_with_no_base_in_range(save):
    # Return to Base Digression: "there might not be a friendly hex to which it can
    # return, resulting in the unit being destroyed"
    short = {**ME109, "factors": {"air": 5, "tactical": 1, "range": 3}}
    game, events = _escorted_strike_intercepted(save, seed=1, me109=short,
                                                hex_control={"201,51": "ussr", "201,52": "ussr"})
    rolled = next(e for e in events if e.type == "AirCombatRolled")
    assert rolled.data["result"] == "DA"
    events = ok(game, type="ChooseAirCasualty", actor="germany", unit="me109")
    destroyed = next(e for e in events if e.type == "AirUnitDestroyed")
    assert destroyed.data == {"unit": "me109", "reason": "aborted with no friendly base within range"}
    assert units(game)["me109"].where == "force-pool"
    assert not any(e.type == "DigressionStarted" for e in events)  # nobody has anything to return


# ---------------------------------------------------------------- secret arrangement
def test_air_to_air_combat_arrange_units_neither_side_sees_the_other_until_both_are_ready(save):
    # Air-to-air Combat: Arrange Units: "neither side sees how the other side has arranged
    # its units until both sides click on the 'Axis/Allies Ready' button"
    game, _ = _two_and_two(save, seed=3, players={"alice": ["germany"], "bob": ["ussr"]})
    assert current(game) == "wif.procedures.air-to-air-combat.round.arrange-units"
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])

    def arranged(player):
        return [e.data for e in game.history(player=player) if e.type == "AirLineArranged"]

    secret = {"side": "axis", "fighters": ["f2", "f1"], "bombers": ["s2", "s1"]}
    assert arranged("alice") == [secret]  # her own arrangement
    assert arranged("bob") == []  # hidden from the other side
    assert "axis" not in game.view("bob")["sections"]["air"]["mission"]["combat"]["arranged"]
    assert game.view("alice")["sections"]["air"]["mission"]["combat"]["arranged"]["axis"]["fighters"] == ["f2", "f1"]
    # the public lines still show the order before this arrangement
    assert game.view("bob")["sections"]["air"]["mission"]["combat"]["lines"]["axis"]["fighters"] == ["f1", "f2"]
    events = ok(game, type="ArrangeAirLine", actor="ussr", fighters=["i2", "i1"], bombers=[])
    # both ready: revealed together, before the first roll
    order = types(events)
    assert order.index("AirLinesRevealed") < order.index("DiceRolled")
    revealed = next(e for e in events if e.type == "AirLinesRevealed").data["lines"]
    assert revealed["axis"]["fighters"] == ["f2", "f1"] and revealed["allies"]["fighters"] == ["i2", "i1"]
    assert secret in arranged("bob") and len(arranged("bob")) == 2 == len(arranged("alice"))
    assert not game.view("bob")["sections"]["air"]["mission"]["combat"]["arranged"]


# ---------------------------------------------------------------- missions must be completed
def test_return_to_base_by_phasing_side_end_of_phase_is_refused_while_units_still_fly(save):
    # Return to Base by Phasing Side: "All air units ... that have flown during the current
    # phase are required to return to base during this subphase."
    game = lab(save, [STUKA, RIFLE], seed=5)
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.return-to-base-phasing"
    reason = refused(game, type="FinishStep", actor="germany")
    assert reason == "Return to Base: germany must first return to base germany stuka (stuka) (ReturnAirToBase)"
    ok(game, type="ReturnAirToBase", actor="germany", unit="stuka", hex=list(GE_BASE))
    assert not current(game).startswith(AM)


def test_return_to_base_digression_end_of_phase_is_refused_until_the_aborted_unit_is_home(save):
    game, _ = _escorted_strike_intercepted(save, seed=55)
    ok(game, type="ChooseAirCasualty", actor="germany", unit="me109")
    assert current(game) == RTB_DIGRESSION
    assert "germany must first return to base germany me109 (me109)" in refused(game, type="FinishStep", actor="germany")
    ok(game, type="ReturnAirToBase", actor="germany", unit="me109", hex=list(GE_BASE2))


# ---------------------------------------------------------------- weather and terrain
def test_ground_strike_tactical_factor_is_halved_attacking_a_hex_in_rain(save):
    # Weather Report: "Halve the ... tactical ... factors of aircraft ... attacking a hex, in
    # rain or snow"; Air Attacks: weather "may affect an aircraft's tactical factors"
    game = lab(save, [STUKA, RIFLE], seed=5, weather={"2": "rain"})
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    events = ok(game, type="FinishStep", actor="germany")
    strike = next(e for e in events if e.type == "GroundStrikeRolled")
    assert strike.data["tactical"] == 1  # 3 halved, rounded down (data/air.json)
    assert strike.data["success"] == (strike.data["die"] <= 1)


def test_ground_support_tactical_factors_reduced_by_weather_in_the_target_hex(save):
    units_ = [STUKA, {**STUKA, "id": "stuka2", "hex": list(GE_BASE2)}, RIFLE, land_unit("g1", "germany", (202, 53))]
    game = support_lab(save, units_, {TARGET: ["g1"]}, weather={"2": "snow"})
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FlyMission", actor="germany", unit="stuka2", hex=list(TARGET))
    ok(game, type="FinishStep", actor="germany")
    events = ok(game, type="FinishStep", actor="ussr")  # no Soviet bombers
    assert {e.data["side"]: e.data["factors"] for e in events if e.type == "AirGroundSupportFlown"} == {"axis": 2}


def test_ground_strike_terrain_and_weather_modify_the_tactical_factor(save):
    # Air Attacks: "terrain (see RAC 14.5) may affect an aircraft's tactical factors" (authored:
    # halved in mountain); desert hexes feel milder weather (Weather Report)
    game = lab(save, [air_unit("big", "germany", "tac", GE_BASE, tactical=8), RIFLE], weather={"2": "rain"})
    big = units(game)["big"]
    mountain = (190, 40)
    assert air_plugin.tactical_factor(game.state, big, TARGET) == 4  # clear, rain
    assert air_plugin.tactical_factor(game.state, big, mountain) == 2  # mountain and rain: 8 x 1/2 x 1/2
    raw = json.loads((air_plugin.DATA / "air.json").read_text())
    assert "RAC 14.5" in raw["approximations"] and raw["tactical_terrain_multiplier"]["mountain"] == 0.5


def test_weather_report_no_mission_flies_to_a_weather_zone_in_storm_or_blizzard(save):
    far_i16 = air_unit("i16", "ussr", "ftr", (206, 57), air=3, range_=5)
    game = lab(save, [STUKA, RIFLE, far_i16], weather={"2": "storm"})
    assert refused(game, type="FlyCAP", actor="ussr", unit="i16", hex=list(TARGET)) == (
        "Combat Air Patrol: hex (203, 54) is in a weather zone in storm; the only mission you may fly there is a rebase")
    ok(game, type="FinishStep", actor="ussr")
    assert "in a weather zone in storm" in refused(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))


def test_air_to_air_combat_defender_fires_is_skipped_with_its_reason_even_before_any_combat(save):
    """Seeds, "Air-to-air Combat" ("1. The inactive side rolls" as the round begins): the step
    Defender Fires on Attacker is never played on its own, so `wif steps` (asked at the start of a
    game, with no combat) shows it skipped with the reason, not as a step with nothing to do."""
    from plugins.rules.air.air_to_air import round_skip

    game = lab(save, [STUKA, RIFLE])
    step = "wif.procedures.air-to-air-combat.round.defender-fires"
    assert round_skip(game.state, step) == "the defender fires as each round begins (above)"
    assert round_skip(game.state, "wif.procedures.air-to-air-combat.round.arrange-units") is None
