"""Optional rule Anti-aircraft and anti-tank units: the AA divisions' anti-aircraft values and
their fire ("Anti-Air Fire", "Anti-aircraft Attacks by Non-Phasing Side", "Plot Anti-aircraft
Fire"), on and off, in Barbarossa lab games built with the rig (helpers, docs/MODDING.md).

Map facts: the Moscow PVO Division sets up in Moscow (217,48), a Soviet city in supply (a lab
game skips the setup: the rig puts the counter there with its own factors); the German bomber
is rigged at (214,48), 3 hexes away, a hex made German."""

from __future__ import annotations

from helpers import air_unit, control, go_to, offered, ok, place, rig, unit

from plugins.optional.framework import new_game
from plugins.rules.air import anti_aircraft as aa

RULE = "anti-aircraft-and-anti-tank-units"
MOSCOW, GE_BASE = (217, 48), (214, 48)
STRIKE = "wif.turn.impulse.independent-air.ground-strike"
PLOT = "wif.procedures.air-mission.aa-by-non-phasing-side.plot-aa-fire"


def barbarossa(save, on=True):
    game = new_game("barbarossa", save, on=[RULE] if on else [], seed=1, lab=True,
                    extra_plugins=["rig", "rig-turn"])
    return game


def strike_moscow(game):
    """A German Ju 88 strikes Moscow in an Air action; the mission reaches Plot Anti-aircraft Fire."""
    control(game, GE_BASE, "germany")
    pvo = game.state["units"].units.get("su-aa-mos")
    if pvo is not None:  # from the setup tray to Moscow, with its own counter's factors
        place(game, unit(pvo.id, "ussr", MOSCOW, type_="aa", size="division", factors=dict(pvo.factors)))
    place(game, air_unit("ju88x", "germany", "lnd", GE_BASE, air=1, tactical=4, range_=5),
          unit("su-guard", "ussr", MOSCOW, combat=2, move=2, size="division"))
    rig(game, "RigAction", power="germany", action="air")
    go_to(game, STRIKE, active_side=game.state.kernel.side_of("germany"))
    ok(game, type="FlyMission", actor="germany", unit="ju88x", hex=list(MOSCOW))
    ok(game, type="FinishStep", actor="germany")


def test_anti_aircraft_units_have_their_anti_aircraft_values(save):
    units = barbarossa(save).state["units"].units
    # "specialist anti-aircraft artillery have an intrinsic anti-air strength"
    assert aa.aa_factor(units["ge-aa-1"]) == 3 and aa.aa_factor(units["su-aa-mos"]) == 2
    assert aa.aa_factor(units["ge-at-1"]) == 0 and aa.aa_factor(units["su-at-1"]) == 0


def test_anti_aircraft_fire_the_moscow_pvo_division_fires_at_bombers_over_its_hex(save):
    game = barbarossa(save)
    strike_moscow(game)
    assert game.state.kernel.sequence.current == PLOT
    plot = offered(game, "PlotAAFire")
    assert plot and "su-aa-mos" in plot[0].fields[0].values()
    preview = game.preview({"type": "PlotAAFire", "actor": "ussr", "unit": "su-aa-mos", "hex": list(MOSCOW),
                            "shots": 4})
    assert preview["legal"] and preview["factors"] == 8  # 4 shots: "quadruple the unit's AA value"
    events = ok(game, type="PlotAAFire", actor="ussr", unit="su-aa-mos", hex=list(MOSCOW), shots=4)
    assert next(e for e in events if e.type == "AAFirePlotted").data["factors"] == 8


def test_anti_aircraft_fire_off_without_the_rule_no_unit_fires(save):
    game = barbarossa(save, on=False)
    assert "su-aa-mos" not in game.state["units"].units
    strike_moscow(game)
    reasons = {e.data["step"]: e.data["reason"] for e in game.store.records() if e.type == "StepSkipped"}
    assert "no anti-aircraft unit can fire" in reasons["wif.procedures.air-mission.aa-by-non-phasing-side"]
