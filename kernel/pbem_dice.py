"""PBEM dice (docs/FAIRPLAY.md "The dice"; issue #13 item 1, issue #15 item 4): a roll nobody
can foresee or roll again, made by the two players of an e-mail game without a third party.

A command that rolls in a ``joint`` game is decided in two halves, one turn file apart:

1. **Declared.**  The roller submits it; the first die it asks for finds no contribution of
   the other player, so ``JointSource`` raises ``AwaitingDice`` and the game keeps a
   *declaration* instead of events: the command, the head it is decided on (seq and hash), and
   a commitment to the roller's secret for that place (``kernel/dice.commit``), all signed by
   the roller.  The roller cannot compute any die of it: the other contribution does not exist.
2. **Granted.**  The other player's export answers each declaration he has with a nonce,
   signed over the declaration (he sees the command, not the secret behind the commitment).
   The nonce is derived from his host secret and the declaration, so exporting again (or from
   a restored save) gives the same nonce: one declaration, one nonce.
3. **Rolled.**  Importing that grant, the roller's machine reveals the secret (derived from his
   host secret and the place, so it is the same however often he declares there) and decides
   the command: every die of it is ``JointDice(secret, nonce)`` (HMAC over the game id, the
   die's seq, purpose, faces).  The record, with the secret, travels with the events; the
   other player's import checks it opens the commitment, that the nonce is his, and ``wif
   verify`` re-derives every die from it.

Records live in the save's signed meta under ``pbem_dice`` (seq -> record); each carries its
own two signatures, so the meta signer cannot forge one.  While a declaration waits, nothing
else is decided in the game (``refusal``): its head must stay the one it was declared on.
"""

from __future__ import annotations

import hashlib
import hmac
import json

from . import keys as keyring
from .dice import DiceMismatch, JointDice, check_reveal, commit
from .errors import Rejected, WifError
from .events import canonical_json, command_digest

JOINT = "joint"
META_KEY = "pbem_dice"


class AwaitingDice(Rejected):
    """A roll whose contributions are not all here yet (the command waits, it is not refused)."""

    def __init__(self, message: str, seq: int):
        super().__init__(message)
        self.seq = seq


# ---------------------------------------------------------------- the signed messages
def declaration_message(game_id: str, rec: dict) -> bytes:
    return canonical_json(["wif pbem declaration", game_id, rec["seq"], rec["head"], rec["player"],
                           rec["command"], rec["commitment"]]).encode()


def grant_message(game_id: str, rec: dict) -> bytes:
    return canonical_json(["wif pbem nonce", game_id, rec["seq"], rec["head"], rec["player"], rec["command"],
                           rec["commitment"], rec["nonce"]]).encode()


def _derived(label: str, *parts) -> bytes:
    """A secret of this machine's for one place of one game: HMAC of the host secret (never
    stored, never the same for another place or game, the same every time it is asked for)."""
    return hmac.new(keyring.host_secret(), canonical_json([label, *parts]).encode(), hashlib.sha256).digest()


def roll_secret(game_id: str, seq: int, head: str) -> bytes:
    return _derived("wif pbem roll secret", game_id, seq, head)


def other_player(keys: dict[str, str], player: str) -> str:
    others = [p for p in keys if p != player]
    if len(others) != 1:
        raise WifError(f"a PBEM game has two players; this one has {', '.join(keys) or 'none'}")
    return others[0]


def command_type(rec: dict) -> str:
    try:
        return str(json.loads(rec["command"]).get("type", "?"))
    except (ValueError, AttributeError):
        return "?"


# ---------------------------------------------------------------- the records in a save
def records(store) -> dict[int, dict]:
    raw = store.meta(META_KEY) or {}
    if not isinstance(raw, dict):
        raise WifError(f"{store.path}: table meta, key {META_KEY!r}: not a map of seq to roll record")
    return {int(seq): dict(rec) for seq, rec in raw.items() if str(seq).isdigit() and isinstance(rec, dict)}


