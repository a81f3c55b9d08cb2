"""What the air rules offer a decider (``Game.choices``) and what a command would do
(``Game.preview``), each test named after the seed section it checks.

The contract (kernel/choices.py): every command built from the offered choices is accepted
(``Game.dry_run``), what the seeds allow is offered, what they forbid is not, and a
mandatory decision never offers FinishStep.  The situations are the lab's (see test_air.py
for the map facts) and a real Barbarossa game played from the choices.
"""

from __future__ import annotations

import collections
import random

from helpers import air_unit, ok, player_for, refused
from kernel.game import Game
from plugins.rules import air as air_plugin
from plugins.rules.core import world_map
from test_air import (
    AM,
    GE_BASE,
    GE_BASE2,
    GE_FAR,
    I16,
    ME109,
    RIFLE,
    STUKA,
    SU_BASE,
    TARGET,
    _escorted_strike_intercepted,
    _two_and_two,
    current,
    lab,
    land_unit,
    support_lab,
    units,
)

AIR_COMMANDS = {"FlyCAP", "FlyMission", "FlyIntercept", "SelectAirCombat", "ArrangeAirLine", "ChooseAirCasualty",
                "AirCombatAbortOrStay", "ReturnAirToBase", "RebaseAir"}
MANDATORY = {"SelectAirCombat", "ArrangeAirLine", "ChooseAirCasualty", "AirCombatAbortOrStay"}


def choice(game, type_):
    """The one offered choice of ``type_`` now, or None."""
    found = [c for c in game.choices().commands() if c.type == type_]
    assert len(found) <= 1, found
    return found[0] if found else None


def offered_types(game) -> set[str]:
    return {c.type for c in game.choices().commands()}


def accepted_all(game, c, samples=50, limit=300) -> list[dict]:
    """Every enumerated command (up to ``limit``) and ``samples`` random ones are accepted by
    dry_run and previewed as legal; the enumerated commands."""
    player = player_for(game, c.actor)
    commands = c.commands(limit=limit)
    assert commands, f"{c.type} is offered with no complete command"
    for cmd in commands + [c.sample(random.Random(i)) for i in range(samples)]:
        out = game.dry_run(cmd, player)
        assert out.accepted, (cmd, out.reason)
        preview = game.preview(cmd, player)
        assert preview["legal"], (cmd, preview)
    return commands


def options(field) -> list:
    return [tuple(v) if isinstance(v, list) else v for v in field.values()]


def then(field, value) -> dict:
    """The fields that follow ``value`` of ``field``, by name."""
    option = next(o for o in field.all_options() if (tuple(o.value) if isinstance(o.value, list) else o.value) == value)
    return {f.name: f for f in option.next_fields()}


def submit_from(game, c, rng):
    out = game.submit(c.sample(rng), player_for(game, c.actor))
    assert out.accepted, out.reason
    return out.events


# ---------------------------------------------------------------- Combat Air Patrol (CAP)
def test_combat_air_patrol_offers_organized_fighters_to_threatened_hexes_within_full_range(save):
    far_i16 = air_unit("i16", "ussr", "ftr", (206, 57), air=3, range_=5)
    il2 = air_unit("il2", "ussr", "tac", (206, 57), tactical=2, range_=6)  # not a fighter: no CAP
    tired = air_unit("yak", "ussr", "ftr", (206, 57), air=3, range_=5, face_up=False)  # disorganized
    game = lab(save, [STUKA, RIFLE, far_i16, il2, tired])
    assert current(game) == f"{AM}.combat-air-patrol"
    c = choice(game, "FlyCAP")
    unit = c.fields[0]
    assert options(unit) == ["i16"]
    hexes = options(then(unit, "i16")["hex"])
    # "truly threatened": a viable target for the enemy there; the fighter's full range
    assert TARGET in hexes and SU_BASE not in hexes
    # the Il-2 on the ground at (206, 57) is a target, but no German bomber can reach it
    assert (206, 57) not in hexes
    assert "no enemy bomber can fly to a target there" in refused(game, type="FlyCAP", actor="ussr", unit="i16",
                                                                   hex=[206, 57])
    assert all(air_plugin.viable_target(game.state, "germany", "ground-strike", h) for h in hexes)
    assert all(air_plugin.distance((206, 57), h) <= 5 for h in hexes)
    accepted_all(game, c)
    preview = game.preview({"type": "FlyCAP", "actor": "ussr", "unit": "i16", "hex": list(TARGET)})
    assert preview["legal"] and preview["distance"] == 5 == preview["reach"] and preview["activities"] == {}
    assert "FinishStep" in offered_types(game)  # CAP is voluntary


