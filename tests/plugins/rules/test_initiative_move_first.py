"""Move First Decision (seeds "Move First Decision"; plugins/rules/turn/initiative.py): the
decision is the side's, so the game offers it once a side, through the side's first power,
whoever of the side's powers submits it."""

from __future__ import annotations

import helpers
from helpers import go_to, initiative, lab_game, offered, ok
from plugins.rules.turn.track import MOVE_FIRST


def _move_first_offers(game) -> list:
    return offered(game, "ChooseFirstMover")


def test_a_side_of_two_powers_is_offered_the_move_first_decision_once(tmp_path):
    """Guadalcanal: the Allies are the USA and the Commonwealth, one player; the form showed
    "Choose first mover (side)" twice with the same two buttons."""
    game = lab_game(tmp_path / "g.wif", "guadalcanal")
    try:
        initiative(game, "allies")
        go_to(game, MOVE_FIRST)
        k = game.state.kernel
        assert k.sequence.current == MOVE_FIRST and k.sides["allies"] == ["usa", "commonwealth"]
        offers = _move_first_offers(game)
        assert [c.actor for c in offers] == ["usa"]
        assert {o.value for o in offers[0].fields[0].options} == {"allies", "axis"}
        # each offered command is accepted (the contract), and the decision is then made
        cmd = offers[0].sample(helpers.random.Random(1))
        events = ok(game, cmd)
        assert "FirstSideChosen" in helpers.types(events)
        assert _move_first_offers(game) == []
    finally:
        game.close()


def test_any_power_of_the_deciding_side_may_still_submit_it(tmp_path):
    game = lab_game(tmp_path / "g.wif", "guadalcanal")
    try:
        initiative(game, "allies")
        go_to(game, MOVE_FIRST)
        events = ok(game, {"type": "ChooseFirstMover", "actor": "commonwealth", "side": "axis"})
        assert any(e.type == "FirstSideChosen" and e.data["chosen_by"] == "commonwealth" for e in events)
    finally:
        game.close()


def test_the_other_side_is_not_offered_it_and_is_refused(tmp_path):
    game = lab_game(tmp_path / "g.wif", "guadalcanal")
    try:
        initiative(game, "allies")
        go_to(game, MOVE_FIRST)
        assert all(c.actor != "japan" for c in _move_first_offers(game))
        helpers.refused(game, {"type": "ChooseFirstMover", "actor": "japan", "side": "axis"},
                        "Move First Decision")
    finally:
        game.close()


def test_barbarossa_one_power_a_side_is_offered_it_as_before(tmp_path):
    game = lab_game(tmp_path / "b.wif", "barbarossa")
    try:
        for holder in ("axis", "allies"):
            initiative(game, holder)
            go_to(game, MOVE_FIRST)
            k = game.state.kernel
            assert k.sequence.current == MOVE_FIRST and len(k.sides[holder]) == 1
            assert [c.actor for c in _move_first_offers(game)] == k.sides[holder]
    finally:
        game.close()
