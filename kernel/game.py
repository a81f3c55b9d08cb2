"""A game: its save file, its plugins, its state, and the one way to change it (submit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from . import plugins as plugin_mod
from .decisions import SOLO, Decisions, Outcome  # noqa: F401  (Outcome and SOLO are the game's API)
from .engine import Context, SequenceIndex, apply_event, fold_rows, upcast, validate_command
from .errors import (
    EventDataError,
    PluginError,
    PluginSetMismatch,
    ReadOnlyGame,
    ReducerError,
    Rejected,
    SaveFileError,
    WifError,
)
from . import fairplay, keys as keyring, pbem_dice, receipts
from .events import EventRecord, canonical_json, command_digest
from .command_checks import check_allowed
from .devsaves import changes_played_before, record_reopened
from .fork import fork_game
from .genesis import controllers_of, first_event_sequence, game_started, genesis  # noqa: F401  (genesis: redecide's)
from .plugin_sets import compare_plugin_sets
from .plugins import PluginHost, PluginInfo, discover, plugin_set_hash, resolve
from .state import GameState, SnapshotError
from .store import EventStore
from .views import records_seen_by, state_seen_by

DEFAULT_SNAPSHOT_EVERY = 1000


class Game(Decisions):
    def __init__(self, store: EventStore, host: PluginHost, available: dict[str, PluginInfo],
                 read_only: bool = False, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY):
        self.store = store
        self.host = host
        self.available = available
        self.read_only = read_only
        self.snapshot_every = snapshot_every
        self.problems: list[str] = []  # why the game is read-only, for the player to read
        self.replay_error: WifError | None = None
        self.listeners: list[Callable[["Game", list[EventRecord]], None]] = []
        self.plugin_set = host.plugin_set()
        self.plugins_hash = plugin_set_hash(self.plugin_set)
        self.state = GameState.empty(host.state_models)
        self.sequence_index: SequenceIndex | None = None
        self._last_hash = b"\x00" * 32
        self._last_snapshot_seq = 0
        self.identity = fairplay.Identity()  # from GameStarted (chained), never from meta
        self.dice_key: bytes | None = None  # a host-dice game's key, when this machine holds it
        self.signers = fairplay.Signers(self.identity)
        self.verifier = keyring.Verifier({})
        self.receipts = receipts.Keeper("")
        self.dice_branch: tuple[int, str] | None = None  # a fork's own dice after its seq (fairplay.py)

    def _set_identity(self, ident: "fairplay.Identity", dice_key: bytes | None = None) -> None:
        self.identity, self.signers = ident, fairplay.Signers(ident)
        self.receipts = receipts.Keeper(ident.game_id)
        self.verifier = keyring.Verifier(ident.keys)
        self.dice_key = dice_key if dice_key is not None else fairplay.local_dice_key(ident)
        local = self.signers.any_local() if ident.signed else None
        self.store.meta_signer = fairplay.meta_signer(ident.game_id, local) if local else None
        self.dice_branch = fairplay.dice_branch(self.store)

    def dice_source(self, ctx: Context):
        """The source of this game's dice (kernel/fairplay.py: host key or seed)."""
        return fairplay.dice_source(self, ctx)

    # ------------------------------------------------------------ creating / opening
    @classmethod
    def new(cls, scenario: str, path: str | Path, seed: int | None = None, options: dict | None = None,
            players: dict[str, list[str]] | None = None, extra_plugins: list[str] | None = None,
            plugin_dirs: list[Path] | None = None, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
            lab: bool = False, player_keys: dict[str, str] | None = None, pbem: bool = False) -> "Game":
        """Start a new game of ``scenario`` in a new save file at ``path``.

        ``players`` maps a player name to the powers they control (default: one player,
        "solo", controls them all).  ``extra_plugins`` are optional rules or expansions.
        ``lab``: a lab game, whose rig commands build any situation (kernel/lab.py); its
        first event says so.  ``seed``: dice anyone can replay (tests, replays: marked
        "seeded (not fair)"); without it the dice come from this machine's host key.
        ``player_keys``: public keys of players whose key is not on this machine (PBEM).
        ``pbem``: a play-by-e-mail game of two players, its dice joint (kernel/pbem_dice.py).
        """
        discovery = discover(plugin_dirs)
        info = discovery.plugins.get(scenario)
        if info is None or info.manifest.kind != "scenario":
            known = sorted(i.id for i in discovery.plugins.values() if i.manifest.kind == "scenario")
            raise PluginError(f"no scenario {scenario!r} is installed; scenarios: {', '.join(known) or 'none'}")
        infos = resolve([scenario, *(extra_plugins or [])], discovery.plugins)
        host = PluginHost(infos)
        spec = host.scenarios.get(scenario)
        if spec is None:
            raise PluginError(f"plugin {scenario!r} is a scenario plugin but registers no scenario {scenario!r}")
        if spec.sequence not in host.sequences:
            raise PluginError(f"scenario {scenario!r} needs sequence {spec.sequence!r}, which no plugin registers")
        controllers = controllers_of(spec.sides, players)
        players = players or {SOLO: [p for ps in spec.sides.values() for p in ps]}
        for name in players:
            keyring.check_player_name(name)
        ident, dice_key = fairplay.new_identity(list(players), seed, player_keys, pbem)
        plugin_set = host.plugin_set()
        store = EventStore.create(path, {
            **({"seed": seed} if seed is not None else {}), "scenario": scenario, "plugins": plugin_set,
            "options": options or {}, "players": players, "dev_modified": False, "plugin_history": [],
            "game_id": ident.game_id, "dice": ident.dice, "keys": ident.keys,
        })
        game = cls(store, host, discovery.plugins, snapshot_every=snapshot_every)
        game.sequence_index = SequenceIndex(host.sequences[spec.sequence][0])
        game._set_identity(ident, dice_key)
        command = {"type": "NewGame", "scenario": scenario, "options": options or {}, "controllers": controllers,
                   "lab": lab, "seed": seed, "game_id": ident.game_id, "dice": ident.dice,
                   "dice_commitment": ident.dice_commitment, "keys": ident.keys, "head_salt": ident.head_salt}
        # decided as stored (canonical JSON, sorted keys): verify's re-decision then meets the
        # scenario's options in the same order
        command = json.loads(canonical_json(command))
        creator = next((p for p in players if keyring.has_key(p)), None)
        if creator is None:
            raise WifError("none of this game's players has a key on this machine: the one who starts it signs its first move")
        try:
            started = game._run(genesis(host, spec, command), actor="system", command=command, player=creator)
            receipts.record(ident.game_id, creator, started[-1].seq, started[-1].hash)
        except BaseException:
            game.close()
            Path(path).unlink(missing_ok=True)
            raise
        return game

    @classmethod
    def open(cls, path: str | Path, read_only: bool = False, plugin_dirs: list[Path] | None = None,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY, player: str | None = None) -> "Game":
        """Open a save.  Refuses if its plugins are missing or changed, unless read_only.
        ``player``: opened as that player, whose receipt the log must extend (kernel/receipts.py)."""
        store = EventStore.open(path, writable=not read_only)
        try:
            game = cls._open_store(store, read_only, plugin_dirs, snapshot_every)
        except BaseException:
            store.close()
            raise
        if player is not None and game.identity.signed:
            why = receipts.problem(store, game.identity.game_id, player)
            if why:
                game.close()
                raise SaveFileError(why)
            last_seq, last_hash = store.last()
            receipts.record(game.identity.game_id, player, last_seq, last_hash)
        return game

    @classmethod
    def _open_store(cls, store, read_only, plugin_dirs, snapshot_every) -> "Game":
        recorded: dict[str, dict] = store.meta("plugins") or {}
        discovery = discover(plugin_dirs)
        # a hot-reloaded edit undone with the window closed is no mismatch (kernel/devsaves.py)
        reverted = changes_played_before(recorded, discovery.plugins, store.meta("plugin_history") or [])
        problems = compare_plugin_sets({k: v for k, v in recorded.items() if k not in reverted}, discovery.plugins)
        if problems and not read_only:
            raise PluginSetMismatch(store.path, problems)
        wanted = [pid for pid in recorded if pid != plugin_mod.KERNEL_PLUGIN_ID and pid in discovery.plugins]
        try:
            infos = resolve(wanted, discovery.plugins)
        except PluginError as exc:
            if not read_only:
                raise
            problems.append(str(exc))
            infos = [discovery.plugins[p] for p in wanted]
        while True:
            try:
                host = PluginHost(infos)
                break
            except PluginError as exc:
                culprit = getattr(exc, "plugin_id", None)
                if not read_only or culprit is None or culprit not in {i.id for i in infos}:
                    raise
                # Read-only: show what the other plugins can show.
                problems.append(f"{exc} (left out)")
                infos = [i for i in infos if i.id != culprit]
        game = cls(store, host, discovery.plugins, read_only=read_only, snapshot_every=snapshot_every)
        game.problems = problems
        sequence = first_event_sequence(store)
        if sequence and sequence in host.sequences:
            game.sequence_index = SequenceIndex(host.sequences[sequence][0])
        started = game_started(store)
        if started is not None:
            game._set_identity(fairplay.Identity.from_game_started(started))
        game._rebuild()
        behind = fairplay.behind_the_dice(game) if not game.read_only else None
        if behind:  # a copy of the save played further on this machine: its dice are not rolled again
            game.read_only = True
            game.problems.append(behind)
        if reverted and not game.read_only:
            record_reopened(game, reverted)
        return game

    def close(self) -> None:
        if self.identity.signed:
            self.receipts.flush()
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def path(self) -> Path:
        return self.store.path

    # ------------------------------------------------------------ reading
    def _fresh_state(self) -> GameState:
        return GameState.empty(self.host.state_models)

    def _rebuild(self) -> None:
        """Fold the whole log (from the newest usable snapshot) into ``self.state``."""
        last_seq, last_hash = self.store.last()
        try:
            self.state = self.state_at(last_seq)
        except (ReducerError, EventDataError) as exc:
            self.replay_error = exc
            self.read_only = True
            self.problems.append(str(exc))
            bad = exc.seq or last_seq
            self.state = self.state_at(bad - 1)
        self._last_hash = last_hash
        snaps = self.store.snapshot_seqs(self.plugins_hash)
        self._last_snapshot_seq = snaps[-1] if snaps else 0

    def refresh(self) -> int:
        """Fold the events another process appended since this game last read the file
        (a second window, a script using ``wif submit``); returns how many."""
        last_seq, last_hash = self.store.last()
        if last_seq <= self.state.kernel.seq:
            return 0
        n = fold_rows(self.host, self.state, self.store.rows(self.state.kernel.seq + 1))
        self._last_hash = last_hash
        return n

    def state_at(self, seq: int) -> GameState:
        """The state after event ``seq``: the nearest snapshot, folded forward."""
        parsed: dict[int, GameState] = {}

        def problem(snap_seq, text, player, signature):  # a cache: a bad one is skipped, named
            try:
                parsed[snap_seq] = GameState.from_json(text, self.host.state_models)
            except SnapshotError as exc:
                return str(exc)
            return self._snapshot_problem(snap_seq, text, player, signature)

        snap = self.store.nearest_snapshot(seq, self.plugins_hash, problem)
        state = parsed[snap[0]] if snap is not None else None
        if state is not None:
            start = snap[0] + 1
        else:
            state = self._fresh_state()
            start = 1
        if seq >= start:
            fold_rows(self.host, state, self.store.rows(start, seq))
        return state

    def history(self, from_seq: int = 1, to_seq: int | None = None, player: str | None = None) -> list[EventRecord]:
        """The events as ``player`` sees them (kernel/views.py: no trace of what is hidden)."""
        return list(records_seen_by(self, from_seq, to_seq, player))

    def _snapshot_problem(self, seq, text, player, signature) -> str | None:
        return fairplay.snapshot_problem(self.store, self.identity, self.verifier, seq, self.plugins_hash,
                                         text, player, signature)

    def describe(self, rec: EventRecord, state: GameState | None = None) -> str:
        text = self.host.pm.hook.describe_event(event=rec, state=state or self.state)
        if text:
            return text
        fields = ", ".join(f"{k}={v}" for k, v in rec.data.items())
        return f"{rec.type}({fields})"

    def view(self, player: str | None) -> dict:
        """The state as ``player`` may see it (every player-facing read goes through here)."""
        return state_seen_by(self, player)

    def legal_commands(self) -> list[str]:
        seq = self.state.kernel.sequence
        if seq.finished or self.sequence_index is None or seq.current is None:
            return []
        spec = self.sequence_index.specs.get(seq.current)
        names = [c for c in (spec.commands if spec else ()) if c in self.host.commands]
        if seq.waiting:
            names.append("FinishStep")
        return names

    # ------------------------------------------------------------ the one way to change it
    def submit(self, command: dict[str, Any], player: str | None = SOLO) -> Outcome:
        """Decide a command.  Accepted: its events are stored and folded.  Rejected: a
        reason a player understands, and nothing stored."""
        if self.read_only:
            return Outcome(False, reason=f"{self.path} is open read-only: " + "; ".join(self.problems))
        try:
            entry, cmd = validate_command(self.host, command)
            self._check_allowed(entry, cmd, player)
            signing = fairplay.signing_player(self.state, cmd.actor, player)
            if self.identity.signed:
                self.signers.get(signing)  # a player without his key here is refused before deciding
            waits = pbem_dice.refusal(self, command, signing)  # a PBEM roll waits at the head
            if waits:
                raise Rejected(waits)
        except Rejected as exc:
            return Outcome(False, reason=str(exc))

        def handle(ctx: Context) -> None:
            try:
                entry.handler(ctx, cmd)
            except (Rejected, WifError):
                raise
            except Exception as exc:
                raise WifError(
                    f"plugin {entry.plugin!r}: handler for {type(cmd).__name__} raised "
                    f"{plugin_mod._where(exc)}"
                ) from exc

        try:
            records = self._run(handle, actor=cmd.actor, command=command, player=signing)
            if records and self.identity.signed:
                self.receipts.saw(signing, records[-1].seq, records[-1].hash)
                fairplay.dice_rolled(self, records)
        except pbem_dice.AwaitingDice as exc:  # declared: rolled when the other player's nonce comes
            return Outcome(True, reason=pbem_dice.declare(self, canonical_json(command), signing, exc.seq))
        except Rejected as exc:
            return Outcome(False, reason=str(exc))
        except WifError as exc:
            return Outcome(False, reason=str(exc))
        return Outcome(True, records)

    def _check_allowed(self, entry, cmd, player: str | None) -> None:
        check_allowed(self, entry, cmd, player)

    def _run(self, decide: Callable[[Context], None], actor: str, command: dict, player: str) -> list[EventRecord]:
        """Decide inside a context, then store everything it emitted, with the command signed
        by ``player`` (kernel/fairplay.py), in one transaction.

        If anything fails the state is rebuilt from the store, so nothing of the failed
        command remains anywhere."""
        ident = self.identity
        command_json = canonical_json(command)
        first = self.state.kernel.seq + 1
        digest = command_digest(ident.game_id, first, player, command_json) if ident.signed else None
        ctx = Context(self, actor=actor, command_digest=digest)
        try:
            decide(ctx)
            if not ctx.records:
                return []
            last = ctx.records[-1]
            snapshots = [(seq, self.plugins_hash, js) for seq, js in ctx.snapshots]
            if last.seq - self._last_snapshot_seq >= self.snapshot_every and (
                not snapshots or snapshots[-1][0] != last.seq
            ):
                snapshots.append((last.seq, self.plugins_hash, self.state.to_snapshot_json()))
            stored = None
            if ident.signed:
                signer = self.signers.get(player)
                signature = fairplay.sign_command(signer, ident, first, last.seq, command_json,
                                                  ctx.decided_after, last.hash)
                stored = (first, last.seq, player, command_json, signature)
                heads = {r.seq: r.hash for r in ctx.records}
                snapshots = [(seq, h, js, player, fairplay.sign_snapshot(signer, ident, seq, h, heads[seq], js))
                             for seq, h, js in snapshots]
            self.store.append(
                [
                    (r.seq, r.type, r.version, r.actor, r.turn, r.impulse, r.step, r.cmd,
                     canonical_json(r.data), r.hash)
                    for r in ctx.records
                ],
                snapshots,
                expect_head=(ctx.first_seq - 1, ctx.decided_after),
                command=stored,
            )
        except BaseException:
            self._rebuild()
            raise
        self._last_hash = last.hash
        if snapshots:
            self._last_snapshot_seq = snapshots[-1][0]
        for listener in list(self.listeners):
            listener(self, ctx.records)
        return ctx.records

    # ------------------------------------------------------------ branching
    def fork(self, seq: int, path: str | Path) -> "Game":
        """A new save holding this game's first ``seq`` events; the original is untouched."""
        return fork_game(self, seq, path)


_compare_plugin_sets = compare_plugin_sets  # the name app/net and verify import