def test_weather_report_no_mission_is_offered_into_a_zone_in_storm(save):
    far_i16 = air_unit("i16", "ussr", "ftr", (206, 57), air=3, range_=5)
    game = lab(save, [STUKA, RIFLE, far_i16], weather={"2": "storm"})
    c = choice(game, "FlyCAP")
    assert c is None or TARGET not in options(then(c.fields[0], "i16")["hex"])
    ok(game, type="FinishStep", actor="ussr")
    assert choice(game, "FlyMission") is None  # the only target is in the storm


# ---------------------------------------------------------------- Phasing Side Flies Bombers & Escorts
def test_phasing_side_flies_bombers_and_escorts_offers_units_roles_and_targets_in_range(save):
    tired = {**ME109, "id": "tired", "face_up": False}
    far = air_unit("far", "germany", "tac", GE_FAR, tactical=2)
    game = lab(save, [STUKA, ME109, tired, far, RIFLE, land_unit("g1", "germany", (202, 53))])
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    c = choice(game, "FlyMission")
    unit = c.fields[0]
    assert options(unit) == ["me109", "stuka"]  # not the disorganized one, nor the one out of range
    stuka = then(unit, "stuka")["role"]
    assert options(stuka) == ["bomber"]
    assert options(then(stuka, "bomber")["hex"]) == [TARGET]  # not (202, 53): no enemy there
    # a fighter with a tactical factor may fly as a bomber; no escort before a bomber flies
    assert options(then(unit, "me109")["role"]) == ["bomber"]
    accepted_all(game, c)
    preview = game.preview({"type": "FlyMission", "actor": "germany", "unit": "stuka", "hex": list(TARGET)})
    assert preview["activities"] == {"air-mission": 1} and preview["tactical"] == 3 and preview["targets"] == ["r1"]
    assert preview["distance"] == 3 and preview["reach"] == 4
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    c = choice(game, "FlyMission")
    roles = then(c.fields[0], "me109")["role"]
    assert options(roles) == ["bomber", "escort"] and options(then(roles, "escort")["hex"]) == [TARGET]
    assert "stuka" not in options(c.fields[0])  # already flying
    accepted_all(game, c)
    escort = {"type": "FlyMission", "actor": "germany", "unit": "me109", "hex": list(TARGET), "role": "escort"}
    assert game.preview(escort)["activities"] == {}  # escorts are not counted


def test_activity_limits_bombers_are_offered_only_while_air_missions_are_left(save):
    bombers = [{**STUKA, "id": f"s{i}"} for i in range(4)]
    game = lab(save, bombers + [RIFLE], actions={"germany": "naval"})
    from plugins.rules.turn.activities import limit

    flown = 0
    rng = random.Random(1)
    while (c := choice(game, "FlyMission")) is not None:
        accepted_all(game, c, samples=5)
        submit_from(game, c, rng)
        flown += 1
    assert flown == limit(game.state, "germany", "air-mission") == 2  # a Naval action allows Germany 2


# ---------------------------------------------------------------- Ground Support
def test_ground_support_offers_only_attacked_hexes_to_both_sides(save):
    units_ = [STUKA, RIFLE, land_unit("r9", "ussr", (204, 55)), land_unit("g1", "germany", (202, 53)),
              air_unit("il2", "ussr", "tac", (206, 57), tactical=2, range_=6)]
    game = support_lab(save, units_, {TARGET: ["g1"]})
    c = choice(game, "FlyMission")
    hexes = options(then(then(c.fields[0], "stuka")["role"], "bomber")["hex"])
    assert hexes == [TARGET]  # (204, 55) holds a Soviet unit but is not attacked
    accepted_all(game, c)
    preview = game.preview({"type": "FlyMission", "actor": "germany", "unit": "stuka", "hex": list(TARGET)})
    assert preview["activities"] == {} and preview["mission"] == "Ground Support"  # not counted
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.non-phasing-side-flies-bombers"
    c = choice(game, "FlyMission")
    assert c.actor == "ussr" and options(then(then(c.fields[0], "il2")["role"], "bomber")["hex"]) == [TARGET]
    accepted_all(game, c)


