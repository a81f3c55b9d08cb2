"""Play by e-mail (issue #15, item 4; docs/FAIRPLAY.md): a turn file carries one player's new
signed commands and the events they made; the other player appends it to their copy of the
save.  A PBEM game (``wif pbem new``) rolls joint dice (kernel/pbem_dice.py), and the turn
file carries their halves too.

A turn file is JSON: the game id, the sender, ``from`` (seq and head of the log it extends),
each command as stored (its player's signature over the command and the heads around it,
kernel/fairplay.py) with its events, and for a PBEM game: ``rolls`` (the roll records of those
commands, the sender's secret revealed), ``declared`` (the sender's command waiting for a
die, its secret committed) and ``nonce`` (the sender's nonce for the receiver's declaration);
the sender signs all of it.  Importing checks, in order: the game, the file's signature, that
the file extends this copy exactly (a file already imported or older is "replayed", one from
another branch "does not extend"), every roll record against what this copy declared and
granted (commitment opened, the nonce the one given here, no nonce used twice, no second
declaration at one place), then on a copy of the save checks each new command as ``wif
verify`` does (its player's signature, decided again by the rules on this copy's state with
its dice drawn again, its events exactly the file's) and appends it; the copy then replaces
the save.  The part of the log the copy had is its own, checked when it came, so an import
costs the new commands only.  A nonce answering this player's own declaration rolls it then.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from kernel import keys as keyring
from kernel import pbem_dice
from kernel.dice import check_reveal
from kernel.errors import WifError
from kernel.events import canonical_json, signed_message
from kernel.fairplay import signed_head
from kernel.game import Game

TURN_FORMAT = 2  # 2: with the joint dice (format 1 files, without them, are still read)
SYNCED = "pbem_synced"  # meta: [seq, head] where this copy last met the other player's
SENT = "pbem_sent"  # meta: [seq, head] where this player's last turn file ended


class TurnRefused(WifError):
    """A turn file that may not be appended, and why."""


@dataclass
class Imported:
    commands: int = 0  # the sender's commands appended
    rolled: list[str] = field(default_factory=list)  # this player's declared commands rolled now
    waiting: str = ""  # what the game waits for afterwards, if a PBEM roll


def _body_message(body: dict) -> bytes:
    return canonical_json(["wif pbem turn", body]).encode()


def export_turn(save: str | Path, player: str, since: int | None = None) -> dict:
    """The turn file of ``player``'s commands after ``since`` (default: the player's trailing
    commands, those after the last command of anyone else), with his roll records, his
    declaration waiting for dice, and his nonce for the other player's declaration."""
    with Game.open(save, player=player) as game:
        ident, store = game.identity, game.store
        joint = ident.dice == pbem_dice.JOINT
        nonce = pbem_dice.grant(game, player) if joint else None  # kept in the save: one nonce per declaration
        pending = pbem_dice.pending(game) if joint else None
        declared = pending if pending is not None and pending["player"] == player else None
        commands = list(store.commands())
        # from where the other's copy is known to end: his last file imported here, or this
        # player's last file sent (``--since`` sends again from further back)
        known = [m[0] for m in (store.meta(SYNCED), store.meta(SENT))
                 if isinstance(m, list) and m and isinstance(m[0], int) and m[0] <= store.last()[0]]
        if since is None and known:
            since = max(known)
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
        if not mine and nonce is None and declared is None:
            raise WifError(f"{player} has no new commands after seq {since} in {save}, and no roll waits on him")
        head = store.conn.execute("SELECT hash FROM events WHERE seq=?", (since,)).fetchone()
        recs = pbem_dice.records(store) if joint else {}
        body = {"format": TURN_FORMAT, "game_id": ident.game_id, "player": player, "from": [since, head[0].hex()],
                "commands": [{"first": f, "last": last, "player": p, "command": cj, "signature": sig.hex(),
                              "events": [[*row[:8], row[8], row[9].hex()] for row in store.rows(f, last)]}
                             for f, last, p, cj, sig in mine],
                "rolls": [recs[c[0]] for c in mine if c[0] in recs], "declared": declared, "nonce": nonce}
        if mine:
            store.set_meta(SENT, [mine[-1][1], store.last()[1].hex()])
    signer = keyring.signer(player)
    return {"turn": body, "signature": signer.sign(_body_message(body)).hex()}


