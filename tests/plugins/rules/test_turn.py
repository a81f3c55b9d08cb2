"""Turn structure (plugins/rules/turn): one test per seed procedure, built in the lab scenario."""

from __future__ import annotations

import pytest

import helpers
from helpers import lab_game
from kernel.errors import Rejected
from kernel.game import Game
from plugins.rules import core
from plugins.rules.turn import (
    BIMONTHS,
    CODES,
    END_CHECK,
    MOVE_FIRST,
    track,
    turn_tables,
    weather_chart,
)
from plugins.rules.turn import activities
from plugins.rules.turn.activities import activity_problem, charged, check_action, rail_moves_for, remaining

TURN_START = {"start_at": "turn", "active_side": None}


def new(save, seed=3, lab=False, **options):
    """A lab-scenario game with the turn plugin from a new turn; ``lab``: a lab game (the rig)."""
    if lab:
        return lab_game(save, seed=seed, options={**TURN_START, **options}, extra_plugins=["turn"])
    return Game.new("lab", save, seed=seed, options={**TURN_START, **options}, extra_plugins=["turn"])


def events(game, type_=None, since=1):
    return [r for r in game.history(since) if type_ is None or r.type == type_]


def rejected(game, command, *words):
    """Submit a command that must be refused: the reason names the rule, nothing is appended."""
    before = game.state.kernel.seq
    out = game.submit(command)
    assert not out.accepted, command
    for w in words:
        assert w in out.reason, out.reason
    assert game.state.kernel.seq == before
    return out.reason


def decide(game, action="land", first=None):
    """Answer the step the game waits for: the move-first decision, the action choice, or
    FinishStep for anything else."""
    seq = game.state.kernel.sequence
    who = seq.pending[0]
    if seq.current == MOVE_FIRST:
        cmd = {"type": "ChooseFirstMover", "actor": who, "side": first or who}
    elif seq.current.endswith("choose-action"):
        cmd = {"type": "ChooseAction", "actor": who, "action": action}
    else:
        cmd = {"type": "FinishStep", "actor": who}
    out = game.submit(cmd)
    assert out.accepted, out.reason


def play_until(game, done, action="land", first=None, limit=500):
    for _ in range(limit):
        if done(game) or game.state.kernel.sequence.finished:
            return
        decide(game, action, first)
    raise AssertionError("the game did not get there")


def in_impulse(n):
    return lambda g: g.state.kernel.impulse >= n and g.state.kernel.sequence.current.endswith("choose-action")


# ---------------------------------------------------------------- Initiative
def test_initiative_each_side_rolls_a_die_and_the_higher_modified_roll_wins(save):
    game = new(save)
    rolled = events(game, "InitiativeRolled")
    dice = [r for r in events(game, "DiceRolled") if r.data["purpose"].startswith("Initiative")]
    assert len(dice) == len(rolled) >= 1
    last = rolled[-1].data
    for roll, rec in zip(dice, rolled):  # every roll is recorded and is the one used
        assert rec.data["dice"] == {"axis": roll.data["results"][0], "allies": roll.data["results"][1]}
    assert last["modifiers"] == {"axis": 0, "allies": 0}  # the track starts in the middle
    winner = max(last["totals"], key=last["totals"].get)
    assert last["winner"] == winner and core.world(game.state).initiative == winner
    # Move First Decision is the initiative side's: the other side may not decide it
    assert game.state.kernel.sequence.current == MOVE_FIRST
    assert game.state.kernel.sequence.pending == [winner]
    loser = "ussr" if winner == "axis" else "germany"
    rejected(game, {"type": "ChooseFirstMover", "actor": loser, "side": "axis"}, "nothing")
    game.close()


def test_initiative_tie_in_the_first_turn_is_rolled_again(save):
    game = new(save, seed=3)  # seed 3 ties twice (4-4, 10-10) before the Axis wins 9-2
    rolled = [r.data for r in events(game, "InitiativeRolled")]
    assert [r["winner"] for r in rolled] == [None, None, "axis"]
    assert rolled[0]["totals"] == {"axis": 4, "allies": 4}
    game.close()


