"""Optional rules' decisions: what Game.choices offers under an optional rule, every command
built from it accepted; and the framework loads a toggleable rule only into games that have
the rules it plays with.  Named after the seed sections."""

from __future__ import annotations

import random

from helpers import ok, unit
from optlab import DECL, lab

from kernel.plugins import discover
from plugins.optional.framework.catalogue import build_catalogue
from plugins.optional.framework.presets import fits_game, game_plugins

STEP = "turn.impulse.land.combat.emergency-hq-supply"
POCKET = {"198,53": "ussr", "199,53": "ussr", "198,54": "ussr"}  # a Soviet pocket in Poland


def _units():
    return [unit("s-hq", "ussr", (198, 53), "hq-i", 1, factors={"reorg": 1}),
            unit("s-cut", "ussr", (199, 53), "inf", 3), unit("s-cut2", "ussr", (198, 52), "inf", 3),
            unit("s-far", "ussr", (204, 53), "inf", 3),
            unit("s-dis-hq", "ussr", (198, 54), "hq-i", 1, face_up=False),
            unit("g-inf", "germany", (206, 51), "inf", 4), unit("g-hq", "germany", (205, 51), "hq-i", 1)]


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
    discovery = discover()
    catalogue = build_catalogue(discovery)
    everywhere = game_plugins(catalogue, [])
    assert "2d10-land-crt" in everywhere  # no game named: every toggleable built-in rule
    skirmish = game_plugins(catalogue, [], fits_game(discovery, {"skirmish"}))
    assert "2d10-land-crt" not in skirmish and "emergency-hq-supply" not in skirmish
    assert "unlimited-breakdown" not in skirmish  # through Divisions it needs land
    assert "hq-support" in skirmish  # its plugin needs nothing
    wif = {"core", "units", "sequence", "turn", "land", "supply", "combat"}
    loaded = game_plugins(catalogue, [], fits_game(discovery, wif))
    assert {"2d10-land-crt", "emergency-hq-supply"} <= set(loaded)
    # Unlimited breakdown needs Divisions, which is chosen only at the start
    assert "unlimited-breakdown" not in loaded
    assert "unlimited-breakdown" in game_plugins(catalogue, ["divisions"], fits_game(discovery, wif))
    assert "fighter-bombers" not in loaded  # no air rules in that game
    # a rule switched ON is loaded whatever it needs (its plugin brings its rules along)
    assert "2d10-land-crt" in game_plugins(catalogue, ["2d10-land-crt"], fits_game(discovery, set()))


# ---------------------------------------------------------------- Break Down Units / Reform Units
BREAK_DOWN = "turn.end-of-turn.break-down-corps-armies"
REFORM = "turn.end-of-turn.reform-corps-armies"


def _divisions_game(save, rules=("divisions",), units=None):
    units = units or [unit("g-arm", "germany", (206, 51), "arm", 7, move=5),
                      unit("g-inf", "germany", (206, 53), "inf", 4),
                      unit("g-hq", "germany", (205, 51), "hq-i", 2), unit("s-inf", "ussr", (230, 52), "inf", 3)]
    return lab(save, rules=list(rules), units=units, start_at=BREAK_DOWN, plugins=("land",))


def _offered(game, type_, actor="germany"):
    return [c for c in game.choices().commands() if c.type == type_ and c.actor == actor]


def test_break_down_units_offers_corps_and_only_division_pairs_within_half_the_factors(save):
    game = _divisions_game(save)
    [choice] = _offered(game, "BreakDownUnit")
    corps = {o.value for o in choice.fields[0].all_options()}
    assert "g-arm" in corps and "g-hq" not in corps  # an HQ has no divisions
    cmds = all_accepted(game, choice)
    arm = [c for c in cmds if c["unit"] == "g-arm"]
    assert arm and all(c["first"].startswith("ge-div-arm") for c in arm)
    # ARM 3 + MOT 2 would be 5 > 4 (half of 7, rounded up): never offered
    assert not any(c["first"] == "ge-div-arm-1" and c["second"] == "ge-div-mot-1" for c in arm)
    told = game.preview(arm[0])
    assert told["legal"] and len(told["divisions"]) == 2


def test_reform_units_offers_stacked_pairs_with_a_mot_division(save):
    game = _divisions_game(save)
    ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-arm", "first": "ge-div-arm-3",
              "second": "ge-div-mot-1"})
    for power in ("germany", "ussr"):
        ok(game, {"type": "FinishStep", "actor": power})
    assert game.state.kernel.sequence.current.endswith(REFORM)
    [choice] = _offered(game, "ReformUnits")
    pairs = [o.value for o in choice.fields[0].all_options()]
    assert pairs == [["ge-div-arm-3", "ge-div-mot-1"]]
    all_accepted(game, choice)
    assert game.preview({"type": "ReformUnits", "actor": "germany", "divisions": pairs[0]})["candidates"] == ["g-arm"]


def test_unlimited_breakdown_offers_generated_divisions_and_the_corps_to_reform(save):
    units = [unit("g-cav", "germany", (205, 52), "cav", 5, move=4), unit("s-inf", "ussr", (230, 52), "inf", 3),
             unit("g-cav2", "germany", (0, 0), "cav", 4, where="force-pool")]
    units[-1]["hex"] = None
    game = _divisions_game(save, rules=("divisions", "unlimited-breakdown"), units=units)
    [choice] = _offered(game, "BreakDownUnit")
    cmds = all_accepted(game, choice)
    assert {c["second"] for c in cmds} == {"inf", "mot"} and {c["first"] for c in cmds} == {"first"}
    ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-cav", "second": "mot"})
    for power in ("germany", "ussr"):
        ok(game, {"type": "FinishStep", "actor": power})
    [reform] = _offered(game, "ReformUnits")
    cmds = all_accepted(game, reform)
    assert all(c.get("corps") for c in cmds)  # the player chooses the corps
    assert {c["corps"] for c in cmds} == {"g-cav", "g-cav2"}
