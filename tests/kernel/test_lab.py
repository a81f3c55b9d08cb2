"""Lab games and the kernel's rig (kernel/lab.py): the lab flag in the first event, playback
dice through the dice seam (Context.roll), RigStep; all refused in a normal game."""

import random

import pytest

from app.cli import main
from helpers import finish, offered, ok, refused, types
from kernel.game import Game
from kernel.verify import verify


def new_mini(mini, save, lab=True, **options):
    return Game.new("mini", save, seed=3, options=options, plugin_dirs=mini, lab=lab)


def rolls(game):
    return [e.data["results"] for e in game.history() if e.type == "DiceRolled"]


def through_setup(game):
    for p in ("n1", "n2", "s1"):
        finish(game, p)


# ---------------------------------------------------------------- the lab flag
def test_a_lab_game_says_so_in_its_first_event_and_verify_reports_it(mini, save, capsys):
    game = new_mini(mini, save)
    first = game.history(1, 1)[0]
    assert first.type == "GameStarted" and first.data["lab"] is True
    assert game.state.kernel.lab
    assert game.describe(first).startswith("New lab game of mini")
    game.close()
    report = verify(save, plugin_dirs=mini)
    assert report.ok and report.lab


def test_wif_verify_prints_lab_game(tmp_path, capsys):
    path = tmp_path / "lab.wif"
    Game.new("skirmish", path, seed=1, lab=True).close()
    assert main(["verify", str(path)]) == 0
    assert "lab game" in capsys.readouterr().out
    plain = tmp_path / "plain.wif"
    Game.new("skirmish", plain, seed=1).close()
    assert main(["verify", str(plain)]) == 0
    assert "lab game" not in capsys.readouterr().out


def test_a_normal_game_refuses_the_rig_and_does_not_offer_it(mini, save):
    game = new_mini(mini, save, lab=False)
    assert game.history(1, 1)[0].data["lab"] is False and not game.state.kernel.lab
    for cmd in ({"type": "RigDice", "actor": "n1", "results": [1]},
                {"type": "RigStep", "actor": "n1", "step": "turn.act"}):
        reason = refused(game, cmd, "lab games only", "normal game")
        assert reason.startswith(cmd["type"])
    assert not [c for c in offered(game) if c.type.startswith("Rig")]
    game.close()


def test_a_lab_game_offers_the_rig_as_decisions_that_do_not_hold_the_game_up(mini, save):
    game = new_mini(mini, save)
    decisions = game.choices(None).decisions
    rig = [d for d in decisions if any(c.type == "RigDice" for c in d.commands)]
    assert rig and not any(d.pending for d in rig)
    assert {"RigDice", "RigStep"} <= {c.type for d in rig for c in d.commands}
    # every offered rig command is accepted (the choices contract)
    for choice in [c for c in offered(game) if c.type.startswith("Rig")]:
        for cmd in choice.commands(limit=30):
            assert game.dry_run(cmd).accepted, cmd
    game.close()


# ---------------------------------------------------------------- playback dice
def test_playback_dice_are_used_in_order(mini, save):
    game = new_mini(mini, save, turns=3)
    assert types(ok(game, {"type": "RigDice", "actor": "n1", "results": [6, 2, 5]})) == ["DicePlaybackSet"]
    through_setup(game)
    assert rolls(game) == [[6]] and game.state.kernel.active_side == "south"  # 4-6: south acts first
    assert game.state.kernel.dice_playback == [2, 5]
    finish(game, "s1")  # the rest of turn 1; turn 2 rolls the next die
    assert rolls(game) == [[6], [2]] and game.state.kernel.active_side == "north"
    assert game.state.kernel.dice_playback == [5]
    game.close()
    again = Game.open(save, plugin_dirs=mini)  # replay folds the same list
    assert again.state.kernel.dice_playback == [5]
    again.close()
    assert verify(save, plugin_dirs=mini).ok


def test_playback_dice_running_out_is_an_error_naming_the_roll(mini, save):
    game = new_mini(mini, save)
    ok(game, {"type": "RigDice", "actor": "n1", "results": []})
    finish(game, "n1")
    finish(game, "n2")
    before = game.state.kernel.seq
    out = game.submit({"type": "FinishStep", "actor": "s1"})  # would roll "who acts first"
    assert not out.accepted
    assert "RigDice" in out.reason and "ran out" in out.reason and "'who acts first'" in out.reason
    assert "d6" in out.reason
    assert game.state.kernel.seq == before  # nothing of the failed command is kept
    ok(game, {"type": "RigDice", "actor": "n1", "results": [7]})
    out = game.submit({"type": "FinishStep", "actor": "s1"})
    assert not out.accepted and "7" in out.reason and "d6" in out.reason
    ok(game, {"type": "RigDice", "actor": "n1", "results": [1]})
    finish(game, "s1")
    assert rolls(game) == [[1]]
    game.close()


