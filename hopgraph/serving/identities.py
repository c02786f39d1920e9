"""The access file (``HOPGRAPH_AUTH_FILE``): identities, the hashes of their keys, their containers.

    {"identities": [{"id": "alice", "key_sha256": ["<hex sha256 of a key>"], "containers": ["default"],
                     "admin": false}]}

Keys are never stored, only their SHA-256. A presented key is hashed and compared with every stored hash in
constant time. The file is read again whenever its size or modification time changes, so adding or removing a
key needs no restart; a file that stops parsing locks everyone out until it is fixed (it never opens the server).
Ids starting with ``jwt:`` are refused: they are the identities of JWT bearer tokens.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

AUTH_FILE_ENV = "HOPGRAPH_AUTH_FILE"
# Identities named by a JWT carry this prefix; the file's own ids may not, so the two never meet.
JWT_ID_PREFIX = "jwt:"
_HEX_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class AuthFileError(ValueError):
    """The access file is missing, unreadable or not in the documented format."""


@dataclass(frozen=True)
class Identity:
    id: str
    containers: tuple[str, ...]
    admin: bool = False


@dataclass(frozen=True)
class _Entry:
    identity: Identity
    key_hash: bytes


def key_sha256(key: str) -> str:
    """The hex digest to store in the access file for a key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def auth_file_path() -> str | None:
    return os.environ.get(AUTH_FILE_ENV) or None


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or any(not isinstance(v, str) or not v.strip() for v in value):
        raise AuthFileError(f"{where} must be a list of non-empty strings")
    return tuple(value)


def parse_identities(data: Any) -> list[_Entry]:
    """Check the file's content and return one entry per stored key hash."""
    if not isinstance(data, dict) or not isinstance(data.get("identities"), list):
        raise AuthFileError('the file must be a JSON object with an "identities" list')
    unknown = set(data) - {"identities"}
    if unknown:
        raise AuthFileError(f"unknown top-level field(s): {', '.join(sorted(unknown))}")
    entries: list[_Entry] = []
    seen_ids: set[str] = set()
    seen_hashes: set[str] = set()
    for number, item in enumerate(data["identities"], start=1):
        where = f"identity {number}"
        if not isinstance(item, dict):
            raise AuthFileError(f"{where} must be an object")
        extra = set(item) - {"id", "key_sha256", "containers", "admin"}
        if extra:
            raise AuthFileError(f"{where} has unknown field(s): {', '.join(sorted(extra))}")
        ident = item.get("id")
        if not isinstance(ident, str) or not ident.strip():
            raise AuthFileError(f'{where} needs a non-empty string "id"')
        where = f"identity '{ident}'"
        if ident.startswith(JWT_ID_PREFIX):
            raise AuthFileError(f"{where}: ids starting with '{JWT_ID_PREFIX}' are kept for JWT bearer tokens")
        if ident in seen_ids:
            raise AuthFileError(f"{where} appears twice")
        seen_ids.add(ident)
        hashes = item.get("key_sha256")
        if isinstance(hashes, str):
            hashes = [hashes]
        if not isinstance(hashes, list) or not hashes:
            raise AuthFileError(f'{where} needs "key_sha256": a list of hex SHA-256 digests')
        admin = item.get("admin", False)
        if not isinstance(admin, bool):
            raise AuthFileError(f'{where}: "admin" must be true or false')
        identity = Identity(id=ident, containers=_names(item.get("containers", []), f'{where}: "containers"'),
                            admin=admin)
        for digest in hashes:
            if not isinstance(digest, str) or not _HEX_SHA256.match(digest.lower()):
                raise AuthFileError(f"{where}: key_sha256 entries must be 64 hex digits (sha256 of the key)")
            if digest.lower() in seen_hashes:
                raise AuthFileError(f"{where}: a key hash is listed more than once in the file")
            seen_hashes.add(digest.lower())
            entries.append(_Entry(identity=identity, key_hash=bytes.fromhex(digest)))
    return entries


def load_file(path: str) -> list[_Entry]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise AuthFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AuthFileError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    try:
        return parse_identities(data)
    except AuthFileError as exc:
        raise AuthFileError(f"{path}: {exc}") from exc


class IdentityFile:
    """The access file, re-read when it changes on disk."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._entries: list[_Entry] = []
        self._error: AuthFileError | None = None

    def _refresh(self) -> None:
        try:
            info = os.stat(self.path)
            stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
        except OSError as exc:
            self._stamp, self._entries = None, []
            self._error = AuthFileError(f"cannot read {self.path}: {exc.strerror or exc}")
            return
        if stamp == self._stamp:
            return
        try:
            self._entries, self._error = load_file(self.path), None
        except AuthFileError as exc:
            # Fail closed: a broken file authenticates nobody, not the keys of its last good version.
            self._entries, self._error = [], exc
        self._stamp = stamp

    def check(self) -> None:
        """Raise AuthFileError if the file cannot be used right now."""
        with self._lock:
            self._refresh()
            if self._error is not None:
                raise self._error

    def identify(self, key: str) -> Identity | None:
        """The identity holding ``key``, or None. Raises AuthFileError while the file is broken."""
        presented = hashlib.sha256(key.encode("utf-8")).digest()
        with self._lock:
            self._refresh()
            if self._error is not None:
                raise self._error
            entries = self._entries
        found: Identity | None = None
        # Compare with every hash, without stopping at a match, so timing says nothing about which key matched.
        for entry in entries:
            if hmac.compare_digest(entry.key_hash, presented) and found is None:
                found = entry.identity
        return found
