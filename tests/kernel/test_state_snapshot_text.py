"""kernel/state.py ``to_snapshot_json``: pydantic writes each section's JSON itself; the text
must be exactly what the dict form gives (compact, every dict in its present order, text not
escaped), so that snapshots written before and after read back the same and a dry run's copy of
the state decides as the live game does."""

import json

from app.bots import Bot, Tally, play_pending
from kernel.game import Game


def dict_form(state) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"), ensure_ascii=False)


def test_a_snapshot_is_the_dict_form_of_the_state_through_a_barbarossa_game(save):
    game = Game.new("barbarossa", save, seed=3)
    assert game.state.to_snapshot_json() == dict_form(game.state)
    bots = {side: Bot("random", 11 + i) for i, side in enumerate(["axis", "allies"])}
    tally = Tally()
    for _ in range(6):
        for _ in range(30):
            play_pending(game, bots, tally)
        assert game.state.to_snapshot_json() == dict_form(game.state)
    game.close()


def test_names_and_texts_beyond_ascii_are_written_as_they_are(save):
    game = Game.new("lab", save, seed=1, options={"units": [
        {"id": "r1", "power": "ussr", "branch": "land", "type": "inf", "size": "army", "name": "Königsberg «Ж»\t",
         "factors": {"combat": 3, "move": 3}, "hex": [204, 52]}]})
    text = game.state.to_snapshot_json()
    assert text == dict_form(game.state) and "Königsberg «Ж»" in text
    game.close()
