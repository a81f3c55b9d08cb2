"""Land combat decisions after the die (plugins/rules/combat), one test per seed section:
Convert Shattered Results to Retreats, Assign Losses, Retreat Units, Advance After Combat, and
a real Barbarossa game's combats played from the choices.  The contract and situations are
those of test_combat_choices.py."""

from __future__ import annotations

import random

import helpers
from helpers import offered, ok, refused, unit
from test_combat import T, find, new_game, step, strong, supply_hq
from test_combat_choices import all_accepted, can_finish, declare_and_finish, the_choice, values

from kernel.game import Game
from plugins.rules.combat import PROC, current_combat, open_combats, retreat_options
from plugins.rules.combat import odds as O


# ---------------------------------------------------------------- Convert Shattered Results / Assign Losses
def test_convert_shattered_results_to_retreats_offered_after_an_s_or_b(tmp_path):
    game, events, res = find(tmp_path, lambda r: r == "*/1B", units=strong())
    choice = the_choice(game, "ConvertToRetreat")
    assert choice.fields[0].kind == "bool"
    all_accepted(game, choice)
    assert game.preview({"type": "ConvertToRetreat", "actor": "germany", "convert": True})["treated_as"] == "R"


def test_assign_losses_any_units_of_the_side_as_many_as_the_result_takes(tmp_path):
    game, events, res = find(tmp_path, lambda r: O.parse_result(r)["attacker_losses"] == 1)
    choice = the_choice(game, "AssignLandLosses")
    [field] = choice.fields
    assert choice.actor == "germany" and field.kind == "units" and (field.min, field.max) == (1, 1)
    assert sorted(field.values()) == ["g-arm", "g-inf"]
    all_accepted(game, choice)
    assert game.preview({"type": "AssignLandLosses", "actor": "germany", "units": ["g-inf"]})["side"] == "attacker"


