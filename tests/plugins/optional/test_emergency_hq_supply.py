"""Optional rule Emergency HQ supply (seeds, "Supply Sources and Paths", PM 9.6.3; "Emergency HQ
Supply"; "Emergency Supply Unit"): OFF the phase is skipped and a cut-off unit stays out of supply;
ON the non-phasing side declares an organized HQ's emergency supply and the units that trace a basic
supply path to it are in supply this impulse."""

from __future__ import annotations

from helpers import ok, refused, unit
from optlab import DECL, lab

from plugins.rules import supply

STEP = "turn.impulse.land.combat.emergency-hq-supply"
POCKET = {"198,53": "ussr", "199,53": "ussr", "198,54": "ussr"}  # a Soviet pocket in Poland


def _units():
    return [unit("s-hq", "ussr", (198, 53), "hq-i", 1, factors={"reorg": 1}),
            unit("s-cut", "ussr", (199, 53), "inf", 3),
            unit("s-far", "ussr", (204, 53), "inf", 3),
            unit("s-home", "ussr", (212, 50), "inf", 3),  # a Soviet city
            unit("s-dis-hq", "ussr", (198, 54), "hq-i", 1, face_up=False),
            unit("g-inf", "germany", (206, 51), "inf", 4), unit("g-hq", "germany", (205, 51), "hq-i", 1)]


def _game(save, rules=("emergency-hq-supply",)):
    game = lab(save, rules=list(rules), units=_units(), hex_control=POCKET, start_at=DECL,
               plugins=("combat", "supply", "land"))
    ok(game, {"type": "FinishStep", "actor": "germany"})
    return game


def test_emergency_hq_supply_off_skips_the_phase_and_units_stay_cut_off(save):
    game = _game(save, rules=())
    skipped = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert "not in play" in skipped[f"wif.{STEP}"]
    assert not supply.in_supply(game.state, "s-cut") and "s-cut" in supply.out_of_supply(game.state, "allies")
    refused(game, {"type": "DeclareEmergencyHQSupply", "actor": "ussr", "hq": "s-hq"},
            "Emergency HQ supply", "not in play")


def test_emergency_hq_supply_on_units_are_in_supply_this_impulse(save):
    game = _game(save)
    assert game.state.kernel.sequence.current.endswith(STEP) and game.state.kernel.sequence.pending == ["ussr"]
    assert not supply.in_supply(game.state, "s-cut")
    events = ok(game, {"type": "DeclareEmergencyHQSupply", "actor": "ussr", "hq": "s-hq"})
    assert [e.type for e in events] == ["EmergencyHQSupplyDeclared", "ImpulseSupplyGranted"]
    assert events[0].data["units"] == ["s-cut"]  # not the HQs, not s-far (no path), not s-home (in supply)
    assert supply.in_supply(game.state, "s-cut") and "s-cut" not in supply.out_of_supply(game.state, "allies")
    assert not supply.in_supply(game.state, "s-far")


def test_emergency_hq_supply_ends_with_the_impulse(save):
    game = _game(save)
    ok(game, {"type": "DeclareEmergencyHQSupply", "actor": "ussr", "hq": "s-hq", "units": ["s-cut"]})
    impulse = game.state.kernel.impulse
    ok(game, {"type": "FinishStep", "actor": "ussr"})  # no combat declared: on to the next impulse
    assert game.state.kernel.impulse != impulse and not supply.in_supply(game.state, "s-cut")


def test_emergency_hq_supply_refusals_name_the_rule(save):
    game = _game(save)
    cmd = {"type": "DeclareEmergencyHQSupply", "actor": "ussr"}
    refused(game, {**cmd, "hq": "s-cut"}, "Emergency HQ supply", "not an HQ")
    refused(game, {**cmd, "hq": "nobody"}, "Emergency HQ supply", "no unit")
    refused(game, {**cmd, "hq": "s-dis-hq"}, "Emergency HQ supply", "disorganized")
    refused(game, {**cmd, "hq": "g-hq"}, "Emergency HQ supply", "controlled by germany")
    refused(game, {**cmd, "hq": "s-hq", "units": ["s-home"]}, "Emergency HQ supply", "in supply already")
    refused(game, {**cmd, "hq": "s-hq", "units": ["s-far"]}, "Emergency HQ supply", "basic supply path")
    refused(game, {**cmd, "hq": "s-hq", "units": ["s-dis-hq"]}, "Emergency HQ supply", "is an HQ")
    refused(game, {**cmd, "hq": "s-hq", "units": ["g-inf"]}, "Emergency HQ supply", "does not co-operate")
