"""The event store: one SQLite file per game (the save game *is* that file).

Tables: ``meta`` (key -> JSON), ``events`` (append-only, refused UPDATE/DELETE by
triggers), ``snapshots`` (state at a seq, zlib-compressed canonical JSON),
``_migrations`` (which numbered migrations ran).  The append path is one prepared INSERT
per event inside ``BEGIN IMMEDIATE … COMMIT`` in WAL mode; sqlite-utils serves the schema
and migrations, where its convenience costs nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import sqlite_utils

from .errors import EventDataError, GameMovedOn, SaveFileError
from .events import EventRecord, canonical_json
from .store_schema import NameCodes, coded_command, command_text, migrate

SCHEMA_VERSION = 3  # 3: the coded log (kernel/store_schema.py); 2: signed commands; 1: events
SQLITE_HEADER = b"SQLite format 3\x00"

_INSERT = "INSERT INTO event_log (seq, type, v, actor, turn, impulse, step, cmd_back, data, hash) VALUES (?,?,?,?,?,?,?,?,?,?)"
_SELECT = "SELECT seq, type, v, actor, turn, impulse, step, cmd_back, data, hash FROM event_log"
_SELECT_V2 = "SELECT seq, type, v, actor, turn, impulse, step, cmd, data, hash FROM events"  # a schema-2 save read-only


class EventStore:
    """Low-level access to one save file.  Knows rows, not rules."""

    def __init__(self, path: str | Path, conn: sqlite3.Connection):
        self.path = Path(path)
        self.conn = conn
        self.warnings: list[str] = []  # things skipped that cost nothing but time (a bad snapshot)
        # Signs the meta whenever it is written (kernel/fairplay.py meta_signer); None: unsigned.
        self.meta_signer: Callable[[dict], dict] | None = None
        # schema 3 stores the log coded (kernel/store_schema.py); an older save opened
        # read-only is read in its own layout
        self.coded = bool(conn.execute("SELECT 1 FROM sqlite_master WHERE name='event_log'").fetchone())
        self.codes = NameCodes(conn) if self.coded else None

    # ------------------------------------------------------------ open / create
    @classmethod
    def create(cls, path: str | Path, meta: dict[str, Any]) -> "EventStore":
        path = Path(path)
        if path.exists():
            raise SaveFileError(f"{path}: a file of that name exists already; choose another save name")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        db = sqlite_utils.Database(conn)
        conn.execute("BEGIN IMMEDIATE")
        try:
            migrate(db)
            store = cls(path, conn)
            store._write_meta({"schema_version": SCHEMA_VERSION, "created_at": time.time(), **meta})
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            conn.close()
            path.unlink(missing_ok=True)
            raise
        return store

    @classmethod
    def open(cls, path: str | Path, writable: bool = True) -> "EventStore":
        path = Path(path)
        if not path.exists():
            raise SaveFileError(f"{path}: no such save file")
        if path.is_dir():
            raise SaveFileError(f"{path}: a folder, not a save file")
        try:
            with open(path, "rb") as f:
                header = f.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise SaveFileError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
        if not header:
            raise SaveFileError(f"{path}: an empty file (0 bytes), not a World in Flames save")
        if header != SQLITE_HEADER:
            raise SaveFileError(f"{path}: not a World in Flames save (not an SQLite database)")
        try:
            conn = cls._connect(path)
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        except sqlite3.DatabaseError as exc:
            raise SaveFileError(f"{path}: the save file is damaged ({exc})") from exc
        if not {"meta", "events", "snapshots"} <= tables:
            conn.close()
            raise SaveFileError(f"{path}: not a World in Flames save (tables meta/events/snapshots missing)")
        store = cls(path, conn)
        try:
            version = store.meta("schema_version")
            # Counting reads every page of the events table: a truncated file fails here.
            store.conn.execute("SELECT COUNT(*), MAX(seq) FROM events").fetchone()
            check_meta_shapes(path, store.all_meta())
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise SaveFileError(f"{path}: the save file is damaged ({exc})") from exc
        except SaveFileError:
            conn.close()
            raise
        if not isinstance(version, int):
            conn.close()
            raise SaveFileError(f"{path}: not a World in Flames save (no schema version in meta)")
        if version > SCHEMA_VERSION:
            conn.close()
            raise SaveFileError(
                f"{path}: written by a newer version of the game (save schema {version}; "
                f"this build reads up to {SCHEMA_VERSION}); update the game to open it"
            )
        if version < SCHEMA_VERSION and writable:
            conn.execute("BEGIN IMMEDIATE")
            try:
                migrate(sqlite_utils.Database(conn))
                store.set_meta("schema_version", SCHEMA_VERSION, _in_tx=True)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                conn.close()
                raise
            store = cls(path, conn)
        return store

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        # isolation_level=None: autocommit, we issue BEGIN/COMMIT ourselves.
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ meta
    def meta(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return self._meta_value(key, row[0]) if row else default

    def all_meta(self) -> dict[str, Any]:
        return {k: self._meta_value(k, v) for k, v in self.conn.execute("SELECT key, value FROM meta")}

    def _meta_value(self, key: str, text: Any) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise SaveFileError(f"{self.path}: table meta, key {key!r}: the value is not JSON ({exc})") from None

    def _write_meta(self, values: dict[str, Any]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [(k, canonical_json(v)) for k, v in values.items()],
        )

    def stored_meta(self) -> dict[str, str]:
        """key -> the stored JSON text, undecoded (what the meta signature covers)."""
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    def _sign_meta(self, written: dict[str, Any]) -> None:
        if self.meta_signer is not None and "meta_signature" not in written:
            self._write_meta({"meta_signature": self.meta_signer(self.stored_meta())})

    def set_meta(self, key: str, value: Any, _in_tx: bool = False) -> None:
        if _in_tx:
            self._write_meta({key: value})
            self._sign_meta({key: value})
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self._write_meta({key: value})
            self._sign_meta({key: value})
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ events
    def append(self, rows: Iterable[tuple], snapshots: Iterable[tuple] = (),
               expect_head: tuple[int, bytes] | None = None, command: tuple | None = None) -> None:
        """Append one command's events (and any snapshots taken meanwhile) atomically.

        ``rows`` are tuples in column order (seq, type, v, actor, turn, impulse, step, cmd,
        data_json, hash).  ``expect_head``: the (seq, hash) of the last event the caller
        decided on; another process that appended meanwhile makes this refuse (GameMovedOn),
        checked under the write lock so two writers cannot both pass.  ``snapshots``: (seq,
        plugins_hash, state_json[, player, signature]).  ``command``: the signed command that
        made the rows (first_seq, last_seq, player, command_json, signature); the meta's
        ``head`` follows it, signed with the meta.
        """
        conn = self.conn
        if not self.coded:
            raise SaveFileError(f"{self.path}: a save of an older schema opened read-only cannot be written")
        codes, added = self.codes, []
        conn.execute("BEGIN IMMEDIATE")
        try:
            if expect_head is not None and self.last() != expect_head:
                seq = self.last()[0]
                raise GameMovedOn(f"the game moved on: refresh (another player or process stored event {seq}; "
                                  f"this command was decided after event {expect_head[0]})")
            conn.executemany(_INSERT, [
                (seq, codes.id(type_, added), v, codes.id(actor, added), turn, impulse, codes.id(step, added),
                 seq - cmd, data, hash_)
                for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in rows])
            if command is not None:
                self._insert_commands([command], added)
            for seq, plugins_hash, state_json, *signed in snapshots:
                player, signature = signed if signed else (None, None)
                conn.execute(
                    "INSERT OR REPLACE INTO snapshots (seq, plugins_hash, state, player, signature) VALUES (?,?,?,?,?)",
                    (seq, plugins_hash, zlib.compress(state_json.encode(), 6), player, signature),
                )
            if command is not None and self.meta_signer is not None:
                head = self.last()
                self.set_meta("head", [head[0], head[1].hex()], _in_tx=True)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            codes.forget(added)
            raise

    def _insert_commands(self, commands: Iterable[tuple], added: list[str]) -> None:
        """(first_seq, last_seq, player, command_json, signature) rows, coded (store_schema.py)."""
        self.conn.executemany("INSERT INTO command_log (first_seq, more, player, type, actor, command, signature) "
                              "VALUES (?,?,?,?,?,?,?)", [coded_command(self.codes, c, added) for c in commands])

    def copy_commands(self, commands: Iterable[tuple]) -> None:
        """Signed commands taken whole from another save (a fork), in one transaction."""
        added: list[str] = []
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self._insert_commands(commands, added)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            self.codes.forget(added)
            raise

    def last(self) -> tuple[int, bytes]:
        table = "event_log" if self.coded else "events"
        row = self.conn.execute(f"SELECT seq, hash FROM {table} ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, b"\x00" * 32)

    def rows(self, from_seq: int = 1, to_seq: int | None = None) -> Iterator[tuple]:
        """Raw rows in seq order (seq, type, v, actor, turn, impulse, step, cmd, data, hash)."""
        query = _SELECT if self.coded else _SELECT_V2
        if to_seq is None:
            cursor = self.conn.execute(query + " WHERE seq >= ? ORDER BY seq", (from_seq,))
        else:
            cursor = self.conn.execute(query + " WHERE seq >= ? AND seq <= ? ORDER BY seq", (from_seq, to_seq))
        return self._decoded(cursor) if self.coded else cursor

    def _decoded(self, cursor) -> Iterator[tuple]:
        """Coded rows with their names put back; every row of a type, actor or step shares
        one string (less to allocate than the text columns were)."""
        codes = self.codes
        names = codes.names
        for seq, type_, v, actor, turn, impulse, step, back, data, hash_ in cursor:
            try:
                yield seq, names[type_], v, names[actor], turn, impulse, names[step], seq - back, data, hash_
            except IndexError:  # a name another process added since
                yield (seq, codes.name(type_), v, codes.name(actor), turn, impulse, codes.name(step), seq - back,
                       data, hash_)
                names = codes.names

    def records(self, from_seq: int = 1, to_seq: int | None = None) -> Iterator[EventRecord]:
        loads = json.loads
        for seq, type_, v, actor, turn, impulse, step, cmd, data, hash_ in self.rows(from_seq, to_seq):
            try:
                data = loads(data)
            except (TypeError, ValueError, RecursionError) as exc:
                raise event_data_not_json(self.path, seq, exc) from None
            yield EventRecord(seq, type_, v, actor, turn, impulse, step, cmd, data, hash_)

    # ------------------------------------------------------------ snapshots
    def nearest_snapshot(self, seq: int, plugins_hash: str,
                         check: Callable[[int, str, str | None, bytes | None], str | None] | None = None,
                         ) -> tuple[int, str] | None:
        """The newest readable snapshot at or before ``seq``; an unreadable one is a cache
        entry lost, skipped with a warning (the events hold the truth).  ``check(seq, text,
        player, signature)`` says why a snapshot is not to be trusted (a bad signature)."""
        for snap_seq, blob, player, signature in self.conn.execute(
            f"SELECT seq, state, {self._signature_columns} FROM snapshots WHERE seq <= ? AND plugins_hash = ? "
            "ORDER BY seq DESC", (seq, plugins_hash),
        ):
            text = self._snapshot_text(snap_seq, blob)
            if text is None:
                continue
            why = check(snap_seq, text, player, signature) if check is not None else None
            if why is None:
                return snap_seq, text
            self.bad_snapshot(snap_seq, why)
        return None

    def snapshot_rows(self) -> Iterator[tuple[int, str, str, str | None, bytes | None]]:
        """(seq, plugins_hash, state_json, player, signature) of every readable snapshot."""
        for seq, plugins_hash, blob, player, signature in self.conn.execute(
            f"SELECT seq, plugins_hash, state, {self._signature_columns} FROM snapshots ORDER BY seq"
        ):
            text = self._snapshot_text(seq, blob)
            if text is not None:
                yield seq, plugins_hash, text, player, signature

    @property
    def _signature_columns(self) -> str:
        """A save from before migration 2 opened read-only has no snapshot signatures."""
        columns = {r[1] for r in self.conn.execute("PRAGMA table_info(snapshots)")}
        return "player, signature" if "signature" in columns else "NULL, NULL"

    def has_commands(self) -> bool:
        return bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' "
                                      "AND name IN ('commands', 'command_log')").fetchone())

    def command_count(self) -> int:
        return self.conn.execute(f"SELECT COUNT(*) FROM {'command_log' if self.coded else 'commands'}").fetchone()[0]

    # ------------------------------------------------------------ commands
    def commands(self, from_seq: int = 1) -> Iterator[tuple[int, int, str, str, bytes]]:
        """(first_seq, last_seq, player, command_json, signature) in order; the JSON is the
        command's canonical JSON, as signed."""
        if not self.coded:
            return self.conn.execute("SELECT first_seq, last_seq, player, command, signature FROM commands "
                                     "WHERE first_seq >= ? ORDER BY first_seq", (from_seq,))
        return self._commands(from_seq)

    def _commands(self, from_seq: int) -> Iterator[tuple[int, int, str, str, bytes]]:
        name = self.codes.name
        for first, more, player, type_, actor, stored, signature in self.conn.execute(
            "SELECT first_seq, more, player, type, actor, command, signature FROM command_log "
            "WHERE first_seq >= ? ORDER BY first_seq", (from_seq,)
        ):
            try:
                text = stored if type_ is None else command_text(name(type_), name(actor), stored)
            except (ValueError, TypeError, RecursionError) as exc:
                raise SaveFileError(f"{self.path}: table commands, seq {first}: the command is not JSON ({exc})") from None
            yield first, first + more, name(player), text, signature

    def snapshots(self) -> Iterator[tuple[int, str, str]]:
        for seq, plugins_hash, blob in self.conn.execute(
            "SELECT seq, plugins_hash, state FROM snapshots ORDER BY seq"
        ):
            text = self._snapshot_text(seq, blob)
            if text is not None:
                yield seq, plugins_hash, text

    def _snapshot_text(self, seq: int, blob: Any) -> str | None:
        try:
            return zlib.decompress(blob).decode()
        except (zlib.error, TypeError, UnicodeDecodeError) as exc:
            self.bad_snapshot(seq, f"not zlib-compressed text ({exc})")
            return None

    def bad_snapshot(self, seq: int, why: str) -> None:
        note = f"{self.path}: table snapshots, seq {seq}: {why}; ignored, the state is replayed from the events"
        if note not in self.warnings:
            self.warnings.append(note)

    def snapshot_seqs(self, plugins_hash: str) -> list[int]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT seq FROM snapshots WHERE plugins_hash=? ORDER BY seq", (plugins_hash,)
            )
        ]