def import_turn(save: str | Path, turn: dict, as_player: str) -> Imported:
    """Append a checked turn file to ``save``; a nonce for ``as_player``'s declared roll rolls it."""
    save = Path(save)
    body, signature = turn.get("turn"), turn.get("signature")
    if not isinstance(body, dict) or not isinstance(signature, str) or body.get("format") not in (1, TURN_FORMAT):
        raise TurnRefused(f"not a wif turn file (format {TURN_FORMAT})")
    with Game.open(save, read_only=True) as game:
        ident = game.identity
        head_seq, head = game.store.last()
        recs = pbem_dice.records(game.store) if ident.dice == pbem_dice.JOINT else {}
    if body.get("game_id") != ident.game_id:
        raise TurnRefused(f"the turn file is of game {body.get('game_id')}, this save is game {ident.game_id}")
    sender = body.get("player")
    if sender not in ident.keys:
        raise TurnRefused(f"the turn file's sender {sender!r} is not a player of this game")
    if sender == as_player:
        raise TurnRefused(f"the turn file is {sender}'s own: it is imported by the other player")
    if not keyring.verify_signature(ident.keys[sender], bytes.fromhex(signature), _body_message(body)):
        raise TurnRefused(f"the turn file's signature is not {sender}'s: it was changed after {sender} signed it")
    with Game.open(save, read_only=True) as game:
        commands, end = _new_commands(game.store, body)
    joint = ident.dice == pbem_dice.JOINT
    merged = _checked_dice(ident, recs, body, commands, sender, as_player, end, head_seq) if joint else recs
    if not commands and merged == recs:
        raise TurnRefused(f"replayed or old turn file: it brings nothing this save does not have (the save ends at "
                          f"seq {head_seq}; its dice declaration or nonce, if any, is here already)")
    out = Imported(len(commands))
    with tempfile.TemporaryDirectory(dir=save.parent) as tmp:
        trial = Path(tmp) / save.name
        shutil.copyfile(save, trial)
        with Game.open(trial, player=as_player) as game:
            if joint and merged != recs:
                pbem_dice.save_records(game.store, merged)  # the new commands' dice are drawn from these
            for c in commands:
                _append_checked(game, c, sender)
            met = game.store.last()
            game.store.set_meta(SYNCED, [met[0], met[1].hex()])  # both copies end here now
            if joint:
                _roll_granted(game, as_player, out)
                out.waiting = pbem_dice.waiting_note(game) or ""
        os.replace(trial, save)
    return out


def _append_checked(game, c: dict, sender: str) -> None:
    """One command of the file checked as ``wif verify`` checks it, then appended: its player's
    signature over it and the heads around it, and decided again by the rules on this copy's
    state (its dice drawn again), its events exactly the file's.  The part of the log before
    it is this copy's own, checked when it came."""
    from kernel.redecide import _decide

    ident, first, last = game.identity, c["first"], c["last"]
    try:
        rows = [(*e[:8], e[8], bytes.fromhex(e[9])) for e in c["events"]]
        command, signature = json.loads(c["command"]), bytes.fromhex(c["signature"])
    except (TypeError, ValueError, IndexError) as exc:
        raise TurnRefused(f"the turn file's command at seq {first} is malformed ({exc})") from None
    if c["player"] != sender:
        raise TurnRefused(f"seq {first}: the command is {c['player']}'s, the turn file is {sender}'s")
    if not rows or rows[0][0] != first or rows[-1][0] != last:
        raise TurnRefused(f"seq {first}: the command's events are not seq {first}-{last}")
    before = game._last_hash
    if not keyring.verify_signature(ident.keys[sender], signature, signed_message(
            ident.game_id, first, last, sender, c["command"], signed_head(ident, before),
            signed_head(ident, rows[-1][9]))):
        raise TurnRefused(f"the turn file does not verify: table commands, seq {first}: the signature of player "
                          f"{sender!r} does not match the command and its events")
    name = command.get("type", "?") if isinstance(command, dict) else "?"
    problems: list[str] = []
    ctx = _decide(game, game.host, ident, first, sender, command, c["command"], name,
                  lambda seq, message: problems.append(message))
    if ctx is not None and [r.hash for r in ctx.records] != [r[9] for r in rows]:
        made = [r.hash for r in ctx.records]
        seq = next(first + i for i in range(max(len(made), len(rows)))
                   if i >= len(made) or i >= len(rows) or made[i] != rows[i][9])
        stored = next((f"{r[1]} {r[8][:160]}" for r in rows if r[0] == seq), "nothing")
        problems.append(f"table events, seq {seq}: the file has {stored}; deciding {name} by {sender!r} (command "
                        f"at seq {first}) again gives other events")
    if problems:
        raise TurnRefused("the turn file does not verify: " + problems[0])
    # stored as decided here (the same hashes): nothing of the file's rows is taken on trust
    decided = [(r.seq, r.type, r.version, r.actor, r.turn, r.impulse, r.step, r.cmd, canonical_json(r.data), r.hash)
               for r in ctx.records]
    game.store.append(decided, expect_head=(first - 1, before), command=(first, last, sender, c["command"], signature))
    game._last_hash = rows[-1][9]


