"""Optional rule Offensive chits (seeds, "Pick HQ"; "Choose Action"): a major power at war plays
a chit when it chooses its action, one an impulse, used up; an HQ's benefits within its range
(extra ground strike die, doubled ground support in an air action), the HQ disorganized at the
end of the impulse; in a land action up to twice the HQ's reorganization value of land units
doubled in land combats within range; or every HQ reorganized instead.  OFF: no chit."""

from __future__ import annotations

import importlib
import random

from helpers import air_unit, control, offered, ok, place, refused, unit

from plugins.optional.framework import new_game
from plugins.rules.combat import odds as O
from plugins.rules.combat.state import current_combat
from plugins.rules.units import Unit

chits = importlib.import_module("plugins.optional.offensive-chits")

HQ_HEX = (201, 54)  # Warsaw


def _game(save, rules=("offensive-chits",)):
    game = new_game("barbarossa", save, on=list(rules), seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    place(game, unit("g-hq", "germany", HQ_HEX, "hq-a", 2, 4, factors={"reorg": 2}),
          unit("g-hq-dis", "germany", (200, 50), "hq-i", 1, 3, face_up=False))
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.new-impulse.choose-action",
              "turn": 1, "impulse": 1, "active_side": "axis"})
    assert game.state.kernel.sequence.current == chits.STEP and "germany" in game.state.kernel.sequence.pending
    return game


def test_offensive_chits_an_hq_gives_its_benefits_within_range_this_impulse(save):
    game = _game(save)
    ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    refused(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"}, "holds no offensive chit")
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "air"})
    state = game.state
    bomber = Unit(id="b", power="germany", branch="air", type="lnd", factors={"tactical": 2})
    near, far = (202, 54), (210, 54)
    assert chits.ground_support_factor(state, bomber, near, "attacker", 2) == 4
    assert chits.ground_support_factor(state, bomber, far, "attacker", 2) is None
    target = Unit(id="t", power="ussr", branch="land", type="inf", hex=near)
    assert chits.ground_strike_extra_dice(state, bomber, target) == 1
    assert chits.ground_strike_extra_dice(state, bomber, target.model_copy(update={"hex": far})) is None


def test_offensive_chits_reorganize_every_hq_instead(save):
    game = _game(save)
    refused(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq-dis"}, "disorganized")
    events = ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "reorganize_hqs": True})
    assert [e.type for e in events] == ["OffensiveChitPlayed", "UnitFlipped"]
    assert game.state["units"].units["g-hq-dis"].face_up


def test_offensive_chits_only_at_the_start_of_the_action_and_while_held(save):
    game = _game(save)
    refused(game, {"type": "PlayOffensiveChit", "actor": "ussr", "reorganize_hqs": True}, "Choose Action")
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "land"})
    refused(game, {"type": "PlayOffensiveChit", "actor": "germany", "reorganize_hqs": True})
    assert chits.chits_held(game.state, "germany") == 1 and chits.chits_held(game.state, "ussr") == 0


def test_offensive_chits_every_offered_play_is_accepted(save):
    game = _game(save)
    (choice,) = [c for c in offered(game, "PlayOffensiveChit") if c.actor == "germany"]
    cmds = choice.commands(limit=50) + [choice.sample(random.Random(i)) for i in range(10)]
    assert {bool(c["reorganize_hqs"]) for c in cmds} == {True, False}
    for cmd in cmds:
        assert game.dry_run(cmd).accepted, cmd


def test_offensive_chits_off_no_chit(save):
    game = _game(save, rules=())
    assert not offered(game, "PlayOffensiveChit")


def test_offensive_chits_the_hq_is_disorganized_at_the_end_of_the_impulse(save):
    game = _game(save)
    ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "land"})
    events = ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.end-of-impulse.end-of-turn-check",
                       "turn": 1, "impulse": 1})
    flips = [e.data for e in events if e.type == "UnitFlipped" and e.data["unit"] == "g-hq"]
    assert flips and flips[0]["face_up"] is False


def test_offensive_chits_a_combined_action_allows_a_naval_an_air_and_a_land_actions_activities(save):
    from plugins.rules.turn import activities

    game = _game(save)
    plain = {k: activities.action_limit("germany", "combined", k) for k in activities.KINDS}
    ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "combined"})
    for kind in activities.KINDS:
        caps = [activities.action_limit("germany", a, kind) for a in ("combined", "naval", "air", "land")]
        expected = None if None in caps else max(caps)
        assert activities.limit(game.state, "germany", kind) == expected
    assert any(activities.limit(game.state, "germany", k) != plain[k] for k in activities.KINDS)


