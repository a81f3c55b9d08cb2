"""Checking a save (``wif verify``): the chain and every command's signature, the signed
meta, the plugin set, every command re-decided against the rules, the snapshots, and the
receipt of the player verifying (docs/FAIRPLAY.md says what each catches)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from . import keys as keyring
from . import receipts
from .devsaves import changes_played_before
from .engine import apply_event, upcast
from .errors import EventDataError, PluginError, ReducerError, WifError
from .events import GENESIS_HASH, EventRecord, chain_hash, command_digest, command_link, meta_message, signed_message
from .fairplay import Identity, signed_head
from .game import Game
from .plugin_sets import compare_plugin_sets as _compare_plugin_sets
from .plugins import discover
from .redecide import redecide
from .state import GameState
from .store import EventStore


@dataclass
class VerifyReport:
    path: Path
    events: int = 0
    commands: int = 0  # signed commands whose signature was checked
    redecided: int = 0  # commands decided again, their events compared
    snapshots_checked: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None
    lab: bool = False  # a lab game (its first event says so): situations built by the rig
    dice: str = "seeded"  # how the game's dice are made (kernel/fairplay.py)
    dice_rederived: bool = False  # host dice recomputed from this machine's key
    signed: bool = False
    forked_at: int | None = None  # a fork's dice after this seq are its own (kernel/fairplay.py)
    snapshots_complete: bool = False  # re-decision met every snapshot (kernel/redecide.py)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def fairness(self) -> str:
        if self.dice == "seeded":
            return "seeded (not fair)"
        if self.forked_at is not None:
            return f"fair dice up to the fork at seq {self.forked_at}, a what-if of the fork after it (not fair)"
        if self.dice == "joint":  # kernel/pbem_dice.py: every die drawn again from its revealed record
            return "fair PBEM dice, each re-derived from the roller's revealed secret and the other player's nonce"
        return "fair dice, " + ("re-derived from this machine's host key" if self.dice_rederived
                                else "checked against the log (the host key is not on this machine)")

    def bad(self, seq: int | None, message: str) -> None:
        if seq is not None and self.first_bad_seq is None:
            self.first_bad_seq = seq
        self.problems.append(message)


def verify(path: str | Path, plugin_dirs: list[Path] | None = None, as_player: str | None = None) -> VerifyReport:
    path = Path(path)
    report = VerifyReport(path)
    store = EventStore.open(path, writable=False)
    signatures = None
    try:
        ident = _identity(store, report)
        if ident.signed and store.has_commands():
            big = store.command_count() >= PARALLEL_FROM
            signatures = Signatures(ident.keys, parallel=big)
            _check_signed_log(store, ident, report, signatures)
            if not big:
                signatures.collect(report, ident)
        else:
            _check_chain(store, report)
        _check_meta(store, ident, report)
        if as_player is not None:
            _check_player(store, ident, as_player, report)
        # The plugin set the game recorded against what is installed.
        # (a hot-reloaded edit since undone is a version the game was played under: devsaves.py)
        recorded, available = store.meta("plugins") or {}, discover(plugin_dirs).plugins
        reverted = changes_played_before(recorded, available, store.meta("plugin_history") or [])
        for p in _compare_plugin_sets({k: v for k, v in recorded.items() if k not in reverted}, available):
            report.bad(None, f"plugins: {p}")
        dev_modified = bool(store.meta("dev_modified"))
    finally:
        store.close()
    try:
        if report.problems:
            return report
        try:
            game = Game.open(path, read_only=True, plugin_dirs=plugin_dirs)
        except (WifError, PluginError) as exc:
            report.bad(None, str(exc))
            return report
        try:
            report.warnings.extend(game.store.warnings)
            report.forked_at = game.dice_branch[0] if game.dice_branch else None
            if ident.signed and game.store.has_commands():
                redecide(game, report, lenient=dev_modified)
            if not report.problems and not report.snapshots_complete:
                _check_events_and_snapshots(game, report)
        finally:
            game.close()
        return report
    finally:
        if signatures is not None:
            signatures.collect(report, ident)  # a big game's, checked meanwhile in a second process


def _identity(store: EventStore, report: VerifyReport) -> Identity:
    for rec in store.records(1, 1):
        if rec.type == "GameStarted" and isinstance(rec.data, dict):
            report.lab = bool(rec.data.get("lab"))
            ident = Identity.from_game_started(rec.data)
            report.dice, report.signed = ident.dice, ident.signed
            return ident
    return Identity()


def _check_chain(store: EventStore, report: VerifyReport) -> None:
    """An unsigned game (before signatures): the hash chain alone."""
    prev, expected = GENESIS_HASH, 1
    for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in store.rows():
        if seq != expected:
            report.bad(expected, f"seq {expected}: missing (next stored event is seq {seq})")
            break
        rec = EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, None)
        if chain_hash(prev, rec.header_json(), data) != hash_:
            report.bad(seq, f"seq {seq}: hash chain broken: the {type_} event was changed after it was written")
            break
        prev, expected = hash_, expected + 1
    report.events = expected - 1
    if report.signed:
        report.bad(None, "table commands: missing, yet the game's first event names its players' keys (the signed "
                         "commands were removed)")


PARALLEL_FROM = 5000  # commands: from here signatures are checked in a second process
_CHUNK = 5000


def _bad_signatures(keys: dict[str, str], items: list[tuple]) -> list[tuple[int, str]]:
    verifier = keyring.Verifier(keys)
    return [(first, player) for first, player, signature, message in items if not verifier.ok(player, signature, message)]


class Signatures:
    """The commands' signatures: checked at once in a small game; in a big one, in chunks by a
    second process while this one re-decides the commands (Ed25519 checks are a third of it)."""

    def __init__(self, keys: dict[str, str], parallel: bool):
        self.keys, self.items, self.futures, self.bad = keys, [], [], []
        self.pool = None
        if parallel:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))

    def add(self, first: int, player: str, signature: bytes, message: bytes) -> None:
        self.items.append((first, player, bytes(signature), message))
        if self.pool is not None and len(self.items) >= _CHUNK:
            self.futures.append(self.pool.submit(_bad_signatures, self.keys, self.items))
            self.items = []

    def collect(self, report: "VerifyReport", ident: Identity) -> None:
        bad = _bad_signatures(self.keys, self.items)
        self.items = []
        if self.pool is not None:
            for future in self.futures:
                bad.extend(future.result())
            self.pool.shutdown()
            self.pool, self.futures = None, []
        report.commands -= len(bad)
        for first, player in sorted(bad)[:1]:
            known = "" if player in ident.keys else f" (not a player of this game: {', '.join(ident.keys)})"
            report.bad(first, f"table commands, seq {first}: the signature of player {player!r}{known} does not "
                              "match the command and its events (written or changed without that player's key)")


def _check_signed_log(store: EventStore, ident: Identity, report: VerifyReport, signatures: Signatures) -> None:
    """Every event belongs to exactly one signed command, in order, and every signature holds
    over the command, the head before it and the head its events made (``signatures``)."""
    rows = iter(store.rows())
    prev, expected = GENESIS_HASH, 1
    forked = store.meta("forked_from")
    fork_seq = forked.get("seq") if isinstance(forked, dict) else None
    for first, last, player, command_json, signature in store.commands():
        if first != expected:
            report.bad(expected, f"table commands: the next command should start at seq {expected}, "
                                 f"the stored one starts at seq {first} (events without a signed command)")
            return
        head_before = prev
        prev = command_link(prev, command_digest(ident.game_id, first, player, command_json))
        cut = fork_seq is not None and first <= fork_seq < last  # a command ``wif fork`` cut short
        for seq in range(first, (fork_seq if cut else last) + 1):
            row = next(rows, None)
            if row is None:
                report.bad(seq, f"table events: the log ends at seq {seq - 1}, but the command at seq {first} "
                                f"made events up to seq {last} (events deleted from the end)")
                report.events = seq - 1
                return
            r_seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ = row
            if r_seq != seq:
                report.bad(seq, f"table events, seq {seq}: missing (next stored event is seq {r_seq})")
                return
            rec = EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, None)
            if cmd != first or chain_hash(prev, rec.header_json(), data) != hash_:
                report.bad(seq, f"table events, seq {seq}: hash chain broken: the {type_} event was changed after "
                                "it was written, or moved under another command")
                return
            prev = hash_
        if cut:
            report.warnings.append(f"table commands, seq {first}: the fork at seq {fork_seq} cut this command short; "
                                   f"its events {first}-{fork_seq} are chained, not signed or re-decided")
            expected = fork_seq + 1
            continue
        signatures.add(first, player, signature,
                       signed_message(ident.game_id, first, last, player, command_json,
                                      signed_head(ident, head_before), signed_head(ident, prev)))
        report.commands += 1
        expected = last + 1
    report.events = expected - 1
    extra = next(rows, None)
    if extra is not None:
        report.bad(extra[0], f"table events, seq {extra[0]}: no signed command made this {extra[1]} event "
                             "(appended outside the game)")


def _check_meta(store: EventStore, ident: Identity, report: VerifyReport) -> None:
    """The meta repeats the first event and the head, and is signed by a player of the game."""
    if not ident.signed:
        return
    meta = store.all_meta()
    for key, value in (("game_id", ident.game_id), ("dice", ident.dice), ("keys", ident.keys), ("seed", ident.seed)):
        if meta.get(key) != value:
            report.bad(None, f"table meta, key {key!r}: {meta.get(key)!r} differs from the game's first event "
                             f"(seq 1 says {value!r})")
    signed = meta.get("meta_signature") or {}
    try:
        signature = bytes.fromhex(signed.get("signature", ""))
    except (ValueError, AttributeError):
        signature = b""
    verifier = keyring.Verifier(ident.keys)
    if not verifier.ok(signed.get("player", "") if isinstance(signed, dict) else "", signature,
                       meta_message(ident.game_id, store.stored_meta())):
        report.bad(None, "table meta: its signature does not match (seed, plugins, plugin_history, dev_modified "
                         "or head edited outside the game)")
    head = meta.get("head")
    last_seq, last_hash = store.last()
    if head != [last_seq, last_hash.hex()]:
        said = f"seq {head[0]}" if isinstance(head, list) and head else "nothing"
        report.bad(last_seq, f"table meta, key 'head': the log ends at seq {last_seq}, the signed head says {said} "
                             "(events deleted from the end, or the log replaced)")


def _check_player(store: EventStore, ident: Identity, player: str, report: VerifyReport) -> None:
    """Verifying as a player: that player's key is the one the game recorded, and the log
    extends the player's receipt (kernel/receipts.py)."""
    try:
        mine = keyring.public_key_hex(player)
    except keyring.KeyProblem as exc:
        report.bad(None, str(exc))
        return
    if ident.keys.get(player) != mine:
        report.bad(None, f"player {player!r}: this game does not record your key (it names "
                         f"{', '.join(ident.keys) or 'no keys'}); it is not a game you signed")
        return
    why = receipts.problem(store, ident.game_id, player)
    if why:
        report.bad(None, why)


