"""The greedy bot flies its land-based aircraft (app/bot_air.py, scored as app/bot_carrier_air.py
scores a carrier plane's flight): seeds "Ground Strike" (a bomber disorganizes the enemy units
in a hex and flies back face down), "Combat Air Patrol (CAP)" and "Non-Phasing Side Flies
Interceptors".  Lab games on the real map, the air rules' (tests/plugins/rules/test_air.py):
a Soviet army at (203, 54), a Stuka 3 hexes away at (201, 51)."""

from __future__ import annotations

from helpers import air_unit, lab_game, ok, unit

from app.bots import Bot
from plugins.rules.core import world_map

AM = "wif.procedures.air-mission"
TARGET = (203, 54)
GE_BASE, SU_BASE = (201, 51), (207, 53)
BESIDE = min(tuple(h) for h in world_map().grid.neighbours(TARGET)
             if world_map().is_land(h) and world_map().grid.distance(tuple(h), GE_BASE) > 1)
FAR = (203, 49)  # Lithuania, 3 hexes from GE_BASE
STUKA = air_unit("stuka", "germany", "tac", GE_BASE, air=1, tactical=3)
I16 = air_unit("i16", "ussr", "ftr", SU_BASE, air=3, range_=10)


def _ground_strike(tmp_path, *counters):
    g = lab_game(tmp_path / "g.wif", extra_plugins=["air"], options={
        "units": [STUKA, unit("r1", power="ussr", hex_=TARGET, combat=3, move=3), *counters],
        "actions": {"germany": "air"}, "start_at": "turn.impulse.independent-air.ground-strike"})
    return g


def _greedy(g, decider: str, offered: str) -> dict:
    [decision] = [d for d in g.choices(None).decisions if d.pending and d.decider == decider]
    assert any(c.type == offered for c in decision.commands)
    return Bot("greedy", 3).choose(g, decision, None)


def test_ground_strike_greedy_strikes_the_enemy_army_beside_its_own(tmp_path):
    g = _ground_strike(tmp_path, unit("g1", hex_=BESIDE, combat=4))
    assert g.state.kernel.sequence.current == f"{AM}.phasing-side-flies-bombers"
    cmd = _greedy(g, "germany", "FlyMission")
    assert cmd["type"] == "FlyMission" and cmd["unit"] == "stuka" and tuple(cmd["hex"]) == TARGET
    assert cmd.get("role", "bomber") == "bomber"
    assert g.submit(cmd).accepted


def test_ground_strike_greedy_strikes_only_where_its_side_may_attack(tmp_path):
    """Two Stukas; a stronger Soviet army at FAR, 3 hexes from the Stukas, far from every German
    land unit and on no objective: the bot strikes the army beside its own, never FAR (a strike
    there would only turn a Stuka face down, so it is not even previewed), and then finishes
    the step."""
    g = _ground_strike(tmp_path, unit("g1", hex_=BESIDE, combat=4), {**STUKA, "id": "stuka2"},
                       unit("r2", power="ussr", hex_=FAR, combat=8, move=3))
    [fly] = [c for c in g.choices(None).commands() if c.type == "FlyMission"]
    assert FAR in {tuple(c["hex"]) for c in fly.commands()}  # offered: a strike there is legal
    previewed, preview = [], g.preview
    g.preview = lambda cmd, **kw: previewed.append(cmd) or preview(cmd, **kw)  # ranked by the map first
    flown = []
    bot = Bot("greedy", 3)
    for _ in range(4):
        [decision] = [d for d in g.choices(None).decisions if d.pending and d.decider == "germany"]
        cmd = bot.choose(g, decision, None)
        if cmd["type"] == "FinishStep":
            break
        assert g.submit(cmd).accepted
        flown.append(tuple(cmd["hex"]))
    assert flown and set(flown) == {TARGET}
    assert cmd["type"] == "FinishStep"
    assert FAR not in {tuple(c["hex"]) for c in previewed if "hex" in c}  # not even previewed


def test_non_phasing_side_flies_interceptors_greedy_intercepts_the_bomber_over_its_army(tmp_path):
    g = _ground_strike(tmp_path, I16, unit("g1", hex_=BESIDE, combat=4))
    ok(g, type="FinishStep", actor="ussr")  # no CAP
    ok(g, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == f"{AM}.non-phasing-side-flies-interceptors"
    cmd = _greedy(g, "ussr", "FlyIntercept")
    assert cmd["type"] == "FlyIntercept" and cmd["unit"] == "i16" and tuple(cmd["hex"]) == TARGET
    assert g.submit(cmd).accepted


def test_combat_air_patrol_greedy_covers_its_army_from_the_stuka(tmp_path):
    g = _ground_strike(tmp_path, I16, unit("g1", hex_=BESIDE, combat=4))
    assert g.state.kernel.sequence.current == f"{AM}.combat-air-patrol"
    cmd = _greedy(g, "ussr", "FlyCAP")
    assert cmd["type"] == "FlyCAP" and cmd["unit"] == "i16" and tuple(cmd["hex"]) == TARGET
    assert g.submit(cmd).accepted


def test_ground_support_greedy_supports_the_combat_its_side_defends(tmp_path):
    """Germany attacks the Soviet army at TARGET from BESIDE; in Ground Support the Soviet
    Il-2 (non-phasing) flies to that combat, its tactical factor added to the defence."""
    il2 = air_unit("il2", "ussr", "tac", (206, 57), tactical=2, range_=6)
    g = lab_game(tmp_path / "g.wif", extra_plugins=["air"], options={
        "units": [STUKA, il2, unit("r1", power="ussr", hex_=TARGET, combat=3, move=3), unit("g1", hex_=BESIDE)],
        "actions": {"germany": "land"}, "start_at": "turn.impulse.land.combat.land-combat-declaration"})
    ok(g, type="DeclareAttack", actor="germany", hex=list(TARGET), units=["g1"])
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="FinishStep", actor="germany")  # no German bomber flies
    assert g.state.kernel.sequence.current == f"{AM}.non-phasing-side-flies-bombers"
    cmd = _greedy(g, "ussr", "FlyMission")
    assert cmd["type"] == "FlyMission" and cmd["unit"] == "il2" and tuple(cmd["hex"]) == TARGET
    assert g.preview(cmd)["mission"] == "Ground Support" and g.submit(cmd).accepted
