"""Why carrier planes intercept so seldom in bot games: plays one bot game and, at every decision
of a Flies Interceptors subphase, notes the deciding side's carrier planes free to fly from their
carriers at sea, the nearest of them to a hex the enemy flew to (hexes from its sea area,
port_attack.distance_from_sea) against its interception reach (half its range), and whether the
game offered a ``FlyCarrierAirUnit`` and the bot took it; then the reasons the interception
subphases were skipped, by mission.

    .venv/bin/python tools/carrier_interception_reach.py guadalcanal --seed 1 --policy greedy

Issue #14: carrier planes at sea intercept "in every air mission phase" (seed 000 "Non-Phasing
Side Flies Interceptors" L11896-11908) at half range from their sea area.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--policy", default="greedy")
    args = p.parse_args(argv)

    from app import bots
    from kernel.game import Game
    from plugins.rules.air.aircraft import reach
    from plugins.rules.air.missions import enemy_flight_hexes
    from plugins.rules.naval.port_attack import distance_from_sea, free_carrier_planes

    seen = []  # one row per decision in a Flies Interceptors subphase
    choose = bots.Bot.choose

    def noting(self, game, decision, player):
        cmd = choose(self, game, decision, player)
        state = game.state
        step = state.kernel.sequence.current
        if step.endswith("flies-interceptors"):
            side = state.kernel.side_of(decision.decider) or decision.decider
            hexes = enemy_flight_hexes(state, side)
            nearest = min(((distance_from_sea(state, u.id, h), reach(u, "intercept"), u.id)
                           for u in free_carrier_planes(state, side) for h in hexes), default=None)
            offered = any(c.type == "FlyCarrierAirUnit" for c in decision.commands)
            seen.append({"mission": state["air"].mission.kind, "step": step.rsplit(".", 1)[-1], "side": side,
                         "nearest": nearest, "offered": offered, "taken": (cmd or {}).get("type") == "FlyCarrierAirUnit"})
        return cmd

    bots.Bot.choose = noting
    with tempfile.TemporaryDirectory() as folder:
        game = Game.new(args.scenario, Path(folder) / "g.wif", seed=args.seed)
        try:
            bots.autoplay(game, {s: args.policy for s in game.state.kernel.sides}, seed=args.seed)
            skipped, kind = Counter(), ""
            for rec in game.history(1):
                if rec.type == "AirMissionBegan":
                    kind = rec.data["kind"]
                elif rec.type == "StepSkipped" and rec.data["step"].endswith("flies-interceptors"):
                    skipped[(kind, rec.data["step"].rsplit(".", 1)[-1], rec.data["reason"])] += 1
        finally:
            game.close()
    with_planes = [r for r in seen if r["nearest"] is not None]
    in_reach = [r for r in with_planes if r["nearest"][0] <= r["nearest"][1]]
    print(f"{args.scenario} seed {args.seed} ({args.policy}): {len(seen)} interception decisions, "
          f"{len(with_planes)} with carrier planes free at sea, {len(in_reach)} of them in half range, "
          f"{sum(r['offered'] for r in seen)} offered FlyCarrierAirUnit, {sum(r['taken'] for r in seen)} taken")
    print("nearest (hexes from the sea area, half range): "
          + ", ".join(f"{r['nearest'][0]}/{r['nearest'][1]}" for r in sorted(with_planes, key=lambda r: r["nearest"])))
    for (kind, step, reason), n in sorted(skipped.items(), key=lambda kv: -kv[1]):
        print(f"skipped {n}x: {kind} {step}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