def test_rig_dice_null_goes_back_to_the_ordinary_dice(mini, save):
    game = new_mini(mini, save)
    ok(game, {"type": "RigDice", "actor": "n1", "results": [1, 1]})
    ok(game, {"type": "RigDice", "actor": "n1", "results": None})
    assert game.state.kernel.dice_playback is None
    through_setup(game)
    (roll,) = [e for e in game.history() if e.type == "DiceRolled"]
    # the ordinary dice: seeded by the game's seed and the command's first seq
    assert roll.data["results"] == [random.Random(f"3:{roll.cmd}").randint(1, 6)]
    game.close()


def test_the_ordinary_dice_are_unchanged_by_the_seam(mini, save):
    """A normal game's die is the seeded generator's, as before lab games existed."""
    game = new_mini(mini, save, lab=False)
    through_setup(game)
    (roll,) = [e for e in game.history() if e.type == "DiceRolled"]
    assert roll.data["results"] == [random.Random(f"3:{roll.cmd}").randint(1, 6)]
    game.close()


def test_dry_run_plays_back_without_using_up_the_list(mini, save):
    game = new_mini(mini, save)
    ok(game, {"type": "RigDice", "actor": "n1", "results": [5]})
    finish(game, "n1")
    finish(game, "n2")
    out = game.dry_run({"type": "FinishStep", "actor": "s1"})
    assert out.accepted and [e.data["results"] for e in out.events if e.type == "DiceRolled"] == [[5]]
    assert game.state.kernel.dice_playback == [5]
    game.close()


@pytest.mark.parametrize("results, words", [([0], "1 or more"), ([2, -1], "1 or more")])
def test_rig_dice_refuses_impossible_results(mini, save, results, words):
    game = new_mini(mini, save)
    refused(game, {"type": "RigDice", "actor": "n1", "results": results}, words)
    game.close()


# ---------------------------------------------------------------- RigStep
def test_rig_step_goes_to_any_step_with_turn_and_active_side(mini, save):
    game = new_mini(mini, save, turns=9)
    events = ok(game, {"type": "RigStep", "actor": "n1", "step": "turn.act", "turn": 5, "active_side": "south"})
    assert types(events) == ["ActiveSideSet", "StepRigged", "StepStarted"]
    k = game.state.kernel
    assert (k.sequence.current, k.sequence.pending, k.turn, k.active_side) == ("mini.turn.act", ["south"], 5, "south")
    assert game.describe(events[1]) == "Lab: the game goes to mini.turn.act, turn 5"
    game.close()
    assert verify(save, plugin_dirs=mini).ok


def test_rig_step_reopens_a_finished_game(mini, save):
    game = new_mini(mini, save, turns=1)
    ok(game, {"type": "RigDice", "actor": "n1", "results": [1]})
    through_setup(game)
    finish(game, "n1")  # north acts: the turn, and the game, end
    assert game.state.kernel.sequence.finished
    ok(game, {"type": "RigStep", "actor": "n1", "step": "setup"})
    assert not game.state.kernel.sequence.finished and game.state.kernel.sequence.current == "mini.setup"
    game.close()


@pytest.mark.parametrize("fields, words", [
    ({"step": "turn.nowhere"}, "no step 'turn.nowhere'"),
    ({"step": "turn.act", "active_side": "east"}, "no side 'east'"),
    ({"step": "turn.act", "turn": -1}, "turn -1"),
])
def test_rig_step_bad_input_names_the_thing(mini, save, fields, words):
    game = new_mini(mini, save)
    refused(game, {"type": "RigStep", "actor": "n1", **fields}, "RigStep", words)
    game.close()


def test_playback_dice_then_the_ordinary_dice(mini, save):
    game = new_mini(mini, save, turns=3)
    events = ok(game, {"type": "RigDice", "actor": "n1", "results": [6], "then_ordinary": True})
    assert game.describe(events[0]) == "Lab: the next dice are [6], then the ordinary dice"
    through_setup(game)
    assert rolls(game) == [[6]] and game.state.kernel.dice_playback is None  # used up: ordinary again
    finish(game, "s1")  # turn 2 rolls the ordinary die
    (first, second) = [e for e in game.history() if e.type == "DiceRolled"]
    assert second.data["results"] == [random.Random(f"3:{second.cmd}").randint(1, 6)]
    game.close()
    assert verify(save, plugin_dirs=mini).ok
