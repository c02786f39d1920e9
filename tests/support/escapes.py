"""A corpus of ways out of the run_python sandbox, and the canaries they aim at.

Each technique is a pair of programs for the sandbox: one tries to read a canary outside it (a plain file, an
access file, a SQLite database, a module, the parent's environment, a listener on this machine) and print what
it got; the other tries to write outside (a new file, the access file, the standard library). Programs are
``string.Template`` texts; ``Canaries.fill`` puts in the paths. Every program may fail in any way: what counts
is that the secret never comes back and nothing outside changes. The techniques live in ``escapes_paths`` (path
types, links, /proc, descriptors, file APIs) and ``escapes_runtime`` (interpreter internals, native code,
imports, the environment, sockets, processes).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import sysconfig
import threading
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any

from tests.support.escapes_paths import PATHS
from tests.support.escapes_runtime import RUNTIME

SECRET_ENV = "HOPGRAPH_ESCAPE_SECRET"
TECHNIQUES: dict[str, tuple[str, str]] = {**PATHS, **RUNTIME}


@dataclass
class Canaries:
    """Files and listeners outside the sandbox, each holding or answering with ``secret``."""

    root: Path
    secret: str = field(default_factory=lambda: f"hopgraph-canary-{uuid.uuid4().hex}")
    received: list[bytes] = field(default_factory=list)
    _sockets: list[socket.socket] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.canary = self.root / "canary.txt"
        self.canary.write_text(f"the secret is {self.secret}\n")
        self.access = self.root / "identities.json"
        alice = {"id": "alice", "key_sha256": [self.secret], "admin": True}
        self.access.write_text(json.dumps({"identities": [alice]}))
        self.sqlite = self.root / "checkpoints.sqlite"
        with contextlib.closing(sqlite3.connect(self.sqlite)) as db:
            db.execute("create table t (thread text, message text)")
            db.execute("insert into t values ('alice-thread', ?)", (f"alice asked about {self.secret}",))
            db.commit()
        self.outdir = self.root / "outside"
        self.outdir.mkdir()
        self.module_dir = self.root / "modules"
        self.module_dir.mkdir()
        self.module_file = self.module_dir / "secretmod.py"
        self.module_file.write_text(f"SECRET = {self.secret!r}\n")
        self.zip = self.root / "secret.zip"
        with zipfile.ZipFile(self.zip, "w") as zf:
            zf.writestr("secretmod.py", f"SECRET = {self.secret!r}\n")
        self.stdlib = sysconfig.get_path("stdlib")
        self.abstract = f"hopgraph-escape-{uuid.uuid4().hex}"
        self.unix = str(self.root / "listener.sock")
        # A descriptor the server holds open on the canary, inheritable: a child must still not get it.
        self.open_fd = os.open(self.canary, os.O_RDONLY)
        os.set_inheritable(self.open_fd, True)
        self.port = self._listen(socket.AF_INET, ("127.0.0.1", 0))
        self._listen(socket.AF_UNIX, self.unix)
        self._listen(socket.AF_UNIX, "\0" + self.abstract)

    def _listen(self, family: int, address: Any) -> int:
        server = socket.socket(family, socket.SOCK_STREAM)
        server.bind(address)
        server.listen(8)
        self._sockets.append(server)

        def serve() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                with conn:
                    conn.settimeout(1)
                    with contextlib.suppress(OSError):
                        conn.sendall(self.secret.encode())
                    try:
                        self.received.append(b"connected:" + conn.recv(4096))
                    except OSError:
                        self.received.append(b"connected")

        threading.Thread(target=serve, daemon=True).start()
        return int(server.getsockname()[1]) if family == socket.AF_INET else 0

    def close(self) -> None:
        os.close(self.open_fd)
        for server in self._sockets:
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)
            server.close()

    def target_for(self, name: str) -> Path:
        return self.outdir / f"pwned-{hashlib.sha1(name.encode()).hexdigest()[:10]}"

    def stdlib_name(self, name: str) -> str:
        return f"hopgraph-escape-{hashlib.sha1(name.encode()).hexdigest()[:10]}"

    def fill(self, template: str, name: str) -> str:
        values = {
            "canary": self.canary, "access": self.access, "sqlite": self.sqlite, "outdir": self.outdir,
            "module_dir": self.module_dir, "module_file": self.module_file, "zip": self.zip, "unix": self.unix,
            "abstract": self.abstract, "target": self.target_for(name), "stdlib_name": self.stdlib_name(name),
        }
        filled = {k: repr(str(v)) for k, v in values.items()}
        filled["port"] = str(self.port)
        return Template(template).substitute(filled)

    def snapshot(self) -> dict[str, tuple[int, int, int, str]]:
        """Every file under the canaries' folder: size, mode, mtime and a hash of its content."""
        out: dict[str, tuple[int, int, int, str]] = {}
        for path in sorted(self.root.rglob("*")):
            st = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            out[str(path)] = (st.st_size, st.st_mode, st.st_mtime_ns, digest)
        return out

    def stdlib_leftovers(self) -> list[str]:
        return sorted(n for n in os.listdir(self.stdlib) if n.startswith("hopgraph-escape-"))
