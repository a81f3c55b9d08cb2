"""Optional rule Supply units (seeds, "Supply Sources and Paths", PM 9.7.27; "Expend Supply
Unit"): an organized supply unit stacked with an HQ is expended and the HQ is a primary supply
source for the rest of the turn, through several impulses; OFF there are no supply units."""

from __future__ import annotations

import random

from helpers import control, offered, ok, place, refused, unit

from plugins.optional.framework import new_game
from plugins.rules import supply

DEEP = (222, 50)  # far inside the USSR, out of reach of any German supply source


def _game(save, rules=("supply-units",)):
    game = new_game("barbarossa", save, on=list(rules), seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    for h in (DEEP, (223, 50)):
        control(game, h, "germany")
    place(game, unit("g-hq-deep", "germany", DEEP, "hq-i", 1, 3),
          unit("g-inf-deep", "germany", (223, 50), "inf", 4, 3))
    return game


def test_supply_units_expended_make_the_hq_a_primary_source_for_the_turn(save):
    game = _game(save)
    place(game, unit("ge-sup-1", "germany", DEEP, "sup", 0, 3, size="division"))
    _impulse(game, 2, 1)
    assert not supply.in_supply(game.state, "g-inf-deep")
    events = ok(game, {"type": "ExpendSupplyUnit", "actor": "germany", "hq": "g-hq-deep", "supply_unit": "ge-sup-1"})
    assert [e.type for e in events] == ["HQPrimarySupplyGranted", "UnitMoved"]
    assert game.state["units"].units["ge-sup-1"].where == "force-pool"  # "consumed by this use"
    assert supply.in_supply(game.state, "g-inf-deep") and supply.in_supply(game.state, "g-hq-deep")
    refused(game, {"type": "ExpendSupplyUnit", "actor": "germany", "hq": "g-hq-deep", "supply_unit": "ge-sup-2"},
            "Supply units")
    # the rest of the turn, through impulses; not the next turn
    _impulse(game, 2, 3)
    assert supply.in_supply(game.state, "g-inf-deep")
    _impulse(game, 3, 1)
    assert not supply.in_supply(game.state, "g-inf-deep")


def _impulse(game, turn, impulse):
    ok(game, {"type": "RigAction", "actor": "germany", "power": "germany", "action": "land"})
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.impulse.land.movement.land-movement",
              "turn": turn, "impulse": impulse, "active_side": "axis"})
    k = game.state.kernel
    assert (k.turn, k.impulse) == (turn, impulse), (k.turn, k.impulse, k.sequence.current)


def test_supply_units_only_an_organized_supply_unit_stacked_with_the_hq(save):
    game = _game(save)
    place(game, unit("ge-sup-1", "germany", (223, 50), "sup", 0, 3, size="division"),
          unit("ge-sup-2", "germany", DEEP, "sup", 0, 3, size="division", face_up=False))
    refused(game, {"type": "ExpendSupplyUnit", "actor": "germany", "hq": "g-hq-deep", "supply_unit": "ge-sup-1"},
            "not stacked with")
    refused(game, {"type": "ExpendSupplyUnit", "actor": "germany", "hq": "g-hq-deep", "supply_unit": "ge-sup-2"},
            "disorganized")
    refused(game, {"type": "ExpendSupplyUnit", "actor": "ussr", "hq": "g-hq-deep", "supply_unit": "ge-sup-2"},
            "not ussr")
    assert not offered(game, "ExpendSupplyUnit") or all(
        c["supply_unit"] not in ("ge-sup-1", "ge-sup-2") for ch in offered(game, "ExpendSupplyUnit")
        for c in ch.commands(limit=100))


def test_supply_units_every_offered_expense_is_accepted(save):
    game = _game(save)
    place(game, unit("ge-sup-1", "germany", DEEP, "sup", 0, 3, size="division"))
    choices = [c for c in offered(game, "ExpendSupplyUnit") if c.actor == "germany"]
    assert choices
    for cmd in choices[0].commands(limit=100) + [choices[0].sample(random.Random(i)) for i in range(5)]:
        assert game.dry_run(cmd).accepted, cmd


def test_supply_units_on_join_the_order_of_battle_off_none(save):
    on = new_game("barbarossa", save, on=["supply-units"], seed=1)
    assert {"ge-sup-1", "ge-sup-2", "su-sup-1", "su-sup-2"} <= set(on.state["units"].units)
    on.close()
    off = new_game("barbarossa", save.with_name("off.wif"), seed=1)
    assert not [u for u in off.state["units"].units.values() if u.type == "sup"]
    assert not offered(off, "ExpendSupplyUnit")
