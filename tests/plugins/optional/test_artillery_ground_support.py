"""Optional rule Artillery, field artillery in ground support (seeds, "Air Attacks": "ART units
can also provide ground support into adjacent hexes (see RAC 22.4.2)"), and the offensive chit
that doubles it (seeds, "Pick HQ", Land action: "You can also double field artillery ... combat
factors for ground support").  Built on Barbarossa in lab mode: Germany attacks the Soviet corps
at (203,54) with a1 from (202,54); its ART division at (202,55) is next to the combat, 1 hex
from the HQ at Warsaw (reorganization value 2); the game waits before the die roll."""

from __future__ import annotations

import random

from helpers import offered, ok, place, refused, unit

from plugins.optional.framework import new_game
from plugins.rules.combat import odds as O
from plugins.rules.combat.state import current_combat

ART = unit("art1", "germany", (202, 55), "art", 2, 3, size="division")
SUPPORT = {"type": "ArtilleryGroundSupport", "actor": "germany", "units": ["art1"]}


def _combat(save, rules=("divisions", "artillery"), chit=False, action="land"):
    game = new_game("barbarossa", save, on=list(rules), seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    place(game, unit("g-hq", "germany", (201, 54), "hq-a", 2, 4, factors={"reorg": 2}),
          unit("a1", "germany", (202, 54), "inf", 4, 4), ART, unit("r1", "ussr", (203, 54), "inf", 3, 3))
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.new-impulse.choose-action",
              "turn": 1, "impulse": 1, "active_side": "axis"})
    if chit:
        ok(game, {"type": "PlayOffensiveChit", "actor": "germany", "hq": "g-hq"})
    ok(game, {"type": "ChooseAction", "actor": "germany", "action": action})
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.land.combat.land-combat-declaration"})
    ok(game, type="DeclareAttack", actor="germany", hex=[203, 54], units=["a1"])
    while not game.state.kernel.sequence.current.endswith("assault-or-blitz"):
        ok(game, type="FinishStep", actor=game.state.kernel.sequence.pending[0])
    return game


def _attack_total(game):
    return O.evaluate_combat(game.state, current_combat(game.state), hook=game.host.pm.hook)["attack"]


def test_artillery_field_artillery_gives_ground_support_to_a_combat_next_to_it(save):
    game = _combat(save)
    before = _attack_total(game)
    (choice,) = offered(game, "ArtilleryGroundSupport")
    cmds = choice.commands(limit=20) + [choice.sample(random.Random(i)) for i in range(5)]
    assert {tuple(c["units"]) for c in cmds} == {("art1",)}
    for cmd in cmds:
        assert game.dry_run(cmd).accepted, cmd
    assert game.preview(SUPPORT)["factors"] == 2 and game.preview(SUPPORT)["side"] == "attacker"
    events = ok(game, SUPPORT)
    assert [e.type for e in events] == ["ArtilleryGroundSupportGiven", "GroundSupportAdded", "UnitFlipped"]
    assert "field artillery" in game.describe(events[0])
    assert _attack_total(game) == before + 2
    # disorganized once it has supported (authored), so it supports once
    assert not game.state["units"].units["art1"].face_up
    assert "no organized" in refused(game, SUPPORT)


def test_artillery_an_offensive_chit_in_a_land_action_doubles_field_artillery_support(save):
    game = _combat(save, rules=("divisions", "artillery", "offensive-chits"), chit=True)
    assert game.preview(SUPPORT)["factors"] == 4
    ok(game, SUPPORT)
    assert game.state["combat"].ground_support[current_combat(game.state).id]["attacker"] == 4


def test_artillery_off_no_field_artillery_support(save):
    game = _combat(save, rules=())
    assert not offered(game, "ArtilleryGroundSupport")
    assert "unknown command" in refused(game, SUPPORT)  # an additional-units rule: not loaded when off


def test_artillery_support_only_before_the_die_roll_and_next_to_the_combat(save):
    game = _combat(save)
    place(game, unit("art-far", "germany", (200, 55), "art", 2, 3, size="division"))
    assert "next to" in refused(game, {**SUPPORT, "units": ["art-far"]})
    ok(game, type="ChooseLandCombatType", actor="ussr", table="assault")
    ok(game, type="ResolveCombat", actor=game.state.kernel.sequence.pending[0])
    assert "before its die roll" in refused(game, SUPPORT)
