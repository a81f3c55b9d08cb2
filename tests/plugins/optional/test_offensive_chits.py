"""Optional rule Offensive chits (seeds, "Pick HQ"; "Choose Action"): a major power at war plays
a chit when it chooses its action, one an impulse, used up; an HQ's benefits within its range
(extra ground strike die, doubled ground support in an air action), the HQ disorganized at the
end of the impulse; or every HQ reorganized instead.  OFF: no chit."""

from __future__ import annotations

import importlib
import random

from helpers import offered, ok, place, refused, unit

from plugins.optional.framework import new_game
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
