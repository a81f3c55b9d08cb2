"""Network play from the window (issue #15, "A lobby"; seeds, "Over the Internet (NetPlay)":
one player starts a game on a shared server, the others join it).

Start New Game's mode "Over the network" (app/newgame.py hands its rows to ``network_rows``):
the server's URL, the game's name, open or by invitation; the scenario, optional rules, the two
players' names and the major powers of each are the form's own rows.  "Create on server" makes
the game there and takes the first player's seat (the player at this machine).  "Join or
watch…" opens the Join form (``LobbyForm``): the server's games with their open seats and whose
turn it is (asynchronous play); a game is joined as the name given, or watched as a spectator.
A started game opens in the normal window (app/netplay.py).
"""

from __future__ import annotations

import time

import pygame
import pygame_gui
from pygame_gui.elements import UIDropDownMenu, UILabel, UITextBox, UITextEntryLine

from kernel.errors import WifError

from .forms import FormWindow

DEFAULT_URL = "ws://127.0.0.1:8765/ws"
ACCESS = ("open (listed to everyone)", "by invitation (listed to its players only)")


def network_rows(form, win, y: int) -> None:
    """The network rows and buttons of the Start New Game form (``form``: app/newgame.py)."""
    m = form.gui.manager
    net = form.__dict__.setdefault("net", {"url": DEFAULT_URL, "game": f"{form.scenario}_{time.strftime('%H%M%S')}",
                                           "access": ACCESS[0]})
    UILabel(pygame.Rect(8, y, 140, 30), "Server", m, container=win)
    net["url_entry"] = UITextEntryLine(pygame.Rect(150, y, 420, 30), m, container=win, initial_text=net["url"])
    y += 36
    UILabel(pygame.Rect(8, y, 140, 30), "Game name", m, container=win)
    net["game_entry"] = UITextEntryLine(pygame.Rect(150, y, 200, 30), m, container=win, initial_text=net["game"])
    access = UIDropDownMenu(list(ACCESS), net["access"], pygame.Rect(356, y, 214, 30), m, container=win)
    form.gui.on(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, access, lambda text: net.__setitem__("access", text))
    y += 40
    form.create_button = win.button((8, y, 180, 36), "Create on server", lambda: create_on_server(form))
    form.join_button = win.button((196, y, 180, 36), "Join or watch…", lambda: open_lobby(form))
    win.button((384, y, 100, 36), "Quit", form.quit)
    y += 44
    if form.status:
        UITextBox(form.status, pygame.Rect(8, y, 570, 80), m, container=win, object_id="#status")


def _read(form) -> dict:
    net = form.net
    net["url"] = net["url_entry"].get_text().strip() or DEFAULT_URL
    net["game"] = net["game_entry"].get_text().strip()
    form._read_names()
    return net


def seats_of(form) -> dict[str, list[str]]:
    """Each player's major powers as the form assigns them (the hot seat's rows)."""
    seats: dict[str, list[str]] = {form.names[0]: [], form.names[1]: []}
    for powers in form.sides().values():
        for power in powers:
            seats[form.names[form.assign.get(power, 0)]].append(power)
    return seats


def create_on_server(form) -> None:
    from .net.client import NetClient

    net = _read(form)
    seats = seats_of(form)
    try:
        if len(seats) < 2 or not all(seats.values()):
            raise WifError("two players with different names, each with at least one major power")
        with NetClient(net["url"], form.names[0]) as client:
            client.create(net["game"], form.scenario, seats, rules=optional_rule_plugins(form),
                          invitation=net["access"] == ACCESS[1])
            joined = client.join(net["game"])
    except WifError as exc:
        form.status = f"not created: {exc}"
        form.build()
        return
    if joined.get("started"):
        enter_game(form, net["url"], net["game"], form.names[0])
        return
    form.status = (f"game {net['game']} created on {net['url']}; {form.names[0]} is seated. Waiting for "
                   f"{', '.join(joined['open_seats'])}: Join or watch… opens it when they have joined.")
    form.build()