def _new_commands(store, body: dict) -> tuple[list[dict], tuple[int, str]]:
    """The file's commands this save does not have yet, and where the file ends (seq, head).
    A file may start before this save's end (sent again, or sent twice without an answer
    between) if what it shares with the save is the same; it must reach beyond it."""
    head_seq, head = store.last()
    from_seq, from_head = body["from"]
    row = store.conn.execute("SELECT hash FROM events WHERE seq=?", (from_seq,)).fetchone()
    if row is None or bytes(row[0]).hex() != from_head:
        raise TurnRefused(f"the turn file does not extend this save: it starts after seq {from_seq}, this save "
                          + (f"ends at seq {head_seq}" if row is None else f"has another event at seq {from_seq}"))
    commands = body.get("commands") or []
    stored = {c[0]: c for c in store.commands() if c[0] > from_seq}
    for c in commands:
        if c["first"] <= head_seq:
            mine = stored.get(c["first"])
            if mine is None or (mine[1], mine[2], bytes(mine[4]).hex()) != (c["last"], c["player"], c["signature"]):
                raise TurnRefused(f"the turn file does not extend this save: at seq {c['first']} it has another "
                                  "command than this save (another branch of the game)")
    new = [c for c in commands if c["first"] > head_seq]
    if new and new[0]["first"] != head_seq + 1:
        raise TurnRefused(f"the turn file does not extend this save: its new commands start at seq {new[0]['first']}, "
                          f"this save ends at seq {head_seq}")
    end = (new[-1]["last"], new[-1]["events"][-1][9]) if new else (head_seq, head.hex())
    if not new and commands and commands[-1]["last"] != head_seq:
        return [], (commands[-1]["last"], commands[-1]["events"][-1][9])  # an old file: its declaration is stale
    return new, end


