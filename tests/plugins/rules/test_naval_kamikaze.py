"""Kamikaze Attacks by Japan (seed 000 L12348-12356) and the Kamikaze Form (L9952-9990), with the
optional rule Kamikaze: Guadalcanal's Coral Sea, where Shokaku and Zuikaku meet the US carriers
of May 1942 (the seeds set no date on the rule)."""

import random

from helpers import dice, go_to, lab_game, ok, play_by_choices, refused, rig
from plugins.rules.air.state import air
from plugins.rules.naval.naval_combat_results import column_for

ROUND = "wif.procedures.naval-combat.round"
KAMIKAZE = f"{ROUND}.kamikaze"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def coral_sea_air_combat(tmp_path, rules_on=("kamikaze",)):  # without it: test_naval_surprise_points
    """Japan's two carriers join the US carriers in the Coral Sea; Japan initiates a naval air
    combat in which every plane flies as a bomber (no air-to-air combat: all come through)."""
    g = lab_game(tmp_path / "g.wif", "guadalcanal", options={"optional_rules": list(rules_on)})
    rig(g, "RigShipsAtSea", actor="japan", units=["jp-shokaku", "jp-zuikaku"], area="CO", section=1)
    rig(g, "RigAction", actor="japan", power="japan", action="naval")
    go_to(g, "turn.impulse.naval.phasing-side-naval-combat", active_side="axis")
    dice(g, 1, 1, then_ordinary=True)  # both searches find
    ok(g, type="SelectNavalCombatArea", actor="japan", area="CO", initiating_unit=None)
    while "naval-air-support" in g.state.kernel.sequence.current:  # no land-based aircraft flies support
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])
    ok(g, type="ChooseNavalCombatType", actor="japan", kind="naval-air")
    for power in list(g.state.kernel.sequence.pending):  # Assign Plane Roles: all fly as bombers
        ok(g, type="FinishStep", actor=power)
    return g


def test_kamikaze_attacks_by_japan_after_air_to_air_before_anti_aircraft(tmp_path):
    g = coral_sea_air_combat(tmp_path)
    assert g.state.kernel.sequence.current == KAMIKAZE and g.state.kernel.sequence.pending == ["japan"]
    assert not of_type(g, "AAFireRolled")  # the ships have not fired yet
    offered = [c for c in g.choices(None).commands() if c.type == "DeclareKamikaze"]
    assert [o.value for o in offered[0].fields[0].options] == ["jp-shokaku-air", "jp-zuikaku-air"]
    refused(g, {"type": "DeclareKamikaze", "actor": "japan", "unit": "jp-akagi-air"}, "not a Japanese bomber")
    preview = g.preview({"type": "DeclareKamikaze", "actor": "japan", "unit": "jp-shokaku-air"})
    assert preview["air_to_sea"] == 5 and preview["destroyed_after_the_attack"]
    ok(g, type="DeclareKamikaze", actor="japan", unit="jp-shokaku-air")
    refused(g, {"type": "DeclareKamikaze", "actor": "japan", "unit": "jp-shokaku-air"}, "already flies as a kamikaze")
    assert g.describe(g.history()[-1]).endswith("flies as a kamikaze")
    dice(g, *[1] * 12, then_ordinary=True)  # the US ships' AA fire does little
    ok(g, type="FinishStep", actor="japan")
    assert of_type(g, "AAFireRolled")[0]["side"] == "allies"  # then the non-initiating side fires
    # the US owners apply the AA damage; then Japan's air-to-sea attack is worked out
    play_by_choices(g, random.Random(4), max_commands=60, finish_weight=0,
                    until=lambda game: any(d["target_side"] == "allies" for d in of_type(game, "NavalResultsDue")))
    flights = air(g.state).mission.flights
    left = {u: max(0, 5 - flights[u].aa_loss) for u in ("jp-shokaku-air", "jp-zuikaku-air")
            if u not in air(g.state).mission.aborted}
    pressing = 2 * left.get("jp-shokaku-air", 0) + left.get("jp-zuikaku-air", 0)  # the kamikaze's doubled
    due = next(d for d in of_type(g, "NavalResultsDue") if d["target_side"] == "allies")
    assert due["column"] == column_for(pressing, g.state["naval"].combat.shifts.get("axis", 0))
    # "After the air to sea attack is resolved, all kamikazes and their pilots are destroyed"
    play_by_choices(g, random.Random(4), max_commands=200, until=lambda game: game.state["naval"].combat is None)
    units = g.state["units"].units
    assert units["jp-shokaku-air"].where == "force-pool"
    assert {"unit": "jp-shokaku-air", "reason": "flew as a kamikaze"} in of_type(g, "AirUnitDestroyed")
    assert not any("jp-shokaku-air" in cargo for cargo in g.state["naval"].aboard.values())
    assert "jp-zuikaku-air" not in [d["unit"] for d in of_type(g, "AirUnitDestroyed") if d["reason"] == "flew as a kamikaze"]