def test_initiative_reroll_moves_the_track_toward_the_other_side_and_stands(save):
    game = new(save)
    winner = core.world(game.state).initiative
    loser_power = "ussr" if winner == "axis" else "germany"
    winner_power = "germany" if winner == "axis" else "ussr"
    rejected(game, {"type": "DemandInitiativeReroll", "actor": winner_power}, "Initiative", "only the other side")
    out = game.submit({"type": "DemandInitiativeReroll", "actor": loser_power})
    assert out.accepted, out.reason
    types = [r.type for r in out.events]
    assert types[:3] == ["InitiativeTrackMoved", "DiceRolled", "InitiativeRolled"]
    assert track(game.state).initiative_track == (1 if winner == "axis" else -1)
    reroll = [r.data for r in out.events if r.type == "InitiativeRolled"][-1]
    assert reroll["reroll"] and reroll["modifiers"][winner] == 1
    new_winner = core.world(game.state).initiative
    assert game.state.kernel.sequence.pending == [new_winner]  # the re-roll stands
    other = "germany" if new_winner == "allies" else "ussr"
    rejected(game, {"type": "DemandInitiativeReroll", "actor": other}, "no further re-rolls")
    game.close()


def test_initiative_no_reroll_when_the_track_is_at_plus_two_for_the_winner(save):
    game = new(save, lab=True)
    winner = core.world(game.state).initiative
    helpers.initiative(game, track=2 if winner == "axis" else -2)
    loser_power = "ussr" if winner == "axis" else "germany"
    rejected(game, {"type": "DemandInitiativeReroll", "actor": loser_power}, "Initiative", "+2")
    game.close()


# ---------------------------------------------------------------- Move First Decision
def test_move_first_decision_sets_the_phasing_side_of_the_first_impulse(save):
    game = new(save)
    winner = core.world(game.state).initiative
    other = "allies" if winner == "axis" else "axis"
    actor = "germany" if winner == "axis" else "ussr"
    rejected(game, {"type": "ChooseFirstMover", "actor": actor, "side": "neutrals"}, "Move First Decision")
    out = game.submit({"type": "ChooseFirstMover", "actor": actor, "side": other})
    assert out.accepted, out.reason
    types = [r.type for r in out.events]
    assert types[:4] == ["FirstSideChosen", "ActiveSideSet", "ImpulseReset", "DecisionFinished"]
    assert game.state.kernel.active_side == other
    assert core.world(game.state).initiative == winner  # going first does not change who has it
    assert game.state.kernel.impulse == 1
    assert game.state.kernel.sequence.pending == core.powers_of_side(game.state, other)
    game.close()


# ---------------------------------------------------------------- Weather / Weather Report
def test_weather_is_rolled_on_odd_impulses_per_zone_with_the_asterisk_modifier(save):
    game = new(save, seed=3)
    play_until(game, in_impulse(3), first="axis")
    rolls = [r.data for r in events(game, "WeatherRolled")]
    sets = [r for r in events(game, "WeatherSet")]
    dice = [r.data["results"][0] for r in events(game, "DiceRolled") if r.data["purpose"].startswith("Weather")]
    assert len(rolls) == len(sets) == len(dice) == 2  # impulses 1 and 3, not 2
    skipped = [r.data for r in events(game, "StepSkipped") if r.data["step"].endswith("new-impulse.weather")]
    assert len(skipped) == 1 and "impulse 2 is even" in skipped[0]["reason"]
    chart = weather_chart()
    for roll, set_, die in zip(rolls, sets, dice):
        assert roll["die"] == die and roll["roll"] == min(die + roll["modifier"], chart["max_roll"])
        row = chart["chart"]["may-jun"]
        assert set_.data["weather"] == {z: CODES[c[roll["roll"] - 1]] for z, c in row.items()}
        assert set_.data["roll"] == roll["roll"] and len(set_.data["weather"]) == 6
        assert roll["asterisks"] == chart["asterisks"][roll["roll"] - 1]
    # the second roll adds the first roll's asterisks (seed 3: 1 then 9)
    assert rolls[1]["modifier"] == rolls[0]["asterisks"]
    assert core.weather_in(game.state, (200, 40)) in CODES.values()
    game.close()


def test_weather_report_asterisks_add_to_the_next_roll_even_from_the_previous_turn(save):
    game = new(save, seed=3)
    play_until(game, in_impulse(3), first="axis")
    last = events(game, "WeatherRolled")[-1].data  # impulse 3 of turn 1: a 9, one asterisk
    assert (last["die"], last["asterisks"], last["impulse_advance"]) == (9, 1, 2)
    # seed 3 ends turn 1 after impulse 3: the asterisk carries into turn 2's first roll
    play_until(game, lambda g: g.state.kernel.turn == 2 and in_impulse(1)(g), first="axis")
    nxt = events(game, "WeatherRolled")[-1]
    assert nxt.turn == 2 and nxt.data["modifier"] == 1
    assert nxt.data["roll"] == min(nxt.data["die"] + 1, weather_chart()["max_roll"])
    assert nxt.data["date"] == "Jul/Aug 1941"
    game.close()


