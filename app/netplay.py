"""`wif play --server URL GAME --as PLAYER`: the normal game window on a server game (issue #15).

The window's game is a ``RemoteGame``: the player's view as the server sends it, with the
game's own plugins loaded here (for drawing, wording and the UI hooks).  Every command goes to
the server; the forms' choices and previews are asked of the server, which answers from its
authoritative game as this player (app/net/viewops.py says why the window keeps no replica of
its own).  A second connection waits on the server (``wait``) in a thread and notes how far the
game has gone; the window's save watch (app/savewatch.py), which asks ``store.last()`` every
frame for a network game, then folds the news through ``refresh`` exactly as for a save another
process appended to, so a move at one window shows at every window at once.

Without a seat (``--spectate``) the window shows what every side may see while the game runs
(app/net/viewops.py ``state_seen_by_everyone``), decides nothing, and a finished game opens in
the replay viewer on its whole save.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pygame

from kernel.errors import WifError

from .net.client import OutOfDate
from .net.remote import RemoteGame
from .scenes import GameScene, ReplayScene
from .windowstyle import GOOD

REMOTE_WATCH_EVERY = 0.05  # seconds between two looks of the window's save watch at the server's head


def open_server_game(url: str, game: str, player: str | None, spectate: bool = False) -> RemoteGame:
    """The window's game for ``wif play --server``: a seat of ``player``, or a spectator's view."""
    if not spectate and not player:
        raise WifError("wif play --server needs --as PLAYER (your seat) or --spectate")
    return RemoteGame(url, game, None if spectate else player, as_name=player)


def finished_save_path(game: RemoteGame, folder: Path) -> Path | None:
    """A finished game's whole save, written where the replay viewer can open it."""
    if game.finished_save is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game.name}-{game.identity.game_id[:8]}.wif"
    path.write_bytes(game.finished_save)
    return path



def server_scene(args):
    """The scene `wif play --server URL GAME` opens: the game window on the server game, or,
    for a spectator of a finished game, the replay viewer on its whole save."""
    game = open_server_game(args.server, args.save, getattr(args, "player", None), getattr(args, "spectate", False))
    if game.finished_save is not None:
        path = finished_save_path(game, Path(getattr(args, "saves", None) or "saves"))
        game.close()
        print(f"game {args.save} is over: its whole save is {path}")
        return ReplayScene(str(path))
    return NetGameScene(game)


class NetGameScene(GameScene):
    """``GameScene`` on a ``RemoteGame``: the forms show this machine's player only (the others
    are "at another machine"), the save watch looks at the server's head every frame, and the
    game's chat has a small form (app/netchat.py)."""

    chat = None

    def handle(self, event) -> None:
        try:
            super().handle(event)
        except OutOfDate:
            self.moved_on()

    def tick(self) -> None:
        if self.chat is not None and self.window is not None and self.window.running:
            self.chat.tick()
        try:
            super().tick()
        except OutOfDate:
            self.moved_on()

    def moved_on(self) -> int:
        """The other side moved while this player chose (a field's options or a submit met
        OutOfDate): fold the player's new view now, so the forms are rebuilt from the new
        choices, and say so.  How many events were folded."""
        game, window = self.game, self.window
        game.store.moved_to(game.client.request("status", game=game.name)["seq"])
        added = window.save_watch.check()
        text = (f"the game moved on while you chose ({added} new event{'s' if added != 1 else ''}): "
                "these are the choices now")
        if window.play is not None:
            window.play.say(text, GOOD)
        window.say(text, GOOD)
        return added

    def enter(self) -> None:
        fresh = self.window is None
        super().enter()
        if fresh:
            self.window.save_watch.every = REMOTE_WATCH_EVERY
            if self.window.play is not None:
                self.window.play.hot_seat = True
                self.window.play.at_screen = self.game.player
            from .netchat import ChatForm

            self.chat = ChatForm(self.window, self.game)
        game = self.game
        pygame.display.set_caption(f"World in Flames — {game.state.kernel.scenario} — {game.name} on "
                                   f"{urlparse(game.url).netloc} as {game.player or 'spectator'}")