def optional_rule_plugins(form) -> list[str]:
    """The optional rules chosen on the Rules tabs that are plugins of their own (the server
    starts the game with them); none when the tabs were not opened."""
    from kernel.plugins import discover

    chosen = form.rules_on or []
    found = discover().plugins
    return [rule for rule in chosen if rule in found]


def enter_game(form, url: str, game: str, player: str | None, spectate: bool = False) -> None:
    """Replace the Start New Game form by the window on the server game (app/netplay.py)."""
    from types import SimpleNamespace

    from .newgame import Choice
    from .netplay import server_scene

    try:
        scene = server_scene(SimpleNamespace(server=url, save=game, player=player, spectate=spectate))
    except WifError as exc:
        form.status = f"{game}: {exc}"
        form.build()
        return
    form.choice = Choice("server", game=scene)
    form.done = True


def open_lobby(form) -> None:
    net = _read(form)
    form.lobby = LobbyForm(form, net["url"], form.names[0])


class LobbyForm:
    """The Join form: the server's games, each with Join (as the name given) and Watch."""

    def __init__(self, form, url: str, player: str):
        self.form, self.url, self.player = form, url, player
        self.gui = form.gui
        self.window: FormWindow | None = None
        self.games: list[dict] = []
        self.status = ""
        self.refresh()

    def refresh(self) -> None:
        from .net.client import NetClient

        try:
            with NetClient(self.url, self.player) as client:
                self.games = client.list_games()
            self.status = f"{len(self.games)} game(s) on {self.url}"
        except WifError as exc:
            self.games, self.status = [], str(exc)
        self.build()

    def build(self) -> None:
        if self.window is not None:
            self.gui.close(self.window)
        sw, sh = self.gui.size
        w, h = min(sw, 780), min(sh - 40, 120 + 40 * max(1, len(self.games)))
        win = FormWindow(self.gui, pygame.Rect((sw - w) // 2, 20, w, h), f"Join a game as {self.player}",
                         object_id="#lobby")
        self.window = win
        win.label((8, 4, w - 30, 24), self.status)
        y = 32
        self.rows: dict[str, dict] = {}
        for g in self.games:
            win.label((8, y, w - 280, 30), game_line(g))
            row = {}
            if self.player in g.get("seats", [self.player]) and (g["open_seats"] or g["started"]):
                row["join"] = win.button((w - 266, y, 110, 30), "Join", lambda name=g["game"]: self.join(name))
            if g["started"]:
                row["watch"] = win.button((w - 150, y, 110, 30), "Watch", lambda name=g["game"]: self.watch(name))
            self.rows[g["game"]] = row
            y += 36
        win.button((8, y + 4, 120, 30), "Refresh", self.refresh)
        win.button((136, y + 4, 120, 30), "Close", self.close)

    def join(self, game: str) -> None:
        from .net.client import NetClient

        try:
            with NetClient(self.url, self.player) as client:
                out = client.join(game)
        except WifError as exc:
            self.status = f"{game}: {exc}"
            self.build()
            return
        if not out.get("started"):
            self.status = f"{game}: seated; waiting for {', '.join(out['open_seats'])}"
            self.build()
            return
        self.close()
        enter_game(self.form, self.url, game, self.player)

    def watch(self, game: str) -> None:
        self.close()
        enter_game(self.form, self.url, game, self.player, spectate=True)

    def close(self) -> None:
        if self.window is not None:
            self.gui.close(self.window)
            self.window = None


def game_line(g: dict) -> str:
    """One game of the lobby in words: open seats, or whose turn it is, or over."""
    if not g["started"]:
        return f"{g['game']} ({g['scenario']}): open seats {', '.join(g['open_seats'])}"
    if g.get("finished"):
        return f"{g['game']} ({g['scenario']}): over"
    return (f"{g['game']} ({g['scenario']}): turn {g['turn']} impulse {g['impulse']}, "
            f"waiting for {', '.join(g['waiting_for']) or 'nobody'}")
