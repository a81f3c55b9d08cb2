"""The sequence-of-play engine: steps as data, done sets, loops, skips, digressions."""

from helpers import finish
from kernel.game import Game


def new_mini(mini, save, **options):
    return Game.new("mini", save, seed=3, options=options, plugin_dirs=mini)


def at(game):
    seq = game.state.kernel.sequence
    return seq.current, list(seq.pending)


def to_act(game):
    for p in ("n1", "n2", "s1"):
        finish(game, p)
    assert at(game)[0] == "mini.turn.act"


def test_each_power_step_waits_for_the_whole_done_set(mini, save):
    game = new_mini(mini, save)
    assert at(game) == ("mini.setup", ["n1", "n2", "s1"])
    finish(game, "n2")
    assert at(game) == ("mini.setup", ["n1", "s1"])
    out = game.submit({"type": "FinishStep", "actor": "n2"})
    assert not out.accepted and "nothing (more) to decide" in out.reason
    finish(game, "n1")
    finish(game, "s1")
    assert at(game)[0] == "mini.turn.act"
    game.close()


def test_automatic_step_rolls_dice_and_sets_the_active_side(mini, save):
    game = new_mini(mini, save)
    to_act(game)
    events = game.history()
    roll = [e for e in events if e.type == "DiceRolled"][0]
    assert roll.actor == "system" and roll.data["purpose"] == "who acts first"
    side = "north" if roll.data["results"][0] <= 3 else "south"
    assert game.state.kernel.active_side == side
    assert at(game) == ("mini.turn.act", [side])
    game.close()


def test_step_without_a_rule_is_skipped_with_a_recorded_reason(mini, save):
    game = new_mini(mini, save)
    to_act(game)
    side = game.state.kernel.active_side
    finish(game, "n1" if side == "north" else "s1")
    skips = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert skips["mini.turn.unwritten"] == "no rule yet"  # automatic, nobody registered a rule
    assert skips["mini.turn.undecided"] == "no rule yet"  # its commands have no handler
    assert skips["mini.turn.optional"] == "optional rule not in play"  # the skip_step hook
    game.close()


def test_skip_hook_lets_the_step_run_when_its_rule_is_on(mini, save):
    game = new_mini(mini, save, optional=True)
    to_act(game)
    side = game.state.kernel.active_side
    finish(game, "n1" if side == "north" else "s1")
    assert at(game) == ("mini.turn.optional", ["n1", "n2", "s1"])
    game.close()


def test_side_decision_accepts_any_power_of_the_side(mini, save):
    game = new_mini(mini, save)
    to_act(game)
    side = game.state.kernel.active_side
    other_power = "s1" if side == "north" else "n1"
    out = game.submit({"type": "Note", "actor": other_power, "text": "not my turn"})
    assert not out.accepted and "nothing (more) to decide" in out.reason
    power = "n2" if side == "north" else "s1"
    assert game.submit({"type": "Note", "actor": power, "text": "go"}).accepted
    assert game.state["mini.notes"].lines == ["go"]
    game.close()


def test_turn_loop_repeats_until_the_rule_says_stop_and_counts_turns(mini, save):
    game = new_mini(mini, save, turns=3)
    for p in ("n1", "n2", "s1"):
        finish(game, p)
    turns_seen = set()
    while not game.state.kernel.sequence.finished:
        turns_seen.add(game.state.kernel.turn)
        current, pending = at(game)
        power = {"north": "n1", "south": "s1"}.get(pending[0], pending[0])
        finish(game, power)
    assert turns_seen == {1, 2, 3}
    starts = [e for e in game.history() if e.type == "StepStarted" and e.data["step"] == "mini.turn"]
    assert [e.data["repeat"] for e in starts] == [0, 1, 2]
    assert [e.turn for e in starts] == [1, 2, 3]
    assert game.history()[-1].type == "SequenceFinished"
    out = game.submit({"type": "FinishStep", "actor": "n1"})
    assert not out.accepted and out.reason == "the game is over"
    game.close()


def test_digressions_nest_and_return_to_the_interrupted_step(mini, save):
    game = new_mini(mini, save)
    to_act(game)
    side = game.state.kernel.active_side
    actor = "n1" if side == "north" else "s1"
    assert game.submit({"type": "Interrupt", "actor": actor, "which": "outer"}).accepted
    assert at(game) == ("mini.digressions.outer.first", ["s1"])  # rule:victim resolved by a plugin
    # inside the outer digression, interrupt again: the inner one nests
    assert game.submit({"type": "Interrupt", "actor": "s1", "which": "inner"}).accepted
    inactive_powers = ["s1"] if side == "north" else ["n1", "n2"]
    assert at(game) == ("mini.digressions.inner", inactive_powers)
    assert len(game.state.kernel.sequence.stack) == 2
    for p in inactive_powers:
        finish(game, p)
    assert at(game) == ("mini.digressions.outer.first", ["s1"])  # back where it was interrupted
    finish(game, "s1")
    inactive = "south" if side == "north" else "north"
    assert at(game) == ("mini.digressions.outer.second", [inactive])
    finish(game, "s1" if inactive == "south" else "n1")
    assert at(game) == ("mini.turn.act", [side])  # the interrupted phase resumes, still waiting
    assert game.state.kernel.sequence.stack == []
    kinds = [e.type for e in game.history() if e.type.startswith("Digression")]
    assert kinds == ["DigressionStarted", "DigressionStarted", "DigressionEnded", "DigressionEnded"]
    game.close()


def test_state_after_reopen_mid_digression_is_identical(mini, save):
    game = new_mini(mini, save)
    to_act(game)
    side = game.state.kernel.active_side
    game.submit({"type": "Interrupt", "actor": "n1" if side == "north" else "s1", "which": "outer"})
    before = game.state.to_json()
    game.close()
    with Game.open(save, plugin_dirs=mini) as again:
        assert again.state.to_json() == before


