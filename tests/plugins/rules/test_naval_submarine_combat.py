"""Submarine combat targets (seed 000 "Surprise Points": "During submarine combat: any losses
inflicted by the non-SUB side can only be taken on the SUBs that attacked them ... any losses
inflicted by the SUB side can only be taken on convoys (unless someone spends 3 surprise points to
inflict them on another target)"): a German SUB and cruiser against a Soviet convoy and its escort."""

import random

from helpers import dice, lab_game, ok, play_by_choices, ship
from plugins.rules.naval.naval_combat_results import eligible_targets
from test_naval_air_combat import K, LENINGRAD

ROUND = "wif.procedures.naval-combat.round"


def test_submarine_combat_losses_fall_on_the_convoys_and_on_the_subs(tmp_path):
    german = [ship("u1", type_="sub", attack=6, defense=3, aa=0), ship("k1", attack=3, defense=3, aa=1)]
    soviet = [ship("c1", power="ussr", type_="convoy", hex_=LENINGRAD, factors={"points": 4}),
              ship("d1", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)]
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    ok(g, {"type": "RigShipsAtSea", "actor": "ussr", "units": ["c1", "d1"], "area": "BA", "section": 0})
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["u1", "k1"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    dice(g, 1, 1, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    seen = {}

    def note(game):
        c = game.state["naval"].combat
        if c is not None and c.kind == "submarine":
            for side in ("axis", "allies"):
                if c.due.get(side) and side not in c.target_picks:
                    seen.setdefault(side, set()).update(eligible_targets(game.state, side))
        return c is None

    while g.state.kernel.sequence.current.endswith(("commit-submarines-is", "commit-submarines-nis")):
        ok(g, type="CommitSubs", actor=g.state.kernel.sequence.pending[0], commit=True)
    play_by_choices(g, random.Random(1), max_commands=60, until=lambda game: game.state["naval"].combat is None
                    or game.state["naval"].combat.kind != "")
    assert g.state["naval"].combat.kind == "submarine"
    for _ in range(80):
        if note(g):
            break
        play_by_choices(g, random.Random(1), max_commands=1)
    # the SUB's results fall on the convoy only (not its escort); the escort's ASW results on the
    # SUB only (not the cruiser)
    assert seen == {"allies": {"c1"}, "axis": {"u1"}}
