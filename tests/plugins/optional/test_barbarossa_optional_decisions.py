"""The choices contract over a bot-played Barbarossa game with the optional rules that change
it ON (Partisans, the additional units, Siberians, Supply units, Isolated units): at many
positions every command built from what ``Game.choices`` offers is accepted, and the bots play
the 5 turns to the victory check."""

from __future__ import annotations

import random

import pytest

from app.bots import Bot, Tally, play_pending
from plugins.optional.framework import new_game

RULES = ["partisans", "territorials", "militia", "guards-banner-armies", "motorized-infantry",
         "anti-aircraft-and-anti-tank-units", "siberians", "supply-units", "isolated-units", "offensive-chits",
         "pilots"]
OURS = {"PlacePartisan", "SwapSiberian", "ExpendSupplyUnit", "PlayOffensiveChit", "AssignPilot", "MoveAirToReserve"}


def _check(game, rng) -> tuple[list[str], set[str]]:
    broken, seen = [], set()
    for decision in game.choices(None).decisions:
        for choice in decision.commands:
            if choice.source != "rules":
                continue
            player = game.state.kernel.controllers.get(choice.actor, "solo")
            many = choice.type in OURS
            tried = choice.commands(limit=20 if many else 3) + [choice.sample(rng) for _ in range(3)]
            for cmd in tried:
                if cmd is None:
                    continue
                seen.add(cmd["type"])
                out = game.dry_run(cmd, player=player)
                if not out.accepted:
                    broken.append(f"{decision.title}: {cmd} refused: {out.reason}")
    return broken, seen


@pytest.mark.parametrize("seed", [4])
def test_optional_rules_choices_contract_holds_over_a_bot_played_barbarossa(tmp_path, seed):
    game = new_game("barbarossa", tmp_path / "optional.wif", on=RULES, seed=seed)
    bots = {side: Bot("random", seed) for side in game.state.kernel.sides}
    tally, rng, broken, seen = Tally(), random.Random(seed), [], set()
    while True:
        step = game.state.kernel.sequence.current or ""
        if tally.decisions % 7 == 0 or "partisan" in step or "reinforcements" in step:
            found, types = _check(game, rng)
            broken += found
            seen |= types
        if not play_pending(game, bots, tally):
            break
    assert broken == [] and tally.refused == []
    assert game.state.kernel.sequence.finished and game.state.kernel.turn == 5
    assert "SwapSiberian" in seen  # the USSR reinforces on turns 3 to 5
    game.close()