# ---------------------------------------------------------------- Choose Action
def test_choose_action_each_phasing_power_chooses_and_neutrals_pass_or_combine(save):
    game = new(save)
    play_until(game, in_impulse(1), first="axis")
    assert game.state.kernel.sequence.pending == ["germany"]
    rejected(game, {"type": "ChooseAction", "actor": "germany", "action": "blitz"}, "Action Choice")
    rejected(game, {"type": "ChooseAction", "actor": "ussr", "action": "land"}, "nothing")
    out = game.submit({"type": "ChooseAction", "actor": "germany", "action": "combined"})
    assert out.accepted, out.reason
    assert [r.type for r in out.events][:2] == ["ActionChosen", "DecisionFinished"]
    assert out.events[0].data == {"power": "germany", "action": "combined"}
    # every phasing power has chosen: the impulse goes on (here to its end, no other rule is loaded)
    assert any(r.type == "EndOfTurnRolled" for r in out.events)
    game.close()

    # a neutral major power (not at war) must choose Pass or Combined
    game = new(save.with_name("neutral.wif"), at_war=[])
    play_until(game, in_impulse(1), first="axis")
    rejected(game, {"type": "ChooseAction", "actor": "germany", "action": "land"}, "neutral", "Pass or a Combined")
    assert game.submit({"type": "ChooseAction", "actor": "germany", "action": "pass"}).accepted
    game.close()


# ---------------------------------------------------------------- phase gating (rules-c 1.0)
def test_phase_gating_skips_phases_the_chosen_action_does_not_allow(save):
    game = new(save)
    play_until(game, in_impulse(1), first="axis")
    since = game.state.kernel.seq
    assert game.submit({"type": "ChooseAction", "actor": "germany", "action": "pass"}).accepted
    reasons = {r.data["step"].split(".")[-1]: r.data["reason"] for r in events(game, "StepSkipped", since)}
    for phase in ("port-attack", "naval-air", "naval-movement", "phasing-side-naval-combat", "independent-air",
                  "rail-movement", "land-movement", "air-transport", "unload-land-units", "invasion",
                  "paradrop", "combat", "air-rebase"):
        assert "Action Choice" in reasons[phase] or "Independent Air" in reasons[phase], (phase, reasons.get(phase))
    assert "germany: pass" in reasons["land-movement"]
    # what no action restricts is not gated: here it has nothing to act on (Naval Combat)
    assert reasons["non-phasing-side-naval-combat"].startswith("Naval Combat: the game has no naval units")
    game.close()

    game = new(save.with_name("naval.wif"))
    play_until(game, in_impulse(1), first="axis")
    since = game.state.kernel.seq
    assert game.submit({"type": "ChooseAction", "actor": "germany", "action": "naval"}).accepted
    reasons = {r.data["step"].split(".")[-1]: r.data["reason"] for r in events(game, "StepSkipped", since)}
    # allowed by the action, but nothing to act on (Naval Movement: no naval units in this lab)
    assert reasons["naval-movement"] == "Naval Movement: the phasing side has no naval units, so nothing moves to sea"
    assert "Land Movement needs a Land or Combined action" in reasons["land-movement"]
    assert "Rail Movement" in reasons["rail-movement"]
    assert reasons["unload-land-units"].startswith("Unload Land Units: the phasing side has no naval units")
    game.close()


def test_start_new_game_form_steps_are_skipped_as_decided_before_the_game(save):
    game = Game.new("lab", save, seed=1, options={"start_at": "new-game", "active_side": None},
                    extra_plugins=["turn"])
    skipped = {r.data["step"]: r.data["reason"] for r in events(game, "StepSkipped")}
    form = [s for s in skipped if s.startswith("wif.new-game.start-new-game.")]
    assert len(form) == 5
    assert all(skipped[s] == "decided in the Start New Game form before the game began" for s in form)
    assert game.state.kernel.turn == 1 and game.state.kernel.sequence.current == MOVE_FIRST
    game.close()


