"""Supply's decisions (plugins/rules/supply): HQReorganize offered from the same check as its
handler, every offered command accepted, what the seeds forbid not offered.  Named after the
seed sections; built in the lab scenario (Orenburg, as in test_supply.py)."""

import random
from functools import partial

import helpers
from helpers import offered
from kernel.game import Game
from plugins.rules.supply import can_reorganize

HQ = {"type": "hq", "factors": {"combat": 2, "move": 4, "reorg": 2}}
unit = partial(helpers.unit, move=3)  # an infantry army, 4-3
HQ_STEP = "wif.turn.impulse.end-of-impulse.reorganization-by-hq"


def reorg_game(save, units):
    return Game.new("lab", save, seed=3, extra_plugins=["supply"], options={
        "units": units, "active_side": "allies", "actions": {"ussr": "land"},
        "start_at": "turn.impulse.end-of-impulse.reorganization-by-hq"})


def all_accepted(game, choice, samples=50):
    # Built before any is tried: a dry run leaves the state object it changed to lazy branches.
    cmds = choice.commands(limit=300) + [choice.sample(random.Random(i)) for i in range(samples)]
    for cmd in cmds:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return cmds


UNITS = [unit("hq1", "ussr", (236, 57), name="Southern HQ", **HQ),
         unit("s1", "ussr", (236, 56), face_up=False), unit("s2", "ussr", (237, 57), face_up=False),
         unit("s3", "ussr", (235, 57)),  # organized: nothing to do
         unit("s4", "ussr", (241, 63), face_up=False),  # beyond the HQ's range
         unit("hq2", "ussr", (230, 50), face_up=False, **HQ)]  # disorganized HQ


def test_reorganization_by_hq_offers_organized_hqs_and_the_disorganized_units_in_range(save):
    game = reorg_game(save, UNITS)
    assert game.state.kernel.sequence.current == HQ_STEP
    [choice] = offered(game, "HQReorganize")
    hqs = choice.fields[0].all_options()
    assert [o.value for o in hqs] == ["hq1"] and "Southern HQ" in hqs[0].label
    [units_field] = hqs[0].next_fields()
    assert [o.value for o in units_field.all_options()] == ["s1", "s2"]
    for uid in ("s3", "s4", "hq1"):
        assert can_reorganize(game.state, "hq1", uid) is not None
    [points] = units_field.all_options()[0].next_fields()
    assert [o.value for o in points.all_options()] == ["all", "one"]
    for cmd in all_accepted(game, choice):
        told = game.preview(cmd)
        assert told["legal"] and told["organized"] and told["hq_disorganized"]
    game.close()


def test_reorganization_by_hq_an_hq_that_spent_its_points_is_offered_no_more(save):
    game = reorg_game(save, UNITS)
    for uid in ("s1", "s2"):
        [choice] = offered(game, "HQReorganize")
        cmd = next(c for c in choice.commands() if c["unit"] == uid and c["points"] == "all")
        assert game.submit(cmd).accepted
    # two points spent: hq1 is disorganized and has none left
    assert offered(game, "HQReorganize") == []
    assert offered(game, "FinishStep")  # an optional decision: finishing is always offered
    game.close()


def test_reorganization_by_hq_a_power_is_offered_only_its_own_hqs(save):
    units = UNITS + [unit("ghq", "germany", (200, 50), **HQ), unit("g1", "germany", (200, 51), face_up=False)]
    game = reorg_game(save, units)
    assert [d.decider for d in game.choices().decisions] == ["ussr"]
    [choice] = offered(game, "HQReorganize")
    assert [o.value for o in choice.fields[0].all_options()] == ["hq1"]
    assert not game.preview({"type": "HQReorganize", "actor": "ussr", "hq": "ghq", "unit": "g1"})["legal"]
    game.close()
