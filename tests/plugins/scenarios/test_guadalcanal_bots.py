"""Scenarios, Guadalcanal: a whole game played by bots drawing only from ``Game.choices``, to
the victory check of turn 5 (Jan/Feb 1943), with the save verified.  Every command offered is
accepted, and no step of the game lacks a rule except the naval ones (the naval plugin's)."""

from __future__ import annotations

from app.bots import Bot, Tally, play_pending
from kernel.engine import NO_RULE_YET
from kernel.game import Game
from kernel.verify import verify
from plugins.rules.turn import date_name
from plugins.scenarios.guadalcanal import scenario_state

NAVAL_STEPS = (".naval.", "naval-transport", "stay-at-sea", "search-and-seizure", "naval-repair",
               "unload-land-units", "invasion", "shore-bombardment")


def test_scenarios_guadalcanal_bots_play_five_turns_to_the_victory_points(tmp_path):
    path = tmp_path / "bots.wif"
    game = Game.new("guadalcanal", path, seed=1)
    bots = {side: Bot("random", 1) for side in game.state.kernel.sides}
    tally = Tally()
    while play_pending(game, bots, tally):
        pass
    k = game.state.kernel
    assert tally.refused == []
    assert k.sequence.finished and k.turn == 5 and date_name(game.state) == "Jan/Feb 1943"
    result = scenario_state(game.state).result
    assert result["level"] in ("Decisive", "Substantive", "Marginal", "Draw")
    assert game.host.pm.hook.game_result(state=game.state)["text"] == result["result"]
    counted = [e for e in game.history() if e.type == "ConvoyPointsScored"]
    assert [e.data["turn"] for e in counted] == [1, 2, 3, 4, 5]
    missing = {e.data["step"] for e in game.history() if e.type == "StepSkipped" and e.data["reason"] == NO_RULE_YET}
    assert [s for s in missing if not any(n in s for n in NAVAL_STEPS)] == []
    game.close()
    report = verify(path)
    assert report.ok, report.problems


def test_scenarios_guadalcanal_greedy_bot_boards_a_carrier_plane_ashore(tmp_path):
    """Ships in Flames 8.5 (a carrier plane rebases from a hex onto its CV): in Air Rebase the
    greedy bot puts a carrier plane waiting ashore aboard a carrier with room (the USA's Jul/Aug
    plane at San Diego, Saratoga in San Francisco once her air group has flown ashore)."""
    from helpers import go_to, lab_game, ok, rig
    from plugins.rules.core import world_map

    g = lab_game(tmp_path / "greedy.wif", "guadalcanal")
    go_to(g, "turn.new-turn.reinforcements", turn=2)
    rig(g, "RigAction", actor="usa", power="usa", action="air")
    go_to(g, "turn.impulse.air-rebase.air-rebase", turn=2, active_side="allies")
    col, row = world_map().port("San Francisco").hex
    ok(g, type="RebaseCarrierAirUnit", actor="usa", unit="us-saratoga-air", to=f"{col},{row}")
    decision = next(d for d in g.choices().decisions if any(c.type == "RebaseCarrierAirUnit" for c in d.commands))
    cmd = Bot("greedy", 1).choose(g, decision, None)
    assert cmd["type"] == "RebaseCarrierAirUnit" and cmd["to"] == "us-saratoga", cmd
    assert cmd["unit"] in ("us-cvp-julaug", "us-saratoga-air")
    g.close()
