"""Naval Combat Abort Queue (seed 000 L7898-8011) and the Naval Combat Abort Digression
(L13142-13170): aborting units wait in the queue until the combat is over, then their owner
moves them to a friendly port group by group; queue numbers, processing order and the four
grouping restrictions.  Fought in the Baltic of the real map (Germany from Konigsberg, the
USSR at sea from Leningrad)."""

import random

from helpers import dice, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_combat_abort_queue import MOVE_STEP, first_entries, group_key
from plugins.rules.naval.state import AbortEntry

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
L = f"{LENINGRAD[0]},{LENINGRAD[1]}"
ROUND = "wif.procedures.naval-combat.round"


def baltic(tmp_path, german, soviet, soviet_section=2):
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=[u["id"] for u in soviet], area="BA", section=soviet_section)
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=[u["id"] for u in german])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    return g


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def soviet_aborts_in_round_one(tmp_path, soviet):
    """Germany's 8 attack against one Soviet ship: the D becomes an A on a roll of 7."""
    g = baltic(tmp_path, [ship("g1", attack=8, defense=4)], soviet)
    dice(g, 1, 1, then_ordinary=True)  # both searches find
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    dice(g, 7, 2, then_ordinary=True)
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="r1")
    return g


def test_naval_combat_abort_queue_units_wait_until_the_combat_is_over_then_the_owner_moves_them(tmp_path):
    g = soviet_aborts_in_round_one(tmp_path, [ship("r1", power="ussr", hex_=LENINGRAD, attack=1, defense=5)])
    assert of_type(g, "NavalResultApplied")[0]["final"] == "a"
    play_by_choices(g, random.Random(3), until=lambda g: g.state.kernel.sequence.current == MOVE_STEP
                    or of_type(g, "UnitsQueuedForAbort"), prefer=["ChooseNavalTarget"])
    # queued at the end of the round with the first number of a phase combat; still at sea
    queued = of_type(g, "UnitsQueuedForAbort")[0]
    assert queued["units"] == ["r1"] and queued["number"] == 1
    play_by_choices(g, random.Random(3), until=lambda g: g.state.kernel.sequence.current == MOVE_STEP)
    assert g.state.kernel.sequence.current == MOVE_STEP
    assert g.state["naval"].combat is None  # "processed after the naval combat ends"
    assert "r1" in g.state["naval"].at_sea and not g.state["units"].units["r1"].face_up
    assert g.state.kernel.sequence.pending == ["ussr"]
    # the decider may not leave units in the queue, nor move another power's, nor go to an enemy port
    refused(g, None, "MoveAbortingNaval", type="FinishStep", actor="ussr")
    group = group_key(g.state, first_entries(g.state)[0])
    before = len(list(g.store.records()))
    refused(g, None, "'9/ussr/BA:2/ships' is not a group of ussr", type="MoveAbortingNaval", actor="ussr",
            group="9/ussr/BA:2/ships", to=L, units=["r1"])
    refused(g, None, "cannot reach", type="MoveAbortingNaval", actor="ussr", group=group, to=K, units=["r1"])
    refused(g, None, "'g1' is not in group", type="MoveAbortingNaval", actor="ussr", group=group, to=L, units=["g1"])
    assert len(list(g.store.records())) == before  # nothing appended
    preview = g.preview({"type": "MoveAbortingNaval", "actor": "ussr", "group": group, "to": L, "units": ["r1"]})
    assert preview["left_in_queue"] == 0
    ok(g, type="MoveAbortingNaval", actor="ussr", group=group, to=L, units=["r1"])
    assert g.state["units"].units["r1"].hex == LENINGRAD and "r1" not in g.state["naval"].at_sea
    assert not g.state["naval"].abort_queue
    assert g.state.kernel.sequence.current != MOVE_STEP  # the digression ends with the queue


def test_naval_combat_abort_queue_one_side_one_round_one_number_and_damaged_units_to_the_repair_pool(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=8, defense=4)], [ship("r1", power="ussr", hex_=LENINGRAD, attack=1, defense=5),
                                                             ship("r2", power="ussr", hex_=LENINGRAD, attack=1, defense=5)])
    rig(g, "RigNavalDamage", unit="r2")
    dice(g, 1, 1, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    # allies take D then A (column 3, row 2-3): r1 rolls 7 (the D becomes an A), r2 rolls 1 (A)
    dice(g, 7, 1, 1, then_ordinary=True)
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="r1")
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="r2")
    play_by_choices(g, random.Random(1), until=lambda g: g.state.kernel.sequence.current == MOVE_STEP)
    queued = of_type(g, "UnitsQueuedForAbort")
    assert [q["units"] for q in queued] == [["r1", "r2"]] and queued[0]["number"] == 1
    (group,) = {group_key(g.state, e) for e in first_entries(g.state)}
    assert group == "1/ussr/BA:2/ships"
    ok(g, type="MoveAbortingNaval", actor="ussr", group=group, to=L, units=["r1", "r2"])
    assert g.state["units"].units["r1"].hex == LENINGRAD
    assert g.state["units"].units["r2"].where == "repair-pool"  # damaged and reached port


def test_naval_combat_abort_queue_numbers_and_processing_order(tmp_path):
    """Most recent combat's series first (1001, 1002 before 1, 2), smallest number first."""
    g = baltic(tmp_path, [ship("g1")], [ship("r1", power="ussr", hex_=LENINGRAD), ship("r2", power="ussr", hex_=LENINGRAD),
                                        ship("r3", power="ussr", hex_=LENINGRAD)])
    state = g.state
    state["naval"].abort_queue = [AbortEntry(unit="r1", number=2, area="BA", section=2),
                                  AbortEntry(unit="r2", number=1002, area="BA", section=2),
                                  AbortEntry(unit="r3", number=1, area="BA", section=2)]
    assert [e.unit for e in first_entries(state)] == ["r2"]
    state["naval"].abort_queue = state["naval"].abort_queue[:1] + state["naval"].abort_queue[2:]
    assert [e.unit for e in first_entries(state)] == ["r3"]


def test_naval_combat_abort_queue_group_restrictions(tmp_path):
    """Same number, same major power, same section box, SUBs apart: each is its own group."""
    g = baltic(tmp_path, [ship("g1")], [ship("r1", power="ussr", hex_=LENINGRAD), ship("s1", power="ussr", type_="sub",
                                                                                        hex_=LENINGRAD)])
    state = g.state
    r1 = AbortEntry(unit="r1", number=1, area="BA", section=2)
    s1 = AbortEntry(unit="s1", number=1, area="BA", section=2)
    assert group_key(state, r1) != group_key(state, s1)
    assert group_key(state, r1) != group_key(state, AbortEntry(unit="r1", number=1, area="BA", section=1))


def test_naval_combat_abort_queue_every_offered_command_is_accepted(tmp_path):
    for seed in range(4):
        g = soviet_aborts_in_round_one(tmp_path / str(seed), [ship("r1", power="ussr", hex_=LENINGRAD, attack=1,
                                                                   defense=5),
                                                              ship("r2", power="ussr", hex_=LENINGRAD, attack=1,
                                                                   defense=2)])
        # play_by_choices asserts every sampled command is accepted; it plays until the combat
        # is over and its queue is emptied (the digression's moves made from the choices)
        assert g.state["naval"].combat is not None
        play_by_choices(g, random.Random(seed), max_commands=120,
                        until=lambda g: g.state["naval"].combat is None and not g.state["naval"].abort_queue)
        assert g.state["naval"].combat is None and not g.state["naval"].abort_queue
        assert [e for e in g.store.records() if e.type == "AbortGroupMoved"]
