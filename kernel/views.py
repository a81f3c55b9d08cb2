"""What one player may see: the log and the state filtered by the rules' view hooks.

A player's view carries no trace of what it hides (issue 13, "Views that hide what the rules
hide").  The stored hash of an event chains on every event before it, hidden ones included,
so a view that kept the stored hashes would let a player test guesses about a hidden event
against them (the 4 orders of an opponent's secret air line, tried against the next visible
event's hash).  A view therefore gets its own chain, over the events it shows exactly as it
shows them; and the game's secrets (the dice seed, dice still to be played back) are left out.

What a view still shows: the seq of each event it shows, so a gap says that something hidden
happened there (the rules say so too: the player waits for the other side's decision), never
what.  ``wif log/state --as PLAYER`` also needs that player's key (check_viewer).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .engine import upcast
from .errors import WifError
from .events import GENESIS_HASH, EventRecord, canonical_json, chain_hash

if TYPE_CHECKING:
    from .game import Game

# Secrets of the whole game, shown to no player: event fields and kernel state fields.
SECRET_EVENT_FIELDS: dict[str, tuple[str, ...]] = {"GameStarted": ("seed", "head_salt")}
SECRET_KERNEL_FIELDS = ("seed", "dice_playback")


def records_seen_by(game: "Game", from_seq: int = 1, to_seq: int | None = None,
                    player: str | None = None, chain: tuple[int, bytes] | None = None) -> Iterator[EventRecord]:
    """The events ``from_seq``..``to_seq`` as ``player`` sees them (every event, as stored,
    when ``player`` is None), one at a time from a store cursor: memory stays flat however
    long the game.

    A player's records carry the view's chain hash: sha256 over the previous shown event's
    view hash and this event as shown.  It starts at the first event, so a view that begins
    later still folds (without yielding) the events before it, unless ``chain`` says where the
    view's chain stood after an earlier event: (seq, the view hash of the last event shown up to
    it, GENESIS_HASH if none), as a server that serves a player's events in turn keeps it."""
    host = game.host
    if player is None:
        for rec in game.store.records(from_seq, to_seq):
            yield upcast(host, rec)
        return
    event_view = host.pm.hook.event_view
    chained_to, prev = chain if chain is not None and chain[0] < from_seq else (0, GENESIS_HASH)
    for rec in game.store.records(chained_to + 1, to_seq):
        upcast(host, rec)
        view = rec.as_dict()
        event_view(event=rec, player=player, view=view, state=game.state)
        if view.get("hidden"):
            continue
        data = view["data"]
        secret = SECRET_EVENT_FIELDS.get(rec.type)
        if secret:
            data = {k: v for k, v in data.items() if k not in secret}
        rec.data = data
        rec.hash = prev = chain_hash(prev, rec.header_json(), canonical_json(data))
        if rec.seq >= from_seq:
            yield rec


def check_viewer(game: "Game", player: str) -> None:
    """``player`` may look through their own eyes only: a player of this game, and in a game
    whose players sign (GameStarted.keys) the one holding that player's key on this machine
    (kernel/keys.py).  A game without keys (older saves) asks for the name only."""
    from . import keys

    players = game.players()
    if player not in players:
        raise WifError(f"{player!r} is not a player of this game (players: {', '.join(players) or 'none'})")
    recorded = game.identity.keys.get(player)
    if not recorded:
        return
    if not keys.has_key(player):
        raise WifError(f"{game.path}: showing the game as {player!r} needs {player}'s key, which is not on this "
                       f"machine ({keys.key_path(player)})")
    if keys.public_key_hex(player) != recorded:
        raise WifError(f"{game.path}: the key of {player!r} on this machine is not the one this game recorded "
                       f"for {player}; only that player may see the game as {player}")


def state_seen_by(game: "Game", player: str | None) -> dict:
    """The state as ``player`` may see it (the whole state when None)."""
    data = game.state.to_dict()
    if player is not None:
        game.host.pm.hook.player_view(state=game.state, player=player, view=data)
        for name in SECRET_KERNEL_FIELDS:
            data["kernel"].pop(name, None)
    return data
