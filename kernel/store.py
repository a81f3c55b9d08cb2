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

SCHEMA_VERSION = 2
SQLITE_HEADER = b"SQLite format 3\x00"

# ---------------------------------------------------------------- migrations
# Numbered, applied in order, each recorded in _migrations (the llm habit).
MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = []
migration = MIGRATIONS.append


@migration
def m001_initial(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.execute(
        """CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            v INTEGER NOT NULL,
            actor TEXT NOT NULL,
            turn INTEGER NOT NULL,
            impulse INTEGER NOT NULL,
            step TEXT NOT NULL,
            cmd INTEGER NOT NULL,
            data TEXT NOT NULL,
            hash BLOB NOT NULL
        )"""
    )
    db["snapshots"].create(
        {"seq": int, "plugins_hash": str, "state": bytes},
        pk=("seq", "plugins_hash"),
        if_not_exists=True,
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END"
    )
    db.execute(
        "CREATE TRIGGER IF NOT EXISTS events_no_gap BEFORE INSERT ON events "
        "WHEN NEW.seq != (SELECT COALESCE(MAX(seq), 0) + 1 FROM events) "
        "BEGIN SELECT RAISE(ABORT, 'events must be appended with the next seq'); END"
    )


@migration
def m002_signed_commands(db: sqlite_utils.Database) -> None:
    """Every command with its player's signature (docs/FAIRPLAY.md); signed snapshots."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS commands (
            first_seq INTEGER PRIMARY KEY,
            last_seq INTEGER NOT NULL,
            player TEXT NOT NULL,
            command TEXT NOT NULL,
            signature BLOB NOT NULL
        )"""
    )
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"CREATE TRIGGER IF NOT EXISTS commands_no_{verb.lower()} BEFORE {verb} ON commands "
            f"BEGIN SELECT RAISE(ABORT, 'commands are append-only: {verb} refused'); END"
        )
    columns = {r[1] for r in db.execute("PRAGMA table_info(snapshots)")}
    if "player" not in columns:
        db.execute("ALTER TABLE snapshots ADD COLUMN player TEXT")
        db.execute("ALTER TABLE snapshots ADD COLUMN signature BLOB")


def _migrate(db: sqlite_utils.Database) -> None:
    db["_migrations"].create({"name": str, "applied_at": float}, pk="name", if_not_exists=True)
    applied = {row["name"] for row in db["_migrations"].rows}
    for step in MIGRATIONS:
        if step.__name__ not in applied:
            step(db)
            db["_migrations"].insert({"name": step.__name__, "applied_at": time.time()})


_INSERT = "INSERT INTO events (seq, type, v, actor, turn, impulse, step, cmd, data, hash) VALUES (?,?,?,?,?,?,?,?,?,?)"
_SELECT = "SELECT seq, type, v, actor, turn, impulse, step, cmd, data, hash FROM events"


class EventStore:
    """Low-level access to one save file.  Knows rows, not rules."""

    def __init__(self, path: str | Path, conn: sqlite3.Connection):
        self.path = Path(path)
        self.conn = conn
        self.warnings: list[str] = []  # things skipped that cost nothing but time (a bad snapshot)
        # Signs the meta whenever it is written (kernel/fairplay.py meta_signer); None: unsigned.
        self.meta_signer: Callable[[dict], dict] | None = None

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
            _migrate(db)
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
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
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
            _migrate(sqlite_utils.Database(conn))
            store.set_meta("schema_version", SCHEMA_VERSION, _in_tx=True)
            conn.execute("COMMIT")
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
        conn.execute("BEGIN IMMEDIATE")
        try:
            if expect_head is not None and self.last() != expect_head:
                seq = self.last()[0]
                raise GameMovedOn(f"the game moved on: refresh (another player or process stored event {seq}; "
                                  f"this command was decided after event {expect_head[0]})")
            conn.executemany(_INSERT, rows)
            if command is not None:
                conn.execute("INSERT INTO commands (first_seq, last_seq, player, command, signature) "
                             "VALUES (?,?,?,?,?)", command)
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
            raise

    def last(self) -> tuple[int, bytes]:
        row = self.conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], row[1]) if row else (0, b"\x00" * 32)

    def rows(self, from_seq: int = 1, to_seq: int | None = None) -> Iterator[tuple]:
        """Raw rows in seq order (seq, type, v, actor, turn, impulse, step, cmd, data, hash)."""
        if to_seq is None:
            return self.conn.execute(_SELECT + " WHERE seq >= ? ORDER BY seq", (from_seq,))
        return self.conn.execute(_SELECT + " WHERE seq >= ? AND seq <= ? ORDER BY seq", (from_seq, to_seq))

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
        return bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='commands'").fetchone())

    # ------------------------------------------------------------ commands
    def commands(self, from_seq: int = 1) -> Iterator[tuple[int, int, str, str, bytes]]:
        """(first_seq, last_seq, player, command_json, signature) in order."""
        return self.conn.execute("SELECT first_seq, last_seq, player, command, signature FROM commands "
                                 "WHERE first_seq >= ? ORDER BY first_seq", (from_seq,))

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
