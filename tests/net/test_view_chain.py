"""Serving a player's events in turn (issue #15, app/net/viewops.py ``shown_since``): the room
keeps where the player's view chain stood, so each update reads only the new events, and every
record served carries the same view hash as one computed over the whole log (kernel/views.py)."""

from __future__ import annotations

from types import SimpleNamespace

from app.bots import Bot
from app.net.viewops import shown_since
from kernel.game import Game
from kernel.views import records_seen_by


def play(game: Game, bot: Bot, commands: int) -> None:
    for _ in range(commands):
        decision = next(d for d in game.choices().decisions if d.pending)
        k = game.state.kernel
        power = k.sides[decision.decider][0] if decision.decider in k.sides else decision.decider
        player = k.controllers[power]
        assert game.submit(bot.choose(game, decision, player), player=player).accepted


def test_events_served_in_turn_carry_the_whole_logs_view_hashes(tmp_path):
    game = Game.new("barbarossa", tmp_path / "g.wif", seed=3, players={"a": ["germany"], "b": ["ussr"]})
    room = SimpleNamespace(game=game, view_chains={})
    bot = Bot("random", 1)
    served, since = [], 0
    for _ in range(4):
        play(game, bot, 5)
        got = shown_since(room, "b", since)
        assert room.view_chains["b"][0] == game.state.kernel.seq
        served += got
        since = game.state.kernel.seq
    whole = list(records_seen_by(game, 1, None, "b"))
    assert [(r.seq, r.hash) for r in served] == [(r.seq, r.hash) for r in whole]
    late = shown_since(room, "b", 2)  # a client further back (a second window): read from the start
    assert [(r.seq, r.hash) for r in late] == [(r.seq, r.hash) for r in whole if r.seq > 2]
    game.close()