# ---------------------------------------------------------------- Land action: doubled factors
def _land_combat(save, rules=("offensive-chits",), chit=True):
    """Germany, chit played on the HQ at Warsaw (reorganization value 2), attacks the Soviet
    army at (203,54) with a1 (1 hex from the HQ), a2 (2 hexes) and far (3 hexes, across a
    river); the game waits for the USSR to choose the combat table, before the die roll."""
    game = _game(save, rules)
    place(game, unit("a1", "germany", (202, 54), "inf", 4, 4), unit("a2", "germany", (202, 55), "inf", 4, 4),
          unit("far", "germany", (203, 55), "inf", 4, 4), unit("r1", "ussr", (203, 54), "inf", 3, 3))
    control(game, (203, 55), "germany")
    if chit:
        ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "land"})
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.land.combat.land-combat-declaration"})
    ok(game, type="DeclareAttack", actor="germany", hex=[203, 54], units=["a1", "a2", "far"])
    while not game.state.kernel.sequence.current.endswith("assault-or-blitz"):
        ok(game, type="FinishStep", actor=game.state.kernel.sequence.pending[0])
    return game


def _attack(game):
    return O.evaluate_combat(game.state, current_combat(game.state), hook=game.host.pm.hook)["attack"]


def test_offensive_chits_land_action_doubles_units_within_range_in_a_land_combat(save):
    game = _land_combat(save)
    assert _attack(game) == 4 + 4 + 2  # far: halved across the river
    assert chits.doubles_left(game.state, "germany") == 4  # twice the HQ's reorganization value
    assert "no attacker of germany within the HQ's range" in refused(
        game, type="DoubleWithOffensiveChit", actor="germany", units=["far"])
    ok(game, type="DoubleWithOffensiveChit", actor="germany", units=["a1", "a2"])
    assert _attack(game) == 8 + 8 + 2 and chits.doubles_left(game.state, "germany") == 2
    assert "not doubled yet" in refused(game, type="DoubleWithOffensiveChit", actor="germany", units=["a1"])
    ok(game, type="ChooseLandCombatType", actor="ussr", table="assault")
    events = ok(game, type="ResolveCombat", actor=game.state.kernel.sequence.pending[0])
    resolved = next(e for e in events if e.type == "LandCombatResolved")
    assert resolved.data["attack"] == 18  # the final odds use the doubled factors
    assert "before its die roll" in refused(game, type="DoubleWithOffensiveChit", actor="germany", units=["a1"])


def test_offensive_chits_every_offered_doubling_is_accepted(save):
    game = _land_combat(save)
    (choice,) = offered(game, "DoubleWithOffensiveChit")
    cmds = choice.commands(limit=50) + [choice.sample(random.Random(i)) for i in range(10)]
    assert {tuple(sorted(c["units"])) for c in cmds} == {("a1",), ("a2",), ("a1", "a2")}
    for cmd in cmds:
        assert game.dry_run(cmd).accepted, cmd
        assert game.preview(cmd)["doubles_left"] == 4 - len(cmd["units"])


def test_offensive_chits_without_a_chit_played_no_unit_is_doubled(save):
    game = _land_combat(save, chit=False)
    assert not offered(game, "DoubleWithOffensiveChit") and _attack(game) == 10
    assert "played no offensive chit" in refused(game, type="DoubleWithOffensiveChit", actor="germany", units=["a1"])


def test_offensive_chits_off_no_unit_is_doubled(save):
    game = _land_combat(save, rules=(), chit=False)
    assert not offered(game, "DoubleWithOffensiveChit") and _attack(game) == 10


# ---------------------------------------------------------------- Land action: overruns
def _overrun(save, rules=("offensive-chits",), chit=True):
    """Germany, chit played on the HQ at Warsaw (reorganization value 2), in Land Movement: a
    6-factor panzer corps at (202,54), 1 hex from the HQ, next to a 1-factor Soviet division at
    (203,54).  6:1 is short of the overrun's 11:1; doubled it is 12:1."""
    game = _game(save, rules)
    place(game, unit("pz", "germany", (202, 54), "arm", 6, 6), unit("r1", "ussr", (203, 54), "inf", 1, 3))
    if chit:
        ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": "land"})
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.land.movement.land-movement"})
    return game


def _overrun_targets(game):
    (choice,) = [c for c in offered(game, "MoveLandUnit") if c.actor == "germany"]
    return [c["to"] for c in choice.commands(limit=2000) if c["unit"] == "pz" and c["to"] == [203, 54]]


def test_offensive_chits_land_action_doubles_a_unit_for_its_overrun(save):
    """Pick HQ, Land action: "you can double the combat factors of this major power's land units
    within range of the HQ when you calculate the final odds for the overrun"."""
    game = _overrun(save)
    assert not _overrun_targets(game)
    assert "11:1" in refused(game, type="MoveLandUnit", actor="germany", unit="pz", to=[203, 54])
    (choice,) = offered(game, "DoubleWithOffensiveChit")
    # the land units that may still move within the HQ's range (the HQ itself is one)
    assert {tuple(c["units"]) for c in choice.commands(limit=20)} == {("pz",), ("g-hq",), ("g-hq", "pz")}
    assert game.preview({"type": "DoubleWithOffensiveChit", "actor": "germany", "units": ["pz"]})["for"] == "overrun"
    events = ok(game, type="DoubleWithOffensiveChit", actor="germany", units=["pz"])
    assert "for their overrun" in game.describe(events[0])
    assert chits.doubles_left(game.state, "germany") == 3  # counted against twice the HQ's value
    assert "not doubled yet" in refused(game, type="DoubleWithOffensiveChit", actor="germany", units=["pz"])
    assert _overrun_targets(game) == [[203, 54]]
    events = ok(game, type="MoveLandUnit", actor="germany", unit="pz", to=[203, 54])
    overrun = next(e for e in events if e.type == "LandUnitsOverrun")
    assert overrun.data["units"] == ["r1"] and overrun.data["odds"] >= 11