# ---------------------------------------------------------------- Activity Limits
def test_activity_limits_count_and_refuse_when_exceeded(save):
    game = lab_game(save, extra_plugins=["turn"],
                    options={"actions": {"germany": "combined"}, "start_at": "turn.impulse.new-impulse.choose-action"})
    st = game.state
    assert remaining(st, "germany") == {"naval-move": 2, "air-mission": 4, "land-move": 10, "land-attack": 3,
                                        "rail-move": 3, "air-rebase": 7}
    # "All land attacks ... count as a land attack": 3 under Germany's Combined action
    for _ in range(3):
        assert activity_problem(game.state, "germany", "attack") is None
        helpers.rig(game, "RigActivity", power="germany", kind="attack")  # counted as use_activity counts
    assert core.used(game.state, "germany", "land-attack") == 3
    assert activity_problem(game.state, "germany", "land-attack").startswith(
        "Activity Limits (see RAC 10.2): germany's Combined action allows 3 land attacks")
    # "Every aircraft or land unit that moves 60 hexes, or portion thereof, by rail counts
    # as a rail move; moving a factory costs 2 rail moves for the first 60 hexes"
    assert [rail_moves_for(h) for h in (1, 60, 61, 120, 121)] == [1, 1, 2, 2, 3]
    assert rail_moves_for(60, factory=True) == 2 and rail_moves_for(61, factory=True) == 3
    helpers.rig(game, "RigActivity", power="germany", kind="rail-move", count=rail_moves_for(61))
    assert "rail moves" in activity_problem(game.state, "germany", "rail-move", count=2)
    # ground support, CAP, escort and interception do not count against air missions
    assert not charged("air-mission", mission="ground-support")
    assert activity_problem(game.state, "germany", "air-mission", mission="ground-support") is None
    assert remaining(game.state, "germany")["air-mission"] == 4
    # the non-phasing side chose no action and may not act in phasing phases
    with pytest.raises(Rejected, match="phasing side"):
        check_action(game.state, "ussr", "land-movement")
    check_action(game.state, "ussr", "ground-support")  # every NPS power may fly ground support
    game.close()


def test_action_choice_pass_allows_no_activity_and_land_allows_unlimited_moves(save):
    game = Game.new("lab", save, seed=1, extra_plugins=["turn"],
                    options={"actions": {"germany": "pass"}, "start_at": "turn.impulse.new-impulse.choose-action"})
    with pytest.raises(Rejected, match="Pass action and can't do any further activities"):
        check_action(game.state, "germany", "land-attack")
    with pytest.raises(Rejected, match="does not allow Land Movement"):
        check_action(game.state, "germany", "wif.turn.impulse.land.movement.land-movement")
    game.close()
    game = lab_game(save.with_name("l.wif"), extra_plugins=["turn"],
                    options={"actions": {"germany": "land"}, "start_at": "turn.impulse.new-impulse.choose-action"})
    check_action(game.state, "germany", "land-movement")
    assert activity_problem(game.state, "germany", "land-move", count=40) is None
    helpers.rig(game, "RigActivity", power="germany", kind="land-move", count=40)
    assert remaining(game.state, "germany")["land-move"] is None
    assert activity_problem(game.state, "germany", "land-move") is None
    with pytest.raises(Rejected, match="Naval Movement"):
        check_action(game.state, "germany", "naval-movement")
    game.close()


def test_activity_limits_table_has_a_source_header_and_every_action():
    import json
    from pathlib import Path

    data = json.loads((Path(activities.__file__).with_name("data") / "activity_limits.json").read_text())
    assert data["source"] and data["approximations"]
    table = activities.limits_table()
    for power in ("default", "germany", "ussr"):
        assert set(table[power]) == {"pass", "naval", "air", "land", "combined"}
        assert all(v == 0 for v in table[power]["pass"].values())
        assert 1 <= table[power]["combined"]["land-attack"] <= 3  # rules-c 1.0: Combined 1-3 attacks
    for name in ("weather_chart.json", "turn_tables.json"):
        d = json.loads((Path(activities.__file__).with_name("data") / name).read_text())
        assert d["source"] and d["approximations"]
    assert set(weather_chart()["chart"]) == set(BIMONTHS)