def _check_events_and_snapshots(game: Game, report: VerifyReport) -> None:
    """Every event's data against its model; every snapshot signed and equal to the fold."""
    host = game.host
    snaps = {}
    for seq, h, js, player, signature in game.store.snapshot_rows():
        if h != game.plugins_hash:
            continue
        why = game._snapshot_problem(seq, js, player, signature)
        if why:
            report.bad(seq, f"table snapshots, seq {seq}: {why}")
            return
        snaps[seq] = js
    state = GameState.empty(host.state_models)
    for rec in game.store.records():
        try:
            upcast(host, rec)
            host.events[rec.type].model.model_validate(rec.data)
            apply_event(host, state, rec)
        except ValidationError as exc:
            report.bad(rec.seq, f"seq {rec.seq}: {rec.type} data does not match its model: {exc.errors()[0]['msg']}")
            return
        except (EventDataError, ReducerError) as exc:
            report.bad(rec.seq, str(exc))
            return
        if rec.seq in snaps:
            report.snapshots_checked += 1
            try:
                same = GameState.from_json(snaps[rec.seq], host.state_models).to_json() == state.to_json()
            except WifError:
                same = False
            if not same:
                report.bad(rec.seq, f"table snapshots, seq {rec.seq}: differs from the state the events give")
                return
    if not report.signed:
        report.events = state.kernel.seq