# ---------------------------------------------------------------- interceptors
def test_non_phasing_side_flies_interceptors_half_range_only_where_the_enemy_flew(tmp_path):
    def flown(save, i16):
        game = lab(save, [STUKA, ME109, RIFLE, i16])
        ok(game, type="FinishStep", actor="ussr")
        ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
        ok(game, type="FinishStep", actor="germany")
        assert current(game) == f"{AM}.non-phasing-side-flies-interceptors"
        return game

    game = flown(tmp_path / "a.wif", air_unit("i16", "ussr", "ftr", SU_BASE, air=3, range_=9))
    assert choice(game, "FlyIntercept") is None  # 5 hexes away, half of 9 is 4
    game = flown(tmp_path / "b.wif", I16)  # range 10
    c = choice(game, "FlyIntercept")
    assert options(then(c.fields[0], "i16")["hex"]) == [TARGET]
    accepted_all(game, c)
    assert game.preview({**c.base(), "unit": "i16", "hex": list(TARGET)})["reach"] == 5


# ---------------------------------------------------------------- Air-to-air Combat
def test_air_to_air_combat_select_location_offers_each_waiting_combat_and_no_finish(save):
    game, _ = _two_and_two(save, seed=3, same_hex=False)
    assert current(game) == "wif.procedures.air-to-air-combat.select-location"
    c = choice(game, "SelectAirCombat")
    assert sorted(options(c.fields[0])) == [TARGET, (207, 52)]
    assert "FinishStep" not in offered_types(game)
    assert "Select Location" in refused(game, type="FinishStep", actor="germany")
    accepted_all(game, c)
    preview = game.preview({**c.base(), "hex": list(TARGET)})
    assert preview["strength"] == {"axis": 5, "allies": 3}  # f1 alone against i1


def test_air_to_air_combat_arrange_units_offers_each_front_unit_secretly_and_no_finish(save):
    game, _ = _two_and_two(save, seed=3)
    assert current(game) == "wif.procedures.air-to-air-combat.round.arrange-units"
    axis = next(c for c in game.choices().commands() if c.type == "ArrangeAirLine" and c.actor == "germany")
    fighters, bombers = axis.fields
    assert sorted(options(fighters)) == [("f1", "f2"), ("f2", "f1")]  # each one in front
    assert sorted(options(bombers)) == [("s1", "s2"), ("s2", "s1")]
    assert "FinishStep" not in offered_types(game)
    assert "Arrange Units" in refused(game, type="FinishStep", actor="germany")
    assert len(accepted_all(game, axis)) == 4
    preview = game.preview({**axis.base(), "fighters": ["f2", "f1"], "bombers": ["s2", "s1"]})
    assert preview["strength"] == 5 and preview["enemy_strength"] == 4  # f2 (4) + 1; i1 (3) + 1
    ok(game, type="ArrangeAirLine", actor="germany", fighters=["f2", "f1"], bombers=["s2", "s1"])
    allies = choice(game, "ArrangeAirLine")
    assert allies.actor == "ussr" and options(allies.fields[1]) == [()]  # no bombers to arrange
    events = ok(game, **{**allies.base(), "fighters": ["i2", "i1"], "bombers": []})
    assert [e.type for e in events].count("AirLinesRevealed") == 1  # both revealed when the last is ready


def test_air_to_air_combat_affected_unit_chosen_offers_the_candidates_and_no_finish(save):
    game, _ = _escorted_strike_intercepted(save, seed=55)  # the allies roll DA: germany chooses
    c = choice(game, "ChooseAirCasualty")
    assert c.actor == "germany" and sorted(options(c.fields[0])) == ["me109", "stuka"]
    assert "FinishStep" not in offered_types(game)
    assert "ChooseAirCasualty" in refused(game, type="FinishStep", actor="germany")
    accepted_all(game, c)
    assert game.preview({**c.base(), "unit": "me109"})["effect"] == "aborted"


def test_air_to_air_combat_aborts_or_stays_offers_both_and_no_finish(save):
    game, _ = _escorted_strike_intercepted(save, seed=8)
    rng = random.Random(0)
    while not current(game).endswith("aborts-or-stays"):
        c = next(c for c in game.choices().commands() if c.type in AIR_COMMANDS)
        submit_from(game, c, rng)
    c = choice(game, "AirCombatAbortOrStay")
    assert sorted(options(c.fields[0])) == [False, True]
    assert "FinishStep" not in offered_types(game)
    accepted_all(game, c)
    preview = game.preview({**c.base(), "abort": True})
    assert preview["aborting"] and set(preview["aborting"]) <= set(air_plugin.air(game.state).mission.flights)