def event_data_not_json(path: Path, seq: int, exc: BaseException) -> EventDataError:
    return EventDataError(f"{path}: table events, seq {seq}: the data is not JSON ({exc})", seq)


# What each meta key the game reads must be; a wrong shape is named, not a traceback later.
META_SHAPES: dict[str, tuple[type, ...]] = {
    "schema_version": (int,), "seed": (int,), "scenario": (str,), "plugins": (dict,), "options": (dict,),
    "players": (dict,), "dev_modified": (bool,), "plugin_history": (list,), "created_at": (int, float),
}


def check_meta_shapes(path: Path, meta: dict[str, Any]) -> None:
    for key, types in META_SHAPES.items():
        if key in meta and (not isinstance(meta[key], types) or (types == (int,) and isinstance(meta[key], bool))):
            wanted = " or ".join(_JSON_NAMES[t] for t in types)
            raise SaveFileError(f"{path}: table meta, key {key!r}: should be {wanted}, is "
                                f"{_JSON_NAMES.get(type(meta[key]), type(meta[key]).__name__)}")
    for plugin_id, record in (meta.get("plugins") or {}).items():
        if not isinstance(record, dict):
            raise SaveFileError(f"{path}: table meta, key 'plugins', plugin {plugin_id!r}: should be an object")
    for n, change in enumerate(meta.get("plugin_history") or []):
        if not isinstance(change, dict):
            raise SaveFileError(f"{path}: table meta, key 'plugin_history', entry {n}: should be an object")


_JSON_NAMES = {int: "a number", float: "a number", str: "a string", dict: "an object", list: "a list",
               bool: "true or false", type(None): "null"}
