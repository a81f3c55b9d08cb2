"""Plausible random commands thrown at a Barbarossa game never crash a rule's handler, never
leave a half-applied command, and the log always replays to the same state.

Each command gets random units, hexes and choices of the right shapes; most are refused
(with a reason, nothing stored), some are accepted; the rest of the time the game moves on
the way a player would, by a random bot drawing from the game's choices."""

import random

import pytest

from app.bots import Bot, Tally, play_pending
from kernel.game import Game


def random_command(rng, game, name, power):
    units = list(game.state["units"].units.values())
    mine = [u for u in units if u.power == power and u.on_map] or units
    enemy = [u for u in units if u.power != power and u.on_map]
    unit = rng.choice(mine)

    def near(u):
        base = u.hex if u.hex else (207, 51)
        return [base[0] + rng.randint(-3, 3), base[1] + rng.randint(-3, 3)]

    cmd = {"type": name, "actor": power}
    for field, info in game.host.commands[name].model.model_fields.items():
        ann = str(info.annotation)
        if field == "actor":
            continue
        if field in ("unit", "attacker", "counter"):
            cmd[field] = unit.id
        elif field == "units":
            cmd[field] = [u.id for u in rng.sample(mine, min(len(mine), rng.randint(1, 3)))]
        elif field in ("hex", "to", "target"):
            cmd[field] = near(rng.choice(enemy) if enemy and rng.random() < 0.5 else unit)
        elif field == "path":
            cmd[field] = [near(unit)]
        elif "bool" in ann:
            cmd[field] = rng.random() < 0.5
        elif "int" in ann:
            cmd[field] = rng.randint(0, 3)
        elif field == "action":
            cmd[field] = rng.choice(["pass", "land", "air", "combined", "naval"])
        elif field == "side":
            cmd[field] = rng.choice(["axis", "allies"])
        elif field == "table":
            cmd[field] = rng.choice(["blitz", "assault"])
        elif "str" in ann:
            cmd[field] = rng.choice([unit.id, "yes", "no", power, "bomber", "escort"])
    return cmd


def move_on(game, bot, tally) -> bool:
    """The game moves on the way a player would: a random bot's decision from the choices."""
    return play_pending(game, {side: bot for side in game.state.kernel.sides}, tally)


@pytest.mark.parametrize("seed", [11, 29])
def test_random_commands_never_crash_a_rule_and_the_log_replays(tmp_path, seed):
    rng = random.Random(seed)
    game = Game.new("barbarossa", tmp_path / "fuzz.wif", seed=seed)
    crashes, accepted, refused = [], 0, 0
    bot, tally = Bot("random", seed), Tally()
    for _ in range(1000):  # until it really played (most random commands are refused)
        k = game.state.kernel
        if k.sequence.finished or not k.sequence.pending or (accepted >= 10 and refused >= 10 and k.turn >= 1):
            break
        who = k.sequence.pending[0]
        power = who if who in k.powers() else k.sides[who][0]
        names = [c for c in game.legal_commands() if c != "FinishStep"]
        if names and rng.random() < 0.8:
            before = game.state.kernel.seq
            out = game.submit(random_command(rng, game, rng.choice(names), power))
            accepted += out.accepted
            refused += not out.accepted
            if not out.accepted:
                assert game.state.kernel.seq == before  # a refusal stores nothing
                if "raised" in out.reason:
                    crashes.append(out.reason)
        elif not move_on(game, bot, tally):
            break
    assert crashes == [] and tally.refused == []
    assert accepted >= 10 and refused >= 10 and game.state.kernel.turn >= 1  # it really played
    final = game.state.to_json()
    game.close()
    with Game.open(tmp_path / "fuzz.wif") as again:
        assert again.state.to_json() == final