def test_offensive_chits_a_unit_out_of_the_hqs_range_is_not_doubled_for_an_overrun(save):
    game = _overrun(save)
    place(game, unit("pz-far", "germany", (206, 54), "arm", 6, 6))
    assert "pz-far" not in chits.doublable(game.state, "germany", chits.OVERRUN)
    assert "within the HQ's range" in refused(game, type="DoubleWithOffensiveChit", actor="germany",
                                              units=["pz-far"])


def test_offensive_chits_without_a_chit_or_off_no_overrun_doubling(save, tmp_path):
    for game in (_overrun(save, chit=False), _overrun(tmp_path / "off.wif", rules=(), chit=False)):
        assert not offered(game, "DoubleWithOffensiveChit") and not _overrun_targets(game)
        refused(game, type="DoubleWithOffensiveChit", actor="germany", units=["pz"])
        refused(game, type="MoveLandUnit", actor="germany", unit="pz", to=[203, 54])


# ---------------------------------------------------------------- half-cost reorganization
def _reorganization(save, action, rules=("offensive-chits",), chit=True):
    """Germany plays its chit on the HQ at Warsaw (2 reorganization points) and chooses
    ``action``; four disorganized land units and two disorganized aircraft are next to the HQ;
    the game is in the End of Impulse's Reorganization by HQ."""
    game = _game(save, rules)
    place(game, *[unit(f"d{i}", "germany", (202, 54), "inf", 2, 3, face_up=False) for i in range(2)],
          *[unit(f"d{i}", "germany", (201, 55), "inf", 2, 3, face_up=False) for i in range(2, 4)],
          *[air_unit(f"b{i}", "germany", "lnd", (201, 54), tactical=2, face_up=False) for i in range(2)])
    if chit:
        ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": action})
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.end-of-impulse.reorganization-by-hq"})
    return game


def _reorganize_all(game, ids):
    organized = []
    for uid in ids:
        cmd = {"type": "HQReorganize", "actor": "germany", "hq": "g-hq", "unit": uid}
        if not game.dry_run(cmd).accepted:
            break
        events = ok(game, cmd)
        organized += [e.data["unit"] for e in events if e.type == "HQReorganized" and e.data["organized"]]
    return organized


def test_offensive_chits_land_action_reorganizing_a_land_unit_costs_half(save):
    """Pick HQ, Land action: "every land unit reorganized by that HQ only costs half the usual
    reorganization point cost": the HQ's 2 points organize 4 land units, not 2."""
    game = _reorganization(save, "land")
    preview = game.preview({"type": "HQReorganize", "actor": "germany", "hq": "g-hq", "unit": "d0"})
    assert preview["points"] == 0.5 and preview["organized"]
    # an aircraft costs the usual point in a land action
    assert game.preview({"type": "HQReorganize", "actor": "germany", "hq": "g-hq", "unit": "b0"})["points"] == 1
    assert _reorganize_all(game, ["d0", "d1", "d2", "d3", "b0"]) == ["d0", "d1", "d2", "d3"]


def test_offensive_chits_air_action_reorganizing_an_aircraft_costs_half(save):
    """Pick HQ, Air action: "every aircraft unit reorganized by that HQ only costs half"."""
    game = _reorganization(save, "air")
    assert game.preview({"type": "HQReorganize", "actor": "germany", "hq": "g-hq", "unit": "d0"})["points"] == 1
    assert _reorganize_all(game, ["b0", "b1", "d0"]) == ["b0", "b1", "d0"]


def test_offensive_chits_every_offered_reorganization_is_accepted_at_half_cost(save):
    game = _reorganization(save, "combined")
    (choice,) = [c for c in offered(game, "HQReorganize") if c.actor == "germany"]
    cmds = choice.commands(limit=100)
    assert {c["unit"] for c in cmds} >= {"d0", "b0"}
    for cmd in cmds:
        assert game.dry_run(cmd).accepted, cmd
        assert game.preview(cmd)["points"] == 0.5  # combined: each land, naval or aircraft unit


def test_offensive_chits_without_a_chit_or_off_reorganizing_costs_the_usual_point(save, tmp_path):
    for game in (_reorganization(save, "land", chit=False),
                 _reorganization(tmp_path / "off.wif", "land", rules=(), chit=False)):
        assert game.preview({"type": "HQReorganize", "actor": "germany", "hq": "g-hq", "unit": "d0"})["points"] == 1
        assert _reorganize_all(game, ["d0", "d1", "d2"]) == ["d0", "d1"]
