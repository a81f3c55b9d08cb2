"""The choices contract over whole Barbarossa games: at many positions of bot-played games,
every command built from what ``Game.choices`` offers is accepted (0 refusals), and the bots,
drawing only from choices, play the 5 turns to the victory check."""

import random

import pytest

from app.bots import Bot, Tally, play_pending
from kernel.game import Game

SAMPLES = 3  # commands tried per offered command type at a checked position


def check_position(game, rng) -> list[str]:
    """Every offered command type, sampled and enumerated a little: refusals, in words."""
    broken = []
    for decision in game.choices(None).decisions:
        player = game.state.kernel.controllers.get(decision.commands[0].actor, "solo") if decision.commands else "solo"
        for choice in decision.commands:
            if choice.source != "rules":
                continue
            tried = choice.commands(limit=4) + [choice.sample(rng) for _ in range(SAMPLES)]
            for cmd in tried:
                if cmd is None:
                    continue
                out = game.dry_run(cmd, player=player)
                if not out.accepted:
                    broken.append(f"{decision.title}: {cmd} refused: {out.reason}")
    return broken


@pytest.mark.parametrize("seed,policy,every", [(3, "random", 8), (8, "greedy", 9), (21, "random", 9)])
def test_choices_contract_holds_over_a_bot_played_game(tmp_path, seed, policy, every):
    game = Game.new("barbarossa", tmp_path / "contract.wif", seed=seed)
    bots = {side: Bot(policy, seed) for side in game.state.kernel.sides}
    tally, rng, broken, checked = Tally(), random.Random(seed), [], 0
    while True:
        if tally.decisions % every == 0:
            broken += check_position(game, rng)
            checked += 1
        if not play_pending(game, bots, tally):
            break
    assert broken == [] and tally.refused == []
    assert game.state.kernel.sequence.finished and game.state.kernel.turn == 5
    assert checked >= 20
    game.close()