def _checked_dice(ident, recs: dict[int, dict], body: dict, commands: list[dict], sender: str, me: str,
                  end: tuple[int, str], head_seq: int) -> dict[int, dict]:
    """The roll records of this save with the turn file's added, each checked against what this
    save declared and granted; a false one refused with the seq."""
    game_id, keys = ident.game_id, ident.keys
    merged = {seq: dict(rec) for seq, rec in recs.items()}
    firsts = {c["first"]: c for c in commands}

    def reused(rec: dict) -> None:
        for seq, other in merged.items():
            if seq != rec["seq"] and (other.get("nonce") == rec.get("nonce") and "nonce" in rec
                                      or other.get("commitment") == rec.get("commitment")):
                same = "dice nonce" if other.get("nonce") == rec.get("nonce") else "roll commitment"
                raise TurnRefused(f"seq {rec['seq']}: the {same} was used before, at seq {seq} (a reused {same})")

    def signed(rec: dict) -> None:
        why = pbem_dice.record_problem(game_id, keys, rec, need_all=False)
        if why:
            raise TurnRefused(why)

    for rec in body.get("rolls") or []:
        seq = rec.get("seq")
        if seq <= end[0] and seq not in firsts and merged.get(seq) == rec:
            continue  # a command this save has already, with the same record
        cmd = firsts.get(seq)
        if cmd is None or cmd["player"] != rec.get("player") or cmd["command"] != rec.get("command"):
            raise TurnRefused(f"seq {seq}: the roll record is not of a command of this turn file")
        mine = merged.get(seq)
        if mine is None or mine.get("head") != rec.get("head"):
            raise TurnRefused(f"seq {seq}: {sender}'s roll here was never declared to {me} (no nonce of {me}'s)")
        if mine["commitment"] != rec.get("commitment") or mine["command"] != rec["command"]:
            raise TurnRefused(f"seq {seq}: the roll is not the one {sender} declared to {me} (a second declaration "
                              "at the same place: a re-roll)")
        if mine.get("nonce") != rec.get("nonce"):
            raise TurnRefused(f"seq {seq}: the dice nonce is not the one {me} gave for this roll")
        if "secret" not in rec or check_reveal(rec["commitment"], bytes.fromhex(rec["secret"]), game_id, seq):
            raise TurnRefused(f"seq {seq}: the revealed roll secret does not match {sender}'s commitment")
        reused(rec)
        signed(rec)
        merged[seq] = dict(rec)
    declared, nonce = body.get("declared"), body.get("nonce")
    if declared is not None and declared.get("seq", 0) <= head_seq:  # an old file's: this save went past it
        old = merged.get(declared.get("seq"))
        if old is None or old.get("commitment") != declared.get("commitment"):
            raise TurnRefused(f"seq {declared.get('seq')}: the turn file declares a roll where this save has "
                              "another command already")
        declared = None
    if declared is not None:
        seq = declared.get("seq")
        if declared.get("player") != sender or seq != end[0] + 1 or declared.get("head") != end[1]:
            raise TurnRefused(f"seq {seq}: the declared roll is not {sender}'s at the end of this turn file")
        old = merged.get(seq)
        if old is not None and old["head"] == declared["head"] and (
                old["commitment"] != declared.get("commitment") or old["command"] != declared.get("command")):
            raise TurnRefused(f"seq {seq}: {sender} declared another roll here before ({pbem_dice.command_type(old)}): "
                              "a second declaration at the same place is refused (it would roll again)")
        if "secret" in declared:
            raise TurnRefused(f"seq {seq}: the declared roll reveals its secret before the nonce")
        reused(declared)
        signed(declared)
        merged[seq] = {**declared, **(old if old is not None and old["head"] == declared["head"] else {})}
    if nonce is not None:
        seq = nonce.get("seq")
        mine = merged.get(seq)
        if nonce.get("player") != me or mine is None or any(mine.get(k) != nonce.get(k) for k in ("head", "command", "commitment")):
            raise TurnRefused(f"seq {seq}: the dice nonce answers a declaration this save does not have")
        if "nonce" in mine and mine["nonce"] != nonce.get("nonce"):
            raise TurnRefused(f"seq {seq}: {sender} gave another dice nonce for this roll before (a re-roll)")
        if "secret" in nonce:
            raise TurnRefused(f"seq {seq}: the nonce's record carries a roll secret")
        reused(nonce)
        signed(nonce)
        merged[seq] = {**mine, "nonce": nonce["nonce"], "grant_sig": nonce["grant_sig"]}
    return merged


def _roll_granted(game, player: str, out: Imported) -> None:
    """Decide ``player``'s declared command now that the other player's nonce is here."""
    rec = pbem_dice.pending(game)
    if rec is None or rec["player"] != player or "nonce" not in rec:
        return
    rec = pbem_dice.reveal(game, rec)
    outcome = game.submit(json.loads(rec["command"]), player=player)
    if not outcome.accepted or not outcome.events:
        raise TurnRefused(f"seq {rec['seq']}: {player}'s declared {pbem_dice.command_type(rec)} could not be rolled: "
                          + (outcome.reason or "it made no events"))
    out.rolled.append(f"{pbem_dice.command_type(rec)} at seq {rec['seq']}")


def write_turn(turn: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(turn, indent=1))


def read_turn(path: str | Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise TurnRefused(f"{path}: cannot read the turn file ({exc})") from None