def test_assign_losses_after_the_snow_units_benefit_only_sets_with_a_snow_unit(tmp_path):
    """Weather Report: having used the snow units' benefit, the first loss must be one of
    them: the legal sets are offered whole."""
    units = [unit("g-mtn", "germany", (206, 51), "mtn", 2), unit("g-inf", "germany", (206, 52), "inf", 2),
             unit("s-inf", "ussr", T, "inf", 4)]
    for die in range(1, 11):  # the first combat die (played back) that costs the attacker 1 unit
        game = new_game(tmp_path / f"d{die}.wif", units=units, weather={"2": "snow"}, lab=True)
        declare_and_finish(game, [(T, ["g-mtn", "g-inf"])])
        ok(game, {"type": "UseSnowUnits", "actor": "germany", "use": True})
        chooser = game.state.kernel.sequence.pending[0]
        ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": "assault"})
        helpers.dice(game, die, then_ordinary=True)  # the rest of the turn rolls the game's dice
        ok(game, {"type": "ResolveCombat", "actor": chooser})
        if offered(game, "AssignLandLosses") and game.state["combat"].combats["207,52"].losses["attacker"] == 1:
            break
        game.close()
    choice = next(c for c in offered(game, "AssignLandLosses") if c.actor == "germany")
    [field] = choice.fields
    assert field.kind == "option" and field.values() == [["g-mtn"]]
    all_accepted(game, choice)
    refused(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-inf"]}, "snow")


# ---------------------------------------------------------------- Retreat Units
def test_retreat_units_each_unit_then_its_retreat_hexes_by_priority(tmp_path):
    game, events, res = find(tmp_path, lambda r: r.endswith("/R") and not O.parse_result(r)["attacker_losses"])
    assert step(game).endswith("retreat-units")
    choice = the_choice(game, "RetreatUnit")
    assert values(choice.fields[0]) == ["s-inf"]
    c = game.state["combat"].combats["207,52"]
    [to] = choice.fields[0].all_options()[0].next_fields()
    assert values(to) == retreat_options(game.state, c, "s-inf", T)[1] == [(207, 53), (208, 52)]
    assert all("priority 1" in o.label for o in to.all_options())  # Minsk, in the German ZOC, is not offered
    all_accepted(game, choice)
    told = game.preview({"type": "RetreatUnit", "actor": "germany", "unit": "s-inf", "to_hex": [208, 52]})
    assert told["terrain"] == "forest" and told["priority"] == 1 and not told["keeps_retreating"]
    # ending the step leaves no unit unretreated: the first hex of its best priority
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert game.state["units"].units["s-inf"].hex == (207, 53)


# ---------------------------------------------------------------- Advance After Combat
def test_advance_after_combat_the_attacked_hex_then_a_second_hex_after_a_breakthrough(tmp_path):
    game, events, res = find(tmp_path, lambda r: r == "*/1B", units=strong())
    ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": False})
    ok(game, {"type": "AssignLandLosses", "actor": "ussr", "units": ["s-2"]})
    assert step(game).endswith("advance-after-combat")
    choice = the_choice(game, "AdvanceUnit")
    assert values(choice.fields[0]) == ["g-arm", "g-inf"]
    assert all(values(o.next_fields()[0]) == [T] for o in choice.fields[0].all_options())
    all_accepted(game, choice)
    told = game.preview({"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    assert told["terrain"] == "clear" and not told["second"] and not told["disorganized"]
    ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    choice = the_choice(game, "AdvanceUnit")
    second = {o.value: values(o.next_fields()[0]) for o in choice.fields[0].all_options()}
    assert second["g-inf"] == [T]  # INF: no second hex
    assert (208, 52) in second["g-arm"] and all(O.adjacent(h, T) for h in second["g-arm"])
    all_accepted(game, choice)
    told = game.preview({"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]})
    assert told["second"] and told["terrain"] == "forest" and told["disorganized"]
    assert can_finish(game)  # advancing is never compulsory


def test_advance_after_combat_an_overrun_in_the_second_hex_is_offered_at_enough_odds(tmp_path):
    """Advancing after combat: "You can conduct an overrun (see RAC 11.11.6) in the second
    hex" — offered when land's overrun rules (odds through combat's hook) allow it."""
    units = [unit("g-arm", "germany", (206, 51), "arm", 30, move=6), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 1), unit("s-div", "ussr", (208, 52), "inf", 1, size="division"),
             unit("s-big", "ussr", (207, 53), "inf", 20), supply_hq()]
    game = new_game(tmp_path / "o.wif", units=units, lab=True)
    declare_and_finish(game, [(T, ["g-arm", "g-inf"])])
    chooser = game.state.kernel.sequence.pending[0]
    ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": "blitz"})
    helpers.dice(game, 10)  # 34 against 1, the 7:1 column: a 10 is */2B
    events = ok(game, {"type": "ResolveCombat", "actor": chooser})
    assert next(e for e in events if e.type == "LandCombatResolved").data["result"] == "*/2B"
    helpers.dice(game, None)
    ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": False})
    ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    choice = the_choice(game, "AdvanceUnit")
    second = {o.value: values(o.next_fields()[0]) for o in choice.fields[0].all_options()}
    assert (208, 52) in second["g-arm"]  # the weak division can be overrun
    assert (207, 53) not in second["g-arm"]  # not the strong corps (odds, swamp)
    all_accepted(game, choice)
    told = game.preview({"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]})
    assert told["overrun"]["units"] == ["s-div"]
    events = ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]})
    assert events[0].type == "LandUnitsOverrun" and events[0].data["odds"] == told["overrun"]["odds"]


# ---------------------------------------------------------------- a real game: Barbarossa
def _to_germanys_first_declaration(game):
    prefer = {"ChooseFirstMover": "axis", "ChooseAction": "land"}
    order = ["RestoreSetup", "ChooseFirstMover", "ChooseAction", "FinishStep"]
    for n in range(200):
        commands = [c for c in game.choices().commands() if c.source == "rules"]
        if any(c.type == "DeclareAttack" for c in commands):
            return
        choice = min(commands, key=lambda c: order.index(c.type) if c.type in order else len(order))
        want = prefer.get(choice.type)
        cmd = choice.sample(random.Random(n), lambda f, opts: next((o for o in opts if o.value == want), None))
        ok(game, cmd)
    raise AssertionError("Germany was never offered a land attack")


def test_barbarossa_land_combat_choices_are_accepted_and_previews_match_the_results(tmp_path):
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=5)
    _to_germanys_first_declaration(game)
    choice = the_choice(game, "DeclareAttack")
    all_accepted(game, choice)
    told = {}
    for _ in range(3):  # three attacks, each with every unit the choices offer for it
        option = the_choice(game, "DeclareAttack").fields[0].all_options()[0]
        cmd = {"type": "DeclareAttack", "actor": "germany", "hex": option.value, "units": option.next_fields()[0].values()}
        told[tuple(option.value)] = game.preview(cmd)
        assert told[tuple(option.value)]["legal"] and told[tuple(option.value)]["odds"] > 0
        ok(game, cmd)
    ok(game, {"type": "FinishStep", "actor": "germany"})
    rng, resolved, chosen = random.Random(5), {}, {}
    for _ in range(300):
        if not open_combats(game.state) and not step(game).startswith(PROC):
            break  # every combat resolved, its retreats and advances done
        commands = [c for c in game.choices().commands() if c.source == "rules"]
        mine = [c for c in commands if c.plugin == "combat"]
        if not mine:
            ok(game, next(c for c in commands if c.type == "FinishStep").base())
            continue
        for c in mine:
            all_accepted(game, c, samples=10)
        cmd = mine[0].sample(rng)
        if cmd["type"] == "ChooseLandCombatType":
            chosen[current_combat(game.state).id] = game.preview(cmd)
        for e in ok(game, cmd):
            if e.type == "LandCombatResolved":
                resolved[e.data["combat"]] = e.data
    assert resolved and chosen, "no combat was resolved"
    for cid, data in resolved.items():
        assert data["odds"] == chosen[cid]["odds_text"] and data["drm"] == chosen[cid]["modifiers"]["die"]
        assert data["table"] == chosen[cid]["table"]
        declared = told.get(tuple(data["hex"]))
        if declared and (data["attack"], data["defence"]) == (declared["attack"], declared["defence"]):
            assert data["odds"] == declared["odds_text"]  # nothing (snow, ground support) changed since
    game.close()