def play_air_from_choices(game, rng, limit=200) -> collections.Counter:
    """Decide every air decision from the choices (checking each offered command) until the
    air mission is over; the command types offered, counted."""
    seen = collections.Counter()
    for _ in range(limit):
        if not current(game).startswith(("wif.procedures", "wif.digressions")):
            return seen
        commands = game.choices().commands()
        air = [c for c in commands if c.type in AIR_COMMANDS]
        for c in air:
            seen[c.type] += 1
            accepted_all(game, c, samples=10, limit=40)
            if c.type in MANDATORY:
                assert not any(x.type == "FinishStep" for x in commands)
        finish = [c for c in commands if c.type == "FinishStep"]
        if air and (not finish or rng.random() < 0.6):
            submit_from(game, rng.choice(air), rng)
        else:
            ok(game, **finish[0].base())
    raise AssertionError(f"the air mission did not end (at {current(game)})")


def test_air_to_air_combat_every_offered_path_is_accepted_to_the_end_of_the_mission(tmp_path):
    seen = collections.Counter()
    for seed in range(1, 7):
        game, _ = _two_and_two(tmp_path / f"{seed}.wif", seed=seed, same_hex=seed % 2 == 0)
        seen += play_air_from_choices(game, random.Random(seed))
        assert air_plugin.air(game.state).mission.performed
    assert {"ArrangeAirLine", "ChooseAirCasualty", "AirCombatAbortOrStay", "ReturnAirToBase", "SelectAirCombat"} <= set(seen)


# ---------------------------------------------------------------- Return to Base
def test_return_to_base_by_phasing_side_offers_friendly_bases_in_range_and_finish_waits(save):
    game = lab(save, [STUKA, RIFLE], seed=5)
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.return-to-base-phasing"
    assert "FinishStep" not in offered_types(game)  # "required to return to base"
    c = choice(game, "ReturnAirToBase")
    hexes = options(then(c.fields[0], "stuka")["hex"])
    assert GE_BASE in hexes and GE_BASE2 in hexes and SU_BASE not in hexes and GE_FAR not in hexes
    assert all(air_plugin.friendly_base(game.state, "germany", h) and air_plugin.distance(TARGET, h) <= 4 for h in hexes)
    accepted_all(game, c)
    preview = game.preview({**c.base(), "unit": "stuka", "hex": list(GE_BASE)})
    assert preview == {"legal": True, "unit": "stuka", "hex": list(GE_BASE), "distance": 3, "reach": 4,
                       "destroyed": False, "disorganized": True}


def test_return_to_base_digression_offers_the_aborted_unit_only(save):
    game, _ = _escorted_strike_intercepted(save, seed=55)
    ok(game, type="ChooseAirCasualty", actor="germany", unit="me109")
    assert current(game) == "wif.digressions.return-to-base"
    c = choice(game, "ReturnAirToBase")
    assert options(c.fields[0]) == ["me109"]  # not the bomber still flying
    assert "FinishStep" not in offered_types(game)
    accepted_all(game, c)


def test_return_to_base_a_unit_unable_to_return_is_offered_only_destruction(save):
    # Return To Base (end of turn): air units at sea return to a friendly land hex; "some air
    # units will be destroyed because they are unable to return to base"
    near = air_unit("near", "germany", "tac", (194, 49), tactical=2, range_=3)  # 2 hexes off (194, 51)
    lost = air_unit("lost", "germany", "tac", (150, 50), tactical=2, range_=3)  # mid-Atlantic
    game = lab(save, [near, lost], start="turn.end-of-turn.return-to-base-phasing")
    assert current(game) == "wif.turn.end-of-turn.return-to-base-phasing"
    c = choice(game, "ReturnAirToBase")
    assert options(c.fields[0]) == ["lost", "near"]
    assert options(then(c.fields[0], "lost")["hex"]) == [None]
    assert None not in options(then(c.fields[0], "near")["hex"])
    accepted_all(game, c)
    assert "can reach a friendly base" in refused(game, type="ReturnAirToBase", actor="germany", unit="near")
    assert game.preview({**c.base(), "unit": "lost", "hex": None})["destroyed"] is True
    events = ok(game, type="ReturnAirToBase", actor="germany", unit="lost", hex=None)
    assert [e.data for e in events if e.type == "AirUnitDestroyed"] == [
        {"unit": "lost", "reason": "no friendly base within range"}]
    assert units(game)["lost"].where == "force-pool"
    assert "FinishStep" not in offered_types(game)  # "near" still has to come home
    hex_ = options(then(choice(game, "ReturnAirToBase").fields[0], "near")["hex"])[0]
    ok(game, type="ReturnAirToBase", actor="germany", unit="near", hex=list(hex_))
    assert world_map().is_land(units(game)["near"].hex)
    assert current(game) != "wif.turn.end-of-turn.return-to-base-phasing"


