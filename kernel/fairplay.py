"""A game's identity and the signing of its log (docs/FAIRPLAY.md, docs/ARCHITECTURE.md).

The identity (game id, dice mode, dice commitment, players' public keys) is in the first
event, ``GameStarted``, so the chain covers it; ``meta`` repeats it for tools but is never
trusted for it.  Every command is stored with its player's Ed25519 signature over the
command, the head it was decided on and the head its events made; snapshots and meta are
signed by the player who wrote them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass, field

from . import keys as keyring
from . import receipts
from .dice import HostDice
from .pbem_dice import JOINT, JointSource
from .errors import Rejected, WifError
from .events import meta_message, signed_message, snapshot_message
from .lab import SeededDice

SEEDED, HOST = "seeded", "host"


@dataclass
class Identity:
    game_id: str = ""
    dice: str = SEEDED
    dice_commitment: str = ""
    seed: int | None = None
    keys: dict[str, str] = field(default_factory=dict)  # player -> public key (hex)
    head_salt: str = ""  # signed_head; "" in games made before it (their heads signed bare)

    @property
    def signed(self) -> bool:
        return bool(self.keys)

    @property
    def fair(self) -> bool:
        return self.dice != SEEDED

    def describe(self, branch: tuple[int, str] | None = None) -> str:
        if branch is not None:
            return f"forked at seq {branch[0]}: its later dice are a what-if of that fork (not the game's)"
        if self.dice == SEEDED:
            return f"seeded (not fair): seed {self.seed}, anyone holding the save can foresee every die"
        if self.dice == JOINT:
            return ("fair (PBEM): each roll needs the roller's secret, committed before the other player's "
                    "nonce exists (kernel/pbem_dice.py)")
        return "fair: dice from the host key of the machine that started the game"

    @classmethod
    def from_game_started(cls, data: dict) -> "Identity":
        return cls(data.get("game_id", ""), data.get("dice", SEEDED), data.get("dice_commitment", ""),
                   data.get("seed"), dict(data.get("keys") or {}), data.get("head_salt", ""))


def new_identity(players: list[str], seed: int | None, given_keys: dict[str, str] | None,
                 pbem: bool = False) -> tuple[Identity, bytes | None]:
    """A new game's identity, and its dice key when the dice are the host's.

    A player whose public key is not given gets (or has) a key pair in this machine's config
    dir: solitaire and hot seat; a PBEM game names the other player's public key, and its
    dice are the two players' joint ones (kernel/pbem_dice.py)."""
    given = dict(given_keys or {})
    if pbem and seed is not None:
        raise WifError("a PBEM game's dice come from both players (joint dice): it cannot be seeded")
    if pbem and len(players) != 2:
        raise WifError(f"a PBEM game is played by two players; {len(players)} are given ({', '.join(players)})")
    for player in given:
        if player not in players:
            raise WifError(f"a public key is given for {player!r}, who is not a player of this game ({', '.join(players)})")
    public = {p: given.get(p) or keyring.public_key_hex(p, create=True) for p in players}
    ident = Identity(uuid.uuid4().hex, SEEDED if seed is not None else JOINT if pbem else HOST, "", seed, public,
                     secrets.token_hex(16))
    game_key = None
    if ident.dice == HOST:
        game_key = keyring.game_dice_key(keyring.host_secret(), ident.game_id)
        ident.dice_commitment = keyring.dice_commitment(game_key)
    return ident, game_key


def local_dice_key(ident: Identity) -> bytes | None:
    """The game's dice key, when this machine's host secret is the one that made it."""
    if ident.dice != HOST:
        return None
    path = keyring.config_dir() / "host.secret"
    if not path.exists():
        return None
    key = keyring.game_dice_key(keyring.host_secret(), ident.game_id)
    return key if keyring.dice_commitment(key) == ident.dice_commitment else None


class NoDiceKey:
    """A host-dice game opened where its host key is not: any roll is refused, named."""

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        raise Rejected(f"this game's dice come from the host key of the machine that started it, which is not "
                       f"here ({keyring.config_dir()}); the roll for {purpose!r} cannot be made on this machine")


def dice_source(game, ctx):
    ident: Identity = game.identity
    if ident.dice == HOST:
        if not game.dice_key:
            return NoDiceKey()
        branch = game.dice_branch
        if branch is not None and ctx.first_seq > branch[0]:  # after a fork: the fork's own dice
            return HostDice(hmac.new(game.dice_key, b"wif fork\x00" + branch[1].encode(), hashlib.sha256).digest(),
                            ident.game_id, ctx.state)
        return HostDice(game.dice_key, ident.game_id, ctx.state)
    if ident.dice == JOINT:
        branch = game.dice_branch
        if branch is not None and ctx.first_seq > branch[0]:  # a fork of a PBEM game: a what-if, keyed by its salt
            return HostDice(hashlib.sha256(b"wif pbem fork\x00" + branch[1].encode()).digest(), ident.game_id, ctx.state)
        return JointSource(game, ctx)
    return SeededDice(ctx.rng)


# ---------------------------------------------------------------- forks and copies
def new_dice_salt() -> str:
    return secrets.token_hex(16)


