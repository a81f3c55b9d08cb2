"""Play by e-mail (issue #15, item 4): a turn file carries one player's new signed commands
and the events they made; the other player appends it to their copy of the save.

A turn file is JSON: the game id, the sender, ``from`` (seq and head of the log it extends),
each command as stored (its player's signature over the command and the heads around it,
kernel/fairplay.py) with its events, and the sender's signature over all of it.  Importing
checks, in order: the game, the file's signature, that the file extends this copy exactly (a
file already imported or older is "replayed", one from another branch "does not extend"),
then appends it to a copy of the save and runs ``wif verify`` there (every signature, the
chain, every command re-decided) before the copy replaces the save.

Not done yet: the joint PBEM dice of docs/FAIRPLAY.md (kernel/dice.py JointDice) are not
wired into the game's dice source, so a turn's dice are the sender's (host key, checked against
the log by the receiver, not re-derived) or a seeded game's.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from kernel import keys as keyring
from kernel.errors import WifError
from kernel.events import canonical_json
from kernel.game import Game
from kernel.store import EventStore

TURN_FORMAT = 1


class TurnRefused(WifError):
    """A turn file that may not be appended, and why."""


def _body_message(body: dict) -> bytes:
    return canonical_json(["wif pbem turn", body]).encode()


def export_turn(save: str | Path, player: str, since: int | None = None) -> dict:
    """The turn file of ``player``'s commands after ``since`` (default: the player's trailing
    commands, those after the last command of anyone else)."""
    store = EventStore.open(save, writable=False)
    try:
        commands = list(store.commands())
        if since is None:
            tail = len(commands)
            while tail > 0 and commands[tail - 1][2] == player:
                tail -= 1
            since = commands[tail - 1][1] if tail > 0 else commands[0][1]
        mine = [c for c in commands if c[0] > since]
        others = [c for c in mine if c[2] != player]
        if others:
            raise WifError(f"after seq {since} there are commands of {others[0][2]!r} too: a turn file carries "
                           f"{player}'s commands only")
        if not mine:
            raise WifError(f"{player} has no new commands after seq {since} in {save}")
        head = store.conn.execute("SELECT hash FROM events WHERE seq=?", (since,)).fetchone()
        game_id = store.meta("game_id")
        body = {"format": TURN_FORMAT, "game_id": game_id, "player": player, "from": [since, head[0].hex()],
                "commands": [{"first": f, "last": last, "player": p, "command": cj, "signature": sig.hex(),
                              "events": [[*row[:8], row[8], row[9].hex()] for row in store.rows(f, last)]}
                             for f, last, p, cj, sig in mine]}
    finally:
        store.close()
    signer = keyring.signer(player)
    return {"turn": body, "signature": signer.sign(_body_message(body)).hex()}


def import_turn(save: str | Path, turn: dict, as_player: str) -> int:
    """Append a checked turn file to ``save``; the number of commands appended."""
    from kernel.verify import verify

    save = Path(save)
    body, signature = turn.get("turn"), turn.get("signature")
    if not isinstance(body, dict) or not isinstance(signature, str) or body.get("format") != TURN_FORMAT:
        raise TurnRefused("not a wif turn file (format 1)")
    with Game.open(save, read_only=True) as game:
        ident = game.identity
        head_seq, head = game.store.last()
    if body.get("game_id") != ident.game_id:
        raise TurnRefused(f"the turn file is of game {body.get('game_id')}, this save is game {ident.game_id}")
    sender = body.get("player")
    if sender not in ident.keys:
        raise TurnRefused(f"the turn file's sender {sender!r} is not a player of this game")
    if not keyring.verify_signature(ident.keys[sender], bytes.fromhex(signature), _body_message(body)):
        raise TurnRefused(f"the turn file's signature is not {sender}'s: it was changed after {sender} signed it")
    from_seq, from_head = body["from"]
    if from_seq < head_seq:
        raise TurnRefused(f"replayed or old turn file: it starts after seq {from_seq}, this save is already at "
                          f"seq {head_seq}")
    if from_seq != head_seq or from_head != head.hex():
        raise TurnRefused(f"the turn file does not extend this save: it starts after seq {from_seq}, this save "
                          f"ends at seq {head_seq} with another head")
    with tempfile.TemporaryDirectory(dir=save.parent) as tmp:
        trial = Path(tmp) / save.name
        shutil.copyfile(save, trial)
        with Game.open(trial, player=as_player) as game:
            for c in body["commands"]:
                rows = [(*e[:8], e[8], bytes.fromhex(e[9])) for e in c["events"]]
                game.store.append(rows, expect_head=game.store.last(),
                                  command=(c["first"], c["last"], c["player"], c["command"], bytes.fromhex(c["signature"])))
        report = verify(trial)
        if not report.ok:
            raise TurnRefused("the turn file does not verify: " + "; ".join(str(p) for p in report.problems[:3]))
        os.replace(trial, save)
    return len(body["commands"])


def write_turn(turn: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(turn, indent=1))


def read_turn(path: str | Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise TurnRefused(f"{path}: cannot read the turn file ({exc})") from None