def record_at(store, seq: int) -> dict | None:
    """The record of one seq, read by SQLite's JSON functions (``pending`` runs on every submit
    and choices of a PBEM game: parsing every record each time cost milliseconds)."""
    row = store.conn.execute("SELECT json_extract(value, ?) FROM meta WHERE key=?", (f'$."{int(seq)}"', META_KEY)).fetchone()
    if row is None or row[0] is None:
        return None
    try:
        rec = json.loads(row[0])
    except (TypeError, ValueError):
        return None
    return rec if isinstance(rec, dict) else None


def save_records(store, recs: dict[int, dict]) -> None:
    store.set_meta(META_KEY, {str(seq): recs[seq] for seq in sorted(recs)})


def record_problem(game_id: str, keys: dict[str, str], rec: dict, need_all: bool = True) -> str | None:
    """Why a roll record cannot be trusted (None: its signatures hold and its secret opens its
    commitment).  ``need_all``: a record a die is drawn from (nonce and secret both there)."""
    seq = rec.get("seq")
    try:
        player = rec["player"]
        if player not in keys:
            return f"seq {seq}: the roll is declared by {player!r}, not a player of this game"
        if not keyring.verify_signature(keys[player], bytes.fromhex(rec["declared_sig"]), declaration_message(game_id, rec)):
            return f"seq {seq}: the roll's declaration is not signed by {player} (changed after he made it)"
        if "nonce" in rec or need_all:
            granter = other_player(keys, player)
            if "nonce" not in rec:
                return f"seq {seq}: the roll has no dice nonce of {granter}"
            if not keyring.verify_signature(keys[granter], bytes.fromhex(rec["grant_sig"]), grant_message(game_id, rec)):
                return f"seq {seq}: the roll's dice nonce is not signed by {granter} (not the nonce he gave)"
        if "secret" in rec or need_all:
            if "secret" not in rec:
                return f"seq {seq}: {player}'s roll secret is not revealed"
            return check_reveal(rec["commitment"], bytes.fromhex(rec["secret"]), game_id, seq)
    except (KeyError, TypeError, ValueError) as exc:
        return f"seq {seq}: the roll record is malformed ({exc.__class__.__name__}: {exc})"
    return None


def pending(game) -> dict | None:
    """The declaration the game waits on: one made at its present head, not decided yet."""
    if game.identity.dice != JOINT:
        return None
    last_seq, last_hash = game.store.last()
    rec = record_at(game.store, last_seq + 1)
    return rec if rec is not None and rec.get("head") == last_hash.hex() else None


def waiting_note(game, rec: dict | None = None) -> str | None:
    """What the game waits for, for a player to read (``wif choices``, the status)."""
    rec = rec or pending(game)
    if rec is None:
        return None
    roller = rec["player"]
    granter = other_player(game.identity.keys, roller)
    what = f"{roller}'s {command_type(rec)} at seq {rec['seq']}"
    if "nonce" not in rec:
        return (f"waiting for {granter}'s dice nonce for {what} (send {granter} the turn file: "
                f"wif pbem export --as {roller}; {granter} answers with his: wif pbem export --as {granter})")
    return (f"waiting for {roller} to roll {what}: {granter}'s nonce is given (send {roller} the turn file: "
            f"wif pbem import on {roller}'s machine rolls it)")


def refusal(game, command: dict, player: str) -> str | None:
    """Why nothing but the declared command may be decided while a roll waits."""
    rec = pending(game)
    if rec is None or (rec["command"] == canonical_json(command) and rec["player"] == player):
        return None
    return f"{waiting_note(game, rec)}; nothing else is decided before it"


