"""Optional rule Combat engineers (seeds, "Weather Report": having used the snow units' benefit the
attacker's first loss "must be from one of these units (exception: optional rule for combat
engineers, see RAC 22.4.1)"): OFF an engineer may not be that first loss; ON it may."""

from __future__ import annotations

from helpers import ok, refused, unit
from optlab import T, lab

CHOOSE = "choose-losses"


def _units():
    return [unit("g-mtn", "germany", (206, 51), "mtn", 3), unit("g-mtn2", "germany", (206, 52), "mtn", 3),
            unit("g-eng", "germany", (206, 51), "eng", 1, size="division", flags=["engineer"]),
            unit("s-inf", "ussr", T, "inf", 7)]


def _to_losses(tmp_path, rules):
    """A snow attack using the snow units, up to the attacker choosing 1 loss of 3."""
    for seed in range(1, 300):
        game = lab(tmp_path / f"{'-'.join(rules) or 'off'}{seed}.wif", rules=rules, units=_units(), seed=seed,
                   weather={"2": "snow"})
        ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-mtn", "g-mtn2", "g-eng"]})
        ok(game, {"type": "FinishStep", "actor": "germany"})
        seq = game.state.kernel.sequence
        while not seq.current.endswith(CHOOSE) and not seq.current.endswith("advance-after-combat"):
            actor = seq.pending[0] if seq.pending else None
            if seq.current.endswith("phasing-snow-decision"):
                ok(game, {"type": "UseSnowUnits", "actor": actor, "use": True})
            elif seq.current.endswith("assault-or-blitz"):
                ok(game, {"type": "ChooseLandCombatType", "actor": actor, "table": "assault"})
            elif seq.current.endswith("resolve-combat"):
                ok(game, {"type": "ResolveCombat", "actor": actor})
            elif actor is None:
                break
            else:
                ok(game, {"type": "FinishStep", "actor": actor})
            seq = game.state.kernel.sequence
        combat = game.state["combat"].combats.get("207,52")
        if seq.current.endswith(CHOOSE) and "germany" in seq.pending and combat.snow_units \
                and combat.losses["attacker"] == 1:
            return game
        game.close()
    raise AssertionError("no seed gives an attacker loss to choose")


def test_combat_engineers_off_engineer_is_not_the_first_loss(tmp_path):
    game = _to_losses(tmp_path, [])
    refused(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-eng"]},
            "Weather Report", "first loss must be one of those units")
    ok(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-mtn"]})


def test_combat_engineers_on_engineer_may_be_the_first_loss(tmp_path):
    game = _to_losses(tmp_path, ["divisions", "combat-engineers"])
    events = ok(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-eng"]})
    taken = next(e for e in events if e.type == "LandLossesTaken").data
    assert taken == {"combat": "207,52", "side": "attacker", "units": ["g-eng"]}
    assert game.state["units"].units["g-eng"].where == "eliminated"