# ---------------------------------------------------------------- End of Turn Check
def test_end_of_turn_check_rolls_advances_the_impulse_and_alternates_sides(save):
    game = new(save, seed=3)
    play_until(game, lambda g: g.state.kernel.turn == 2, first="axis")
    checks = [r for r in events(game, "EndOfTurnRolled") if r.turn == 1]
    dice = [r for r in events(game, "DiceRolled") if r.data["purpose"].startswith("End of Turn Check") and r.turn == 1]
    threshold = turn_tables()["end_of_turn"]["threshold"]
    assert len(checks) == len(dice) >= 1
    for check, die in zip(checks, dice):
        d = check.data
        assert d["die"] == die.data["results"][0] and d["total"] == d["die"] + d["impulse"]
        assert d["ended"] == (d["total"] >= threshold)
    assert [c.data["ended"] for c in checks] == [False] * (len(checks) - 1) + [True]
    # the impulse number advances by the weather's impulse advance (seed 3: 1, then 2 in rain)
    assert [c.data["impulse"] for c in checks] == [1, 2, 3]
    # phasing alternates: axis, allies, axis; each new impulse clears actions
    sides = [r.data["side"] for r in events(game, "ActiveSideSet") if r.turn == 1]
    assert sides == ["axis", "allies", "axis"]
    assert len([r for r in events(game, "ImpulseReset") if r.turn == 1]) == 3
    chosen = [(r.impulse, r.data["power"]) for r in events(game, "ActionChosen") if r.turn == 1]
    assert chosen == [(1, "germany"), (2, "ussr"), (3, "germany")]
    # going first and last moves the initiative track one step toward the other side
    moved = [r.data for r in events(game, "InitiativeTrackMoved")]
    assert moved and moved[-1]["position"] == -1 and "first and the last" in moved[-1]["reason"]
    # the turn's end-of-turn stage ran, then a new turn with a new initiative roll
    assert any(r.data["step"] == "wif.turn.end-of-turn" for r in events(game, "StepStarted") if r.turn == 1)
    assert events(game, "NewTurnBegun")[-1].data == {"turn": 2, "date": "Jul/Aug 1941"}
    assert events(game, "InitiativeRolled")[-1].data["modifiers"] == {"axis": 0, "allies": 1}
    # the log replays to the same state
    state = game.state.to_json()
    game.close()
    with Game.open(save) as again:
        assert again.state.to_json() == state


# ---------------------------------------------------------------- Victory Check / Game End
def test_game_end_the_sequence_finishes_when_the_last_turn_ends(save):
    game = new(save, seed=3, lab=True)
    helpers.calendar(game, last_turn=2)
    play_until(game, lambda g: g.state.kernel.sequence.finished, first="axis", action="pass")
    k = game.state.kernel
    assert k.sequence.finished and k.turn == 2
    skipped = {(r.turn, r.data["step"]): r.data["reason"] for r in events(game, "StepSkipped")}
    assert "more turns" in skipped[(1, "wif.turn.end-of-turn.game-end")]
    assert (2, "wif.turn.end-of-turn.game-end") not in skipped  # Game End runs on the last turn
    ended = events(game, "GameEnded")
    assert len(ended) == 1 and ended[0].turn == 2 and ended[0].data == {"result": None}  # the lab gives no verdict
    assert events(game)[-1].type == "SequenceFinished"
    assert events(game)[-1].data["reason"] == "Game End: no scenario gave a result"
    assert len([r for r in events(game, "EndOfTurnRolled") if r.data["ended"]]) == 2
    assert not game.submit({"type": "FinishStep", "actor": "germany"}).accepted
    game.close()


def test_end_of_turn_check_is_an_automatic_step_with_dice(save):
    """The End of Turn Check runs by itself (no player decides) and every roll is recorded."""
    game = new(save, seed=5)
    play_until(game, lambda g: bool(events(g, "EndOfTurnRolled")), first="axis")
    started = [r for r in events(game, "StepStarted") if r.data["step"] == END_CHECK]
    assert started and started[0].data["deciders"] == []
    game.close()


def test_activity_limits_charged_by_the_land_plugin_through_use_activity(save):
    """Land Movement under a Combined action: each land unit moved is a land move (lab + land)."""
    units = [{"id": f"g{i}", "power": "germany", "branch": "land", "type": "inf",
              "size": "army", "factors": {"combat": 4, "move": 4}, "hex": [204, 52]} for i in (1, 2)]
    game = Game.new("lab", save, seed=7, extra_plugins=["land", "turn"],
                    options={"units": units, "actions": {"germany": "combined"},
                             "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
                             "start_at": "turn.impulse.land.movement.land-movement"})
    assert game.state.kernel.sequence.current.endswith("land-movement")
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [[205, 52]]})
    assert out.accepted, out.reason
    assert out.events[0].type == "ActivityUsed" and out.events[0].data["kind"] == "land-move"
    assert remaining(game.state, "germany")["land-move"] == 9
    game.close()



def test_choose_action_a_power_may_not_finish_without_an_action(save):
    game = new(save)
    play_until(game, in_impulse(1), first="axis")
    assert game.state.kernel.sequence.current.endswith("choose-action")
    rejected(game, {"type": "FinishStep", "actor": "germany"}, "must choose an action")
    assert game.submit({"type": "ChooseAction", "actor": "germany", "action": "pass"}).accepted
    game.close()