# ---------------------------------------------------------------- the dice source
class JointSource:
    """The dice of one command of a joint game: from its roll record, or it waits."""

    def __init__(self, game, ctx):
        self.game, self.ctx = game, ctx
        self._dice: JointDice | None = None

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        if self._dice is None:
            self._dice = self._joint_dice(purpose)
        return self._dice.draw(purpose, faces, count)

    def _joint_dice(self, purpose: str) -> JointDice:
        game, ctx = self.game, self.ctx
        ident, seq = game.identity, ctx.first_seq
        rec = record_at(game.store, seq)
        if (rec is None or rec.get("seq") != seq or rec.get("head") != ctx.decided_after.hex()
                or command_digest(ident.game_id, seq, rec.get("player", ""), rec.get("command", "")) != ctx.command_digest):
            raise AwaitingDice(f"seq {seq}: the roll for {purpose!r} needs the roller's committed secret and the other "
                               "player's dice nonce (PBEM), which this save does not have for this command", seq)
        if "nonce" not in rec or "secret" not in rec:
            raise AwaitingDice(f"seq {seq}: {waiting_note(game, rec)}", seq)
        why = record_problem(ident.game_id, ident.keys, rec)
        if why:
            raise DiceMismatch(why)
        return JointDice(bytes.fromhex(rec["secret"]), bytes.fromhex(rec["nonce"]), ident.game_id, seq, ctx.state)


# ---------------------------------------------------------------- the two halves
def declare(game, command_json: str, player: str, seq: int) -> str:
    """Keep ``player``'s declaration of the command that waits for dice at ``seq``; the note
    saying what it waits for."""
    ident = game.identity
    last_seq, last_hash = game.store.last()
    if seq != last_seq + 1:
        raise WifError(f"seq {seq}: a roll is declared at the head of the log (seq {last_seq + 1})")
    recs = records(game.store)
    old = recs.get(seq)
    if old is not None and old.get("head") == last_hash.hex():
        if old["command"] == command_json and old["player"] == player:
            return waiting_note(game, old)
        if "nonce" in old:
            raise Rejected(f"seq {seq}: {old['player']}'s {command_type(old)} is declared here and its dice nonce given; "
                           "it is rolled as declared (a second declaration would roll again)")
    rec = {"seq": seq, "head": last_hash.hex(), "player": player, "command": command_json,
           "commitment": commit(roll_secret(ident.game_id, seq, last_hash.hex()), ident.game_id, seq)}
    rec["declared_sig"] = game.signers.get(player).sign(declaration_message(ident.game_id, rec)).hex()
    recs[seq] = rec
    save_records(game.store, recs)
    return waiting_note(game, rec)


def grant(game, player: str) -> dict | None:
    """``player``'s nonce for the other player's pending declaration (made once: the same
    declaration always gets the same nonce), kept in the save; None when none waits."""
    rec = pending(game)
    if rec is None or rec["player"] == player:
        return None
    if "nonce" not in rec:
        ident = game.identity
        if other_player(ident.keys, rec["player"]) != player:
            raise WifError(f"{player} is not the player who gives the nonce for seq {rec['seq']}")
        rec["nonce"] = _derived("wif pbem nonce", ident.game_id, rec["seq"], rec["head"], rec["commitment"]).hex()
        rec["grant_sig"] = game.signers.get(player).sign(grant_message(ident.game_id, rec)).hex()
        recs = records(game.store)
        recs[rec["seq"]] = rec
        save_records(game.store, recs)
    return rec


def reveal(game, rec: dict) -> dict:
    """The roller's secret for his granted declaration, written into the record."""
    ident = game.identity
    secret = roll_secret(ident.game_id, rec["seq"], rec["head"])
    why = check_reveal(rec["commitment"], secret, ident.game_id, rec["seq"])
    if why:
        raise WifError(f"{why}: this machine's host secret ({keyring.config_dir()}) is not the one that declared it")
    rec = {**rec, "secret": secret.hex()}
    recs = records(game.store)
    recs[rec["seq"]] = rec
    save_records(game.store, recs)
    return rec
