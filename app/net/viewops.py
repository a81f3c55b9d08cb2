"""What a window on a server game asks the server (issue #15 item 3, `wif play --server`):
the game's plugin set (``info``), a command's preview (``preview``), the player's view with
the events it shows since a seq (``update``), and what a spectator may see (``spectate``).

Why the window asks the server and keeps no replica of its own: the player's view is a
filter over the whole state (kernel/views.py, the rules' ``player_view`` hooks), and the
events a player is shown leave out hidden ones, so folding the shown events would not give
the filtered state, and choices or previews computed on a filtered state could offer what the
whole state refuses.  The server answers from its authoritative game, as the player.
"""

from __future__ import annotations

import asyncio
import base64
import sqlite3
import tempfile
from pathlib import Path

from kernel.errors import WifError
from kernel.events import GENESIS_HASH, canonical_json
from kernel.store import EventStore
from kernel.views import SECRET_KERNEL_FIELDS, records_seen_by, state_seen_by

# The meta a player's replay keeps: what opening a save and naming its game need.  Left out:
# the seed, the players' keys, the stored head and the meta's signature (the head is the hash
# of the whole log, hidden events included: kernel/views.py says why a view never carries it).
VIEW_SAVE_META = ("scenario", "plugins", "options", "players", "plugin_history", "game_id", "dice")
WATCH_LIMIT = 30.0  # seconds a spectator's watch is held open at most
UPDATE_RECORDS = 2000  # events sent in one update at most; a client further behind gets the state only


def state_seen_by_everyone(game) -> dict:
    """The state as a spectator may see it while the game runs: what every player may see,
    each player's view filter applied in turn (so what any side's rules hide stays hidden)."""
    data = game.state.to_dict()
    for player in game.players():
        game.host.pm.hook.player_view(state=game.state, player=player, view=data)
    for name in SECRET_KERNEL_FIELDS:
        data["kernel"].pop(name, None)
    return data


def records_seen_by_everyone(game, from_seq: int) -> list[dict]:
    """The events from ``from_seq`` that every player is shown, as the first player sees them
    (an event another player may not see is left out)."""
    players = game.players()
    if not players:
        return []
    shown = {p: {r.seq: r for r in records_seen_by(game, from_seq, None, p)} for p in players}
    first = shown[players[0]]
    return [first[seq].as_dict() for seq in sorted(first) if all(seq in shown[p] for p in players[1:])]


def save_bytes(game) -> str:
    """The whole save as stored (a consistent copy through SQLite's backup, WAL included), base64."""
    with tempfile.TemporaryDirectory() as folder:
        copy = sqlite3.connect(Path(folder) / "copy.wif")
        try:
            game.store.conn.backup(copy)
        finally:
            copy.close()
        return base64.b64encode((Path(folder) / "copy.wif").read_bytes()).decode()


