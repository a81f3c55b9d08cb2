"""Turn structure's decisions (plugins/rules/turn): what Game.choices offers, that every command
built from it is accepted, and that what the seeds forbid is not offered.  Named after the seed
sections; built in the lab scenario."""

from __future__ import annotations

import random

from helpers import offered
from kernel.choices import CommandChoice, prune
from kernel.game import Game
from plugins.rules import core
from plugins.rules.turn import CHOOSE_ACTION, MOVE_FIRST, track
from plugins.rules.turn.activities import action_activities

TURN_START = {"start_at": "turn", "active_side": None}


def new(save, seed=3, **options):
    return Game.new("lab", save, seed=seed, options={**TURN_START, **options}, extra_plugins=["turn"])


def all_accepted(game, choice: CommandChoice, samples=50):
    """Every command built from the choice (enumerated, bounded, and sampled) is accepted."""
    cmds = choice.commands(limit=300) + [choice.sample(random.Random(i)) for i in range(samples)]
    for cmd in cmds:
        assert cmd is not None
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return cmds


def values(choice, name):
    return [o.value for f in choice.fields if f.name == name for o in f.all_options()]


def direct(game, type_, actor):
    """A choices function asked directly (for commands a pending decider does not send)."""
    entry = game.host.choices[type_]
    fields = entry.choices(game.state, actor, game.state.kernel.sequence.current)
    return None if fields is None else CommandChoice(type_, actor, prune(list(fields)) or [])


def reach(game, step, limit=200):
    """Play by the choices only (first offer of a rules command, else FinishStep) until ``step``."""
    for _ in range(limit):
        k = game.state.kernel
        if k.sequence.current == step:
            return
        cmds = game.choices().commands()
        rules = [c for c in cmds if c.type != "FinishStep"]
        pick = rules[0] if rules else cmds[0]
        cmd = pick.sample(random.Random(0))
        assert game.submit(cmd).accepted
    raise AssertionError(f"never reached {step}")


# ---------------------------------------------------------------- Move First Decision
def test_move_first_decision_offers_exactly_the_sides_to_the_initiative_side(save):
    game = new(save)
    assert game.state.kernel.sequence.current == MOVE_FIRST
    holder = core.world(game.state).initiative
    [decision] = [d for d in game.choices().decisions if d.pending]
    assert decision.decider == holder
    [choice] = [c for c in decision.commands if c.type == "ChooseFirstMover"]
    assert sorted(values(choice, "side")) == sorted(game.state.kernel.sides)
    labels = [o.label for o in choice.fields[0].all_options()]
    assert all("moves first" in label for label in labels)
    for cmd in all_accepted(game, choice):
        preview = game.preview(cmd)
        assert preview["legal"] and preview["first_side"] == cmd["side"]


def test_move_first_decision_is_mandatory_finish_step_is_not_offered_nor_accepted(save):
    game = new(save)
    types = [c.type for c in game.choices().commands()]
    assert "FinishStep" not in types
    holder = core.world(game.state).initiative
    out = game.submit({"type": "FinishStep", "actor": holder})
    assert not out.accepted and "Move First Decision" in out.reason


def test_move_first_decision_the_side_that_lost_is_offered_no_choice(save):
    game = new(save)
    holder = core.world(game.state).initiative
    loser = next(s for s in game.state.kernel.sides if s != holder)
    assert direct(game, "ChooseFirstMover", loser) is None
    assert not game.preview({"type": "ChooseFirstMover", "actor": loser, "side": loser})["legal"]


# ---------------------------------------------------------------- Initiative (re-roll)
def test_initiative_the_loser_may_demand_one_reroll_the_winner_none(save):
    game = new(save)
    holder = core.world(game.state).initiative
    loser = next(s for s in game.state.kernel.sides if s != holder)
    assert direct(game, "DemandInitiativeReroll", holder) is None
    choice = direct(game, "DemandInitiativeReroll", loser)
    assert choice is not None and choice.fields == []
    preview = game.preview({"type": "DemandInitiativeReroll", "actor": loser})
    assert preview["legal"] and preview["stands"] is True
    assert game.submit({"type": "DemandInitiativeReroll", "actor": loser}).accepted
    assert track(game.state).rerolled
    # "The re-roll stands - there can be no further re-rolls."
    for side in game.state.kernel.sides:
        assert direct(game, "DemandInitiativeReroll", side) is None


def test_initiative_no_reroll_offered_when_the_track_is_at_its_end_for_the_winner(save):
    game = new(save)
    holder = core.world(game.state).initiative
    loser = next(s for s in game.state.kernel.sides if s != holder)
    track(game.state).initiative_track = 2 if holder == "axis" else -2
    assert direct(game, "DemandInitiativeReroll", loser) is None


# ---------------------------------------------------------------- Choose Action
def test_choose_action_at_war_offers_every_action_with_what_it_allows(save):
    game = new(save)
    reach(game, CHOOSE_ACTION)
    [choice] = offered(game, "ChooseAction")
    assert sorted(values(choice, "action")) == sorted(core.ACTIONS)
    labels = {o.value: o.label for o in choice.fields[0].all_options()}
    assert labels["pass"].startswith("Pass") and labels["land"].startswith("Land")
    for cmd in all_accepted(game, choice):
        preview = game.preview(cmd)
        assert preview["legal"]
        assert preview["activities"] == action_activities(choice.actor, cmd["action"])
    land = game.preview({"type": "ChooseAction", "actor": choice.actor, "action": "land"})
    assert "Land Movement" in land["phases"] and "Naval Movement" not in land["phases"]


def test_choose_action_a_neutral_major_power_is_offered_pass_or_combined_only(save):
    game = new(save, at_war=[])
    reach(game, CHOOSE_ACTION)
    [choice] = offered(game, "ChooseAction")
    assert sorted(values(choice, "action")) == ["combined", "pass"]
    all_accepted(game, choice)


def test_choose_action_is_mandatory_finish_step_is_offered_only_after_it(save):
    game = new(save)
    reach(game, CHOOSE_ACTION)
    assert "FinishStep" not in [c.type for c in game.choices().commands()]
    power = game.state.kernel.sequence.pending[0]
    assert not game.submit({"type": "FinishStep", "actor": power}).accepted


def test_choose_action_the_non_phasing_power_is_offered_nothing(save):
    game = new(save)
    reach(game, CHOOSE_ACTION)
    phasing = game.state.kernel.active_side
    other = next(p for p in game.state.kernel.powers() if game.state.kernel.side_of(p) != phasing)
    assert direct(game, "ChooseAction", other) is None


# ---------------------------------------------------------------- Sequence of Play
def test_sequence_of_play_a_bot_picking_only_among_choices_plays_turns_on(save):
    """A bot that only ever submits what Game.choices offers gets through whole turns."""
    game = new(save, last_turn=2)
    rng = random.Random(7)
    for _ in range(400):
        if game.state.kernel.sequence.finished:
            break
        cmds = game.choices().commands()
        assert cmds, f"nothing offered in {game.state.kernel.sequence.current}"
        cmd = rng.choice(cmds).sample(rng)
        out = game.submit(cmd)
        assert out.accepted, (cmd, out.reason)
    assert game.state.kernel.turn >= 2