def dice_branch(store) -> tuple[int, str] | None:
    """(fork seq, salt) of a forked game, whose dice after the fork are its own."""
    forked, salt = store.meta("forked_from"), store.meta("dice_salt")
    if isinstance(forked, dict) and isinstance(forked.get("seq"), int) and isinstance(salt, str) and salt.isalnum():
        return forked["seq"], salt
    return None


def _ledger(game) -> str:
    """Whose dice this machine has rolled: the game, or one fork of it."""
    return game.identity.game_id + (game.dice_branch[1] if game.dice_branch else "")


HOST_LEDGER = "host.dice"  # the host's own receipt of the dice it rolled for a game


def dice_rolled(game, records) -> None:
    """The host keeps a receipt each time it rolls for a game (at once, not every 2 s: a copy of
    the save played ahead must not be able to come back and roll the same places again)."""
    if game.identity.dice == HOST and game.dice_key and any(r.type == "DiceRolled" for r in records):
        receipts.record(_ledger(game), HOST_LEDGER, records[-1].seq, records[-1].hash)


def behind_the_dice(game) -> str | None:
    """Why this save may not roll on this machine: a copy of it rolled further here."""
    if game.identity.dice != HOST or not game.dice_key:
        return None
    why = receipts.problem(game.store, _ledger(game), HOST_LEDGER)
    return f"{why}; this machine rolled that game's dice further, so this copy is not played on (look at it only)" if why else None


def signing_player(state, actor: str, player: str | None) -> str:
    """Who signs a command for ``actor``: the player named, else the actor's controller."""
    if player is not None:
        return player
    k = state.kernel
    power = k.sides[actor][0] if actor in k.sides and k.sides[actor] else actor
    return k.controllers.get(power) or "solo"


class Signers:
    """The local players' keys a game signs with, loaded once each and checked against the
    keys the game recorded (a key made elsewhere cannot sign here)."""

    def __init__(self, ident: Identity):
        self.ident = ident
        self._cache: dict[str, keyring.Signer] = {}

    def get(self, player: str) -> keyring.Signer:
        found = self._cache.get(player)
        if found is not None:
            return found
        recorded = self.ident.keys.get(player)
        if recorded is None:
            raise Rejected(f"player {player!r} is not a player of this game (players: {', '.join(self.ident.keys)})")
        try:
            signer = keyring.signer(player)
        except keyring.KeyProblem as exc:
            raise Rejected(str(exc)) from None
        if signer.public_hex != recorded:
            raise Rejected(f"player {player!r}: the key on this machine ({keyring.key_path(player)}) is not the key "
                           "this game recorded for that player; only that player can sign their moves")
        self._cache[player] = signer
        return signer

    def any_local(self) -> keyring.Signer | None:
        """A local player's signer (for meta the game writes outside a command)."""
        for player in self.ident.keys:
            if keyring.has_key(player):
                try:
                    return self.get(player)
                except Rejected:
                    continue
        return None


def signed_head(ident: Identity, head: bytes) -> bytes:
    """A head as a player signs it: hashed with the game's salt.  A stored head chains on every
    event before it, hidden ones included, so a player shown it could test guesses of a hidden
    event against it (kernel/views.py); a server game's player signs its commands at another
    machine, which sees what it signs (app/net/server.py).  The salt is in the save (GameStarted,
    which no view shows it of), so anyone holding the save checks the signature as before."""
    if not ident.head_salt:
        return head
    return hashlib.sha256(b"wif signed head\x00" + bytes.fromhex(ident.head_salt) + head).digest()


def sign_command(signer: keyring.Signer, ident: Identity, first: int, last: int, command_json: str,
                 prev_head: bytes, new_head: bytes) -> bytes:
    return signer.sign(signed_message(ident.game_id, first, last, signer.player, command_json,
                                      signed_head(ident, prev_head), signed_head(ident, new_head)))


def sign_snapshot(signer: keyring.Signer, ident: Identity, seq: int, plugins_hash: str, head: bytes,
                  state_json: str) -> bytes:
    return signer.sign(snapshot_message(ident.game_id, seq, plugins_hash, signed_head(ident, head), state_json))


def meta_signer(game_id: str, signer: keyring.Signer):
    """The store's meta signer: signs the meta it holds whenever it writes meta."""
    def sign(meta: dict) -> dict:
        return {"player": signer.player, "signature": signer.sign(meta_message(game_id, meta)).hex()}
    return sign


def snapshot_problem(store, ident: Identity, verifier: keyring.Verifier, seq: int, plugins_hash: str,
                     state_json: str, player: str | None, signature: bytes | None) -> str | None:
    """Why a stored snapshot cannot be trusted (None: signed by a player over this log)."""
    if not ident.signed:
        return None
    row = store.conn.execute("SELECT hash FROM events WHERE seq=?", (seq,)).fetchone()
    if row is None:
        return "no event at its seq"
    if not verifier.ok(player or "", signature, snapshot_message(ident.game_id, seq, plugins_hash,
                                                                 signed_head(ident, row[0]), state_json)):
        return "its signature does not match (edited outside the game)"
    return None