def view_save_bytes(game, player: str) -> str:
    """A player's replay (F9 in the window on a server game): a save of the events this player
    is shown, exactly as shown (their data and the view's own chain hashes, the seqs kept, so a
    gap still says that something hidden happened there), base64.  It carries no snapshot (a
    whole state), no command (the orders a view hides) and none of the meta's secrets."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "view.wif"
        meta = {k: v for k, v in game.store.all_meta().items() if k in VIEW_SAVE_META}
        store = EventStore.create(path, {**meta, "view_of": player})
        # a save's log is gapless (kernel/store_schema.py); a view's is not: a gap is an event
        # the rules hide from this player, and its seq is all the view says of it
        store.conn.execute("DROP TRIGGER IF EXISTS events_no_gap")
        try:
            store.append([(r.seq, r.type, r.version, r.actor, r.turn, r.impulse, r.step, r.cmd, canonical_json(r.data),
                           r.hash) for r in records_seen_by(game, 1, None, player)])
        finally:
            store.close()
        return base64.b64encode(path.read_bytes()).decode()


def shown_since(room, player: str, since: int) -> list:
    """The events after ``since`` that ``player`` is shown.  Each record carries the view's
    chain hash, which runs through every event before it (kernel/views.py); the room keeps
    where each player's chain stood after what it last served, so serving the next events reads
    only those, not the whole log again at every update."""
    game = room.game
    chain = room.view_chains.get(player)
    usable = chain is not None and chain[0] <= since
    records = list(records_seen_by(game, since + 1, None, player, chain=chain if usable else None))
    now = game.state.kernel.seq
    if records:
        room.view_chains[player] = (now, records[-1].hash)
    elif usable:
        room.view_chains[player] = (now, chain[1])
    elif since == 0:
        room.view_chains[player] = (now, GENESIS_HASH)
    return records


class ViewOps:
    """Requests of ``Connection`` (app/net/server.py) for windows and spectators."""

    async def op_info(self, msg: dict) -> dict:
        room = self.server.room(str(msg.get("game")))
        if room.game is None:
            raise WifError(f"game {room.name} has not started: open seats {', '.join(room.open_seats())}")
        game = room.game
        return {"game_id": game.identity.game_id, "scenario": game.state.kernel.scenario,
                "plugin_set": game.plugin_set, "plugins_hash": game.plugins_hash,
                "seats": {p: seat["powers"] for p, seat in room.spec["seats"].items()}}

    async def op_preview(self, msg: dict) -> dict:
        """``Game.preview`` of a command as this player, on the server's game."""
        room = self._seat_room(msg)
        command = msg.get("command")
        if not isinstance(command, dict):
            raise WifError("command: a JSON object")

        return await room.run(lambda: {"seq": room.game.state.kernel.seq,
                                       "preview": room.game.preview(command, player=self.player)})

    async def op_update(self, msg: dict) -> dict:
        """The player's view now and the events it shows after ``since`` (a window folds them
        into its map: app/netplay.py)."""
        room = self._seat_room(msg)
        since = int(msg.get("since", 0))

        def look():
            game = room.game
            now = game.state.kernel.seq
            records = []
            if 0 < now - since <= UPDATE_RECORDS:
                records = shown_since(room, self.player, since)
            return {**self._status(room), "state": state_seen_by(game, self.player),
                    "records": [r.as_dict() for r in records]}
        return await room.run(look)

    async def op_replay(self, msg: dict) -> dict:
        """The player's replay of the game so far (``view_save_bytes``)."""
        room = self._seat_room(msg)
        return await room.run(lambda: {"seq": room.game.state.kernel.seq,
                                       "save": view_save_bytes(room.game, self.player)})

    async def op_watch(self, msg: dict) -> dict:
        """A spectator's ``wait``: answers when the log passes ``seq`` (or after a while)."""
        room = self.server.room(str(msg.get("game")))
        if room.game is None:
            raise WifError(f"game {room.name} has not started: open seats {', '.join(room.open_seats())}")
        seq = int(msg.get("seq", 0))
        async with room.changed:
            try:
                await asyncio.wait_for(room.changed.wait_for(lambda: room.position.seq > seq),
                                       min(float(msg.get("timeout", WATCH_LIMIT)), WATCH_LIMIT))
            except asyncio.TimeoutError:
                pass
        return whose_turn(room)

    async def op_spectate(self, msg: dict) -> dict:
        """Anyone may watch: while the game runs, what every side may see (the state and the
        events after ``since``); once it is over, the whole save, for the replay viewer."""
        room = self.server.room(str(msg.get("game")))
        if room.game is None:
            raise WifError(f"game {room.name} has not started: open seats {', '.join(room.open_seats())}")
        since = int(msg.get("since", 0))

        def look():
            game = room.game
            k = game.state.kernel
            out = {"seq": k.seq, "turn": k.turn, "impulse": k.impulse, "step": k.sequence.current,
                   "pending": list(k.sequence.pending), "finished": bool(k.sequence.finished)}
            if k.sequence.finished:
                return {**out, "state": state_seen_by(game, None), "save": save_bytes(game)}
            behind = k.seq - since
            records = records_seen_by_everyone(game, since + 1) if 0 < behind <= UPDATE_RECORDS else []
            return {**out, "state": state_seen_by_everyone(game), "records": records}
        return await room.run(look)


def whose_turn(room) -> dict:
    """For the lobby (asynchronous play): where a started game is and which players it waits
    for (the players of the powers or sides the current step waits for: rooms.Position)."""
    at = room.position
    if room.game is None or at is None:
        return {}
    return {"seq": at.seq, "turn": at.turn, "impulse": at.impulse, "step": at.step,
            "finished": at.finished, "waiting_for": sorted(at.waiting_for)}
