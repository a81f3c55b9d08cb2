"""Filling in an offered command field by field (app/commandfill.py), as the forms and the map
do: the path through the choice tree, forgetting what depended on a changed value, subsets of
units, and — on real positions of Barbarossa — every command a fill completes is accepted."""

from __future__ import annotations

import random

import pytest

from app.commandfill import CommandFill, one_click, title_of
from kernel.choices import CommandChoice, Field, Option
from kernel.game import Game

from helpers import ok, play_by_choices


def move_choice() -> CommandChoice:
    """A unit, then a destination that depends on it; then a number of steps."""
    dests = {"a": [[1, 1], [1, 2]], "b": [[2, 2]]}
    unit = Field("unit", "unit", [Option(u, f"unit {u}", then=lambda u=u: [
        Field("to", "hex", [Option(h, f"{h[0]},{h[1]}") for h in dests[u]])]) for u in dests])
    return CommandChoice("MoveThing", "red", [unit, Field("steps", "number", min=1, max=3)])


def test_the_path_follows_the_chosen_options():
    fill = CommandFill(move_choice())
    path, pending = fill.walk()
    assert [f.name for f in path] == ["unit"] and pending.name == "unit"
    assert fill.set("unit", "a")
    assert fill.pending().name == "to" and [o.value for o in fill.pending().all_options()] == [[1, 1], [1, 2]]
    assert not fill.set("to", [2, 2])  # not offered for this unit
    assert fill.set("to", (1, 2))  # a hex may come as a tuple
    assert fill.complete() and fill.command() == {"type": "MoveThing", "actor": "red", "unit": "a", "to": [1, 2],
                                                  "steps": 1}
    assert fill.label(fill.field("to")) == "1,2"


def test_changing_a_value_forgets_what_depended_on_it():
    fill = CommandFill(move_choice())
    fill.set("unit", "a")
    fill.set("to", [1, 1])
    fill.set("steps", 3)
    fill.set("unit", "b")
    assert "to" not in fill.values and fill.values["steps"] == 3 and fill.pending().name == "to"
    fill.clear("unit")
    assert fill.pending().name == "unit" and fill.command() == {"type": "MoveThing", "actor": "red"}
    fill.set("unit", "b")
    fill.set("to", [2, 2])
    assert fill.command()["steps"] == 3  # a field that did not depend on the unit keeps its value
    assert not fill.set("steps", 4)  # out of range


def test_a_units_field_takes_any_subset_within_its_bounds():
    choice = CommandChoice("Gather", "red", [Field("units", "units", [Option("x"), Option("y"), Option("z")],
                                                   min=1, max=2)])
    fill = CommandFill(choice)
    assert not fill.complete()
    assert fill.toggle("units", ["x", "y"]) and fill.complete()
    assert not fill.toggle("units", ["z"])  # a third would be too many
    assert fill.toggle("units", ["x"]) and fill.values["units"] == ["y"]
    assert fill.units_chosen() == ["y"]


def test_one_click_commands_and_titles():
    side = CommandChoice("ChooseFirstMover", "axis", [Field("side", "option", [Option("axis"), Option("allies")])])
    assert one_click(side) is side.fields[0]
    assert one_click(move_choice()) is None
    assert title_of("ChooseFirstMover") == "Choose first mover" and title_of("FlyCAP") == "Fly CAP"


@pytest.fixture(scope="module")
def barbarossa(tmp_path_factory):
    game = Game.new("barbarossa", tmp_path_factory.mktemp("fill") / "b.wif", seed=11)
    for power in ("ussr", "germany"):  # the default setup, as the tray's Restore Setup does
        restore = [c for c in game.choices().commands() if c.type == "RestoreSetup"]
        if restore:
            ok(game, restore[0].base())
            ok(game, {"type": "FinishStep", "actor": restore[0].actor})
    yield game
    game.close()


def test_every_command_a_fill_completes_is_accepted(barbarossa):
    """The forms only ever submit what a fill completed from the offered options: on many
    positions of a real game, a fill completed by random picks is accepted (dry run)."""
    game, rng, tried = barbarossa, random.Random(5), 0
    for _ in range(12):
        for choice in game.choices().commands():
            if choice.source != "rules" or choice.type == "FinishStep":
                continue
            for _attempt in range(3):
                fill = CommandFill(choice)
                for _ in range(12):
                    f = fill.pending()
                    if f is None:
                        break
                    options = f.all_options()
                    if not options:
                        break
                    if f.kind == "units":
                        fill.set(f.name, [o.value for o in rng.sample(options, max(1, f.min or 0))])
                    elif f.kind == "number":
                        fill.set(f.name, rng.randint(f.min or 0, f.max if f.max is not None else (f.min or 0)))
                    else:
                        fill.set(f.name, rng.choice(options).value)
                if fill.complete():
                    outcome = game.dry_run(fill.command())
                    assert outcome.accepted, (fill.command(), outcome.reason)
                    tried += 1
        play_by_choices(game, rng, max_commands=8)
    assert tried >= 10
