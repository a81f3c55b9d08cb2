"""Optional rules' decisions: what Game.choices offers under an optional rule, every command
built from it accepted; and the framework loads a toggleable rule only into games that have
the rules it plays with.  Named after the seed sections."""

from __future__ import annotations

import random

from optlab import DECL, lab, ok, unit

from plugins.optional.framework.catalogue import build_catalogue, game_plugins

STEP = "turn.impulse.land.combat.emergency-hq-supply"
POCKET = {"198,53": "ussr", "199,53": "ussr", "198,54": "ussr"}  # a Soviet pocket in Poland


def _units():
    return [unit("s-hq", "ussr", "hq-i", 1, (198, 53), factors={"reorg": 1}),
            unit("s-cut", "ussr", "inf", 3, (199, 53)), unit("s-cut2", "ussr", "inf", 3, (198, 52)),
            unit("s-far", "ussr", "inf", 3, (204, 53)),
            unit("s-dis-hq", "ussr", "hq-i", 1, (198, 54), face_up=False),
            unit("g-inf", "germany", "inf", 4, (206, 51)), unit("g-hq", "germany", "hq-i", 1, (205, 51))]


def _game(save, rules=("emergency-hq-supply",)):
    game = lab(save, rules=list(rules), units=_units(), hex_control={**POCKET, "198,52": "ussr"}, start_at=DECL,
               plugins=("combat", "supply", "land"))
    ok(game, {"type": "FinishStep", "actor": "germany"})
    return game


def all_accepted(game, choice, samples=50):
    # Built before any is tried: a dry run leaves the state object it changed to lazy branches.
    cmds = choice.commands(limit=300) + [choice.sample(random.Random(i)) for i in range(samples)]
    for cmd in cmds:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return cmds


# ---------------------------------------------------------------- Emergency HQ Supply
def test_emergency_hq_supply_offers_organized_hqs_and_the_cut_off_units_that_trace_to_them(save):
    game = _game(save)
    assert game.state.kernel.sequence.current.endswith(STEP)
    [choice] = [c for c in game.choices().commands() if c.type == "DeclareEmergencyHQSupply"]
    hqs = choice.fields[0].all_options()
    assert [o.value for o in hqs] == ["s-hq"]  # not the disorganized HQ
    [units] = hqs[0].next_fields()
    assert units.kind == "units" and units.min == 0
    offered = [o.value for o in units.all_options()]
    assert "s-cut" in offered and "s-far" not in offered and "s-dis-hq" not in offered
    cmds = all_accepted(game, choice)
    told = game.preview(cmds[0])
    assert told["legal"] and set(told["in_supply"]) <= set(offered)
    assert [c for c in game.choices().commands() if c.type == "FinishStep"]  # optional: may decline


def test_emergency_hq_supply_off_offers_nothing(save):
    game = _game(save, rules=())
    entry = game.host.choices["DeclareEmergencyHQSupply"]
    assert entry.choices(game.state, "ussr", game.state.kernel.sequence.current) is None


# ---------------------------------------------------------------- Optional Rules (the framework)
def test_optional_rules_a_toggleable_rule_is_loaded_only_where_its_rules_are_played():
    catalogue = build_catalogue()
    everywhere = game_plugins(catalogue, [])
    assert "2d10-land-crt" in everywhere  # no game named: every toggleable built-in rule
    skirmish = game_plugins(catalogue, [], game_has=set())
    assert "2d10-land-crt" not in skirmish and "emergency-hq-supply" not in skirmish
    assert "hq-support" in skirmish  # its plugin needs nothing
    wif = game_plugins(catalogue, [], game_has={"core", "units", "sequence", "turn", "land", "supply", "combat"})
    assert "2d10-land-crt" in wif and "emergency-hq-supply" in wif
    assert "fighter-bombers" not in wif  # no air rules in that game
    # a rule switched ON is loaded whatever it needs (its plugin brings its rules along)
    assert "2d10-land-crt" in game_plugins(catalogue, ["2d10-land-crt"], game_has=set())
