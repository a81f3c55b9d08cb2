"""Optional rule Unlimited breakdown (seeds, "Break Down Units" and "Reform Units", Player's
Manual 9.3.8): OFF a corps breaks down only into force-pool divisions and the reformed corps is
drawn; ON the program creates the divisions (any corps may break down), only those reform, and
the player chooses the corps."""

from __future__ import annotations

from helpers import ok, refused, unit
from optlab import lab

BREAK_DOWN = "turn.end-of-turn.break-down-corps-armies"
REFORM = "turn.end-of-turn.reform-corps-armies"
H = (205, 52)


def _units():
    return [unit("g-cav", "germany", H, "cav", 5, move=4), unit("g-arm", "germany", (206, 51), "arm", 7, move=5),
            unit("ge-div-inf-1", "germany", (204, 52), "inf", 2, size="division"),
            unit("ge-div-mot-1", "germany", (204, 52), "mot", 2, size="division"),
            unit("g-cav2", "germany", (0, 0), "cav", 4, where="force-pool"),
            unit("s-inf", "ussr", (230, 52), "inf", 3)]


def _game(save, rules=("divisions", "unlimited-breakdown")):
    units = _units()
    units[4]["hex"] = None
    return lab(save, rules=list(rules), units=units, start_at=BREAK_DOWN, plugins=("combat", "land"))


def _to_reform(game):
    for power in ("germany", "ussr"):
        ok(game, {"type": "FinishStep", "actor": power})
    assert game.state.kernel.sequence.current.endswith(REFORM)


def test_unlimited_breakdown_off_needs_a_force_pool_division(save):
    game = _game(save, rules=("divisions",))
    refused(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-cav", "second": "mot"},
            "Divisions (Break Down Units)", "no CAV division is available")


def test_unlimited_breakdown_on_creates_the_divisions(save):
    game = _game(save)
    refused(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-cav", "second": "ge-div-mot-2"},
            "Unlimited breakdown", "not one of the INF or MOT divisions", "inf, mot")
    events = ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-cav", "second": "mot"})
    created = [e.data["unit"] for e in events if e.type == "UnitCreated"]
    # 5 factors: half rounded up is 3, the second division 1, the first the other 2
    assert [(u["type"], u["factors"]["combat"], u["factors"]["move"], u["size"]) for u in created] == [
        ("cav", 2, 4, "division"), ("mot", 1, 4, "division")]
    assert all(tuple(u["hex"]) == H and "generated" in u["flags"] for u in created)
    assert game.state["units"].units["g-cav"].where == "broken-down-pool"


def test_unlimited_breakdown_reform_only_generated_divisions_and_the_player_chooses(save):
    game = _game(save)
    events = ok(game, {"type": "BreakDownUnit", "actor": "germany", "unit": "g-cav", "second": "mot"})
    first, second = [e.data["unit"]["id"] for e in events if e.type == "UnitCreated"]
    _to_reform(game)
    refused(game, {"type": "ReformUnits", "actor": "germany", "divisions": ["ge-div-inf-1", "ge-div-mot-1"],
                   "corps": "g-cav"}, "Unlimited breakdown", "only divisions created by breaking down")
    refused(game, {"type": "ReformUnits", "actor": "germany", "divisions": [first, second]},
            "Unlimited breakdown", "choose the corps", "g-cav", "g-cav2")
    refused(game, {"type": "ReformUnits", "actor": "germany", "divisions": [first, second], "corps": "g-arm"},
            "Unlimited breakdown", "not one the divisions may reform into")
    events = ok(game, {"type": "ReformUnits", "actor": "germany", "divisions": [first, second], "corps": "g-cav2"})
    assert not any(e.type == "DiceRolled" for e in events)
    units = game.state["units"].units
    assert units["g-cav2"].where == "map" and tuple(units["g-cav2"].hex) == H
    assert units[first].where == units[second].where == "removed"  # generated counters leave the game
    assert units["g-cav"].where == "broken-down-pool"


def test_unlimited_breakdown_needs_divisions_on_to_be_toggled(save):
    game = lab(save, units=_units()[:2] + _units()[-1:], plugins=("combat", "land"))
    refused(game, {"type": "ToggleOptionalRule", "actor": "germany", "rule": "unlimited-breakdown", "on": True},
            "needs Divisions ON first")