# ---------------------------------------------------------------- Air Rebase
def test_air_rebase_offers_friendly_bases_within_twice_the_range_up_to_the_activity_limit(save):
    far = air_unit("far", "germany", "ftr", GE_FAR, range_=4)
    game = lab(save, [STUKA, far, I16], actions={"germany": "naval"}, start="turn.impulse.air-rebase.air-rebase")
    c = choice(game, "RebaseAir")
    assert options(c.fields[0]) == ["far", "stuka"]  # not the Soviet unit
    hexes = options(then(c.fields[0], "stuka")["hex"])
    assert GE_BASE2 in hexes and GE_BASE not in hexes and TARGET not in hexes  # not where it is, not Soviet
    assert all(air_plugin.distance(GE_BASE, h) <= 8 and air_plugin.friendly_base(game.state, "germany", h) for h in hexes)
    assert GE_BASE not in options(then(c.fields[0], "far")["hex"])  # 18 hexes away
    accepted_all(game, c)
    preview = game.preview({**c.base(), "unit": "stuka", "hex": list(GE_BASE2)})
    assert preview["activities"] == {"air-rebase": 1} and preview["disorganized"] is False and preview["reach"] == 8
    rng = random.Random(2)
    rebased = 0
    while (c := choice(game, "RebaseAir")) is not None:
        submit_from(game, c, rng)
        rebased += 1
    assert rebased == 3  # a Naval action allows Germany 3 air rebases
    assert "FinishStep" in offered_types(game)


# ---------------------------------------------------------------- a real game
def _decide_others(game, decision, rng) -> bool:
    """Barbarossa outside the air rules: default setup, Germany first, Germany flies on odd
    impulses (Air action), a Land action otherwise, some attacks; then finish the step."""
    k = game.state.kernel
    by_type = {c.type: c for c in decision.commands}
    if "RestoreSetup" in by_type:
        game.submit(by_type["RestoreSetup"].base())
    if "ChooseFirstMover" in by_type:
        return game.submit({**by_type["ChooseFirstMover"].base(), "side": "axis"}).accepted
    if "ChooseAction" in by_type:
        c = by_type["ChooseAction"]
        action = "air" if c.actor == "germany" and k.impulse % 2 == 1 else "land"
        return game.submit({**c.base(), "action": action}).accepted
    attack = by_type.get("DeclareAttack")
    if attack is not None and attack.source == "rules" and rng.random() < 0.6:
        cmd = attack.sample(rng)
        if cmd is not None and game.submit(cmd).accepted:
            return True
    if "FinishStep" in by_type:
        return game.submit(by_type["FinishStep"].base()).accepted
    others = [c for c in decision.commands if c.source == "rules"]
    return bool(others) and game.submit(rng.choice(others).sample(rng)).accepted


def test_barbarossa_every_offered_air_command_is_accepted(tmp_path):
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=7)
    rng = random.Random(1)
    seen, checked = collections.Counter(), collections.Counter()
    while game.state.kernel.turn <= 1 and not game.state.kernel.sequence.finished:
        decision = game.choices().decisions[0]
        air = [c for c in decision.commands if c.type in AIR_COMMANDS]
        for c in air:
            key = (c.type, decision.step)
            seen[c.type] += 1
            # each kind of decision fully the first time, then a few samples
            full = not checked[key]
            checked[key] += 1
            accepted_all(game, c, samples=50 if full else 3, limit=150 if full else 3)
            if c.type in MANDATORY or c.type == "ReturnAirToBase":
                assert not decision.find("FinishStep")
        finish = decision.find("FinishStep")
        flying = 0.25 if any(c.type == "FlyCAP" for c in air) else 0.9
        if air and (not finish or rng.random() < flying):
            submit_from(game, rng.choice(air), rng)
        else:
            assert _decide_others(game, decision, rng), f"stuck at {decision.step}"
    assert {"FlyMission", "ReturnAirToBase", "RebaseAir"} <= set(seen), seen