BARE_WIF = """
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="bare", name="Bare", sides={"axis": ["germany"], "allies": ["ussr"]}, sequence="wif"))

@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == "wif.turn":
        return ctx.state.kernel.turn < 5
"""


def test_wif_sequence_runs_through_with_no_rule_yet_skips(tmp_path, plugin_dir):
    """The full WiF tree with no rule plugins: every step present, each skipped as 'no rule yet'."""
    plugin_dir.add("bare", BARE_WIF, kind="scenario", requires=["sequence"])
    game = Game.new("bare", tmp_path / "b.wif", seed=1, plugin_dirs=[plugin_dir.path])
    skipped = [e for e in game.history() if e.type == "StepSkipped"]
    assert skipped and all(e.data["reason"] == "no rule yet" for e in skipped)
    titles = {e.data["title"] for e in skipped}
    assert {"Weather", "Choose Action", "Land Combat Resolution"} <= titles
    turns = [e for e in game.history() if e.type == "StepStarted" and e.data["step"] == "wif.turn"]
    assert len(turns) == 5  # the test scenario's length
    assert game.state.kernel.sequence.finished
    game.close()


STEP_HOOKS = """
from kernel.hookspecs import hookimpl

@hookimpl
def step_ended(ctx, step_id, spec):
    if step_id == "mini.setup":
        ctx.push("digressions.inner")  # an end-of-phase check that needs a decision

@hookimpl
def finish_step_refusal(state, step_id, power):
    if step_id == "mini.setup" and power == "s1" and not state["mini.notes"].lines:
        return "Setup: s1 must write a note before finishing"
"""


def test_step_end_hook_may_push_a_digression_and_a_rule_may_refuse_finishing(mini, save, plugin_dir):
    plugin_dir.add("hooks", STEP_HOOKS, requires=["mini"])
    game = Game.new("mini", save, seed=3, plugin_dirs=mini, extra_plugins=["hooks"])
    game.state.kernel.active_side  # no active side yet: the inner digression's deciders need one
    out = game.submit({"type": "FinishStep", "actor": "s1"})
    assert not out.accepted and out.reason == "Setup: s1 must write a note before finishing"
    game.submit({"type": "Note", "actor": "s1", "text": "ok"})
    for p in ("n1", "n2", "s1"):
        finish(game, p)
    kinds = [e.type for e in game.history() if e.type.startswith("Digression") or e.type == "StepSkipped"]
    assert kinds[:3] == ["DigressionStarted", "StepSkipped", "DigressionEnded"]  # nobody inactive yet
    assert at(game)[0] == "mini.turn.act"
    game.close()


ROUNDS = """
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec
from pydantic import BaseModel

class Count(BaseModel):
    rounds: int = 0

class Fought(EventData):
    pass

class Fight(Command):
    pass

def fight(ctx, cmd):
    ctx.emit(Fought())

def start(ctx, cmd):
    ctx.push("battle")

class Start(Command):
    pass

def _fought(state, event):
    state["r.count"].rounds += 1

@hookimpl
def register_state(register):
    register("r.count", Count)

@hookimpl
def register_events(register):
    register(Fought)

@hookimpl
def register_reducers(register):
    register("Fought", _fought)

@hookimpl
def register_commands(register):
    register(Fight, fight)
    register(Start, start)

@hookimpl
def register_sequences(register):
    register("r", StepSpec.model_validate({"id": "r", "title": "R", "level": "root", "children": [
        {"id": "main", "title": "Main", "decides": "each-power", "commands": ["Start"]},
        {"id": "battle", "title": "Battle", "level": "phase", "called": True, "repeat": True, "children": [
            {"id": "round", "title": "Round", "decides": "each-power", "commands": ["Fight"]}]}]}))

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="rounds", name="Rounds", sides={"s": ["p"]}, sequence="r"))

@hookimpl
def repeat_step(ctx, step_id, spec):
    if step_id == "r.battle":
        return ctx.state["r.count"].rounds < 3

@hookimpl
def event_view(event, player, view, state):
    if event.type == "Fought" and state["r.count"].rounds >= 3 and player == "spy":
        view["hidden"] = True
"""


def test_a_pushed_sub_machine_repeats_its_rounds_then_returns(plugin_dir, save):
    plugin_dir.add("rounds", ROUNDS, kind="scenario")
    game = Game.new("rounds", save, seed=1, plugin_dirs=[plugin_dir.path])
    assert game.submit({"type": "Start", "actor": "p"}).accepted
    for n in range(3):
        assert at(game) == ("r.battle.round", ["p"])
        assert game.submit({"type": "Fight", "actor": "p"}).accepted
        finish(game, "p")
    assert at(game) == ("r.main", ["p"])  # back where the battle was pushed, still waiting
    starts = [e.data["repeat"] for e in game.history() if e.type == "StepStarted" and e.data["step"] == "r.battle"]
    assert starts == [0, 1, 2]
    # the event view sees the state: this player may not see the fights once they are over
    assert [e.type for e in game.history(player="spy")].count("Fought") == 0
    assert [e.type for e in game.history(player="p")].count("Fought") == 3
    game.close()


def test_acting_power_answers_for_a_pending_side_or_power(mini, save):
    game = new_mini(mini, save)
    assert game.state.kernel.acting_power() == "n1"  # each-power step: the first pending power
    to_act(game)
    side = game.state.kernel.active_side
    assert game.state.kernel.acting_power() == ("n1" if side == "north" else "s1")  # a side: its first power
    game.close()
