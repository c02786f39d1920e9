"""Embedded-shard specifics: the directory lock, crash survival, the factory, error messages."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from hopgraph.index import factory
from hopgraph.index.backend import BackendError, Chunk, IndexLockedError, Scope, make_chunk_id
from hopgraph.index.common import DENSE, SPARSE
from hopgraph.index.edge import EdgeBackend
from hopgraph.index.embed import get_embedder

REPO = Path(__file__).resolve().parents[1]
S = Scope(("default",))


def _chunks(n: int, prefix: str = "d") -> list[Chunk]:
    return [
        Chunk(chunk_id=make_chunk_id("default", f"{prefix}{i}", 0), doc_id=f"{prefix}{i}", index=0,
              title=f"note {i}", text=f"field note {i} about migrating cranes and wetland birds", container="default",
              content_hash="h")
        for i in range(n)
    ]


def _run_py(code: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_second_process_gets_a_clear_lock_error(tmp_path: Path) -> None:
    holder = _run_py(
        """
        import sys, time
        from hopgraph.index.edge import EdgeBackend
        b = EdgeBackend(sys.argv[1])
        print("ready", flush=True)
        time.sleep(60)
        """,
        str(tmp_path / "idx"),
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        probe = _run_py(
            """
            import sys
            from hopgraph.index.backend import IndexLockedError
            from hopgraph.index.edge import EdgeBackend
            try:
                EdgeBackend(sys.argv[1])
            except IndexLockedError as exc:
                print(exc)
            """,
            str(tmp_path / "idx"),
        )
        out, err = probe.communicate(timeout=60)
        assert err == ""  # no traceback
        assert out.strip() == (
            f"index {tmp_path / 'idx'} is open in another process (pid {holder.pid}); an embedded index is open in "
            "one process at a time: stop that one, use another --index, or a Qdrant server all can share (--url, "
            "QDRANT_URL)"
        )
    finally:
        holder.kill()
        holder.wait()
    # Once the holder is gone the lock is free again.
    EdgeBackend(tmp_path / "idx").close()


def test_same_process_second_open_is_refused(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx")
    try:
        with pytest.raises(IndexLockedError, match="already open in this process"):
            EdgeBackend(tmp_path / "idx")
    finally:
        b.close()


def test_data_survives_kill_9_after_upsert(tmp_path: Path) -> None:
    writer = _run_py(
        """
        import os, signal, sys
        from hopgraph.index.backend import Chunk, make_chunk_id
        from hopgraph.index.edge import EdgeBackend
        b = EdgeBackend(sys.argv[1])
        b.upsert([Chunk(chunk_id=make_chunk_id("default", f"k{i}", 0), doc_id=f"k{i}", index=0, title="t",
                        text=f"kestrel observation {i}", container="default", content_hash="h") for i in range(40)])
        print("written", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        """,
        str(tmp_path / "idx"),
    )
    out, _ = writer.communicate(timeout=120)
    assert out.strip() == "written"
    assert writer.returncode == -signal.SIGKILL
    b = EdgeBackend(tmp_path / "idx")
    try:
        assert b.count() == 40
        assert b.text_search("kestrel", S, 50)[0].chunk.text.startswith("kestrel observation")
        assert b.read("k7", S) is not None
    finally:
        b.close()


def test_factory_shares_one_instance_and_is_thread_safe(tmp_path: Path) -> None:
    path = str(tmp_path / "idx")
    try:
        got: list[object] = []
        threads = [threading.Thread(target=lambda: got.append(factory.open_backend(path))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len({id(b) for b in got}) == 1
        backend = factory.open_backend(path)
        assert backend is got[0]
        backend.upsert(_chunks(30))
        errors: list[BaseException] = []
        results: list[list[str]] = []

        def worker(i: int) -> None:
            try:
                for _ in range(10):
                    fn = (backend.search, backend.text_search, backend.dense_search)[i % 3]
                    results.append([h.doc_id for h in fn("cranes wetland", S, 5)])
                    assert backend.read("d3", S) is not None
            except BaseException as exc:  # noqa: BLE001 - surfaced below
                errors.append(exc)

        def writer() -> None:
            try:
                for j in range(5):
                    backend.upsert(_chunks(5, prefix=f"w{j}_"))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        pool = [threading.Thread(target=worker, args=(i,)) for i in range(6)] + [threading.Thread(target=writer)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        assert errors == []
        assert len(results) == 60 and all(len(r) == 5 for r in results)
        assert backend.count() == 55
    finally:
        factory.close_backend(path)
    # Closed and forgotten: opening again gives a fresh instance on the same data.
    again = factory.open_backend(path)
    try:
        assert again.count() == 55
    finally:
        factory.close_backend(path)


def test_unwritable_index_dir_is_a_clear_error(tmp_path: Path) -> None:
    # Tests may run as root, which ignores permission bits: use places nobody can write.
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(BackendError, match=r"cannot create index directory .*a-file/idx"):
        EdgeBackend(blocker / "idx")
    with pytest.raises(BackendError, match="cannot create index directory /proc/self/idx"):
        EdgeBackend("/proc/self/idx")
    with pytest.raises(BackendError, match="index directory /proc/self is not writable"):
        EdgeBackend("/proc/self")


def test_index_remembers_its_embedder(tmp_path: Path) -> None:
    from hopgraph.index.embed import Embedder

    class Tiny(Embedder):
        name = "tiny"

        @property
        def dim(self) -> int:
            return 8

        def _embed_batch(self, texts: list[str]):  # type: ignore[no-untyped-def]
            import numpy as np

            return np.ones((len(texts), 8), dtype=np.float32)

    EdgeBackend(tmp_path / "idx", embedder=get_embedder("minilm")).close()
    with pytest.raises(BackendError, match="was built with embedder 'minilm'"):
        EdgeBackend(tmp_path / "idx", embedder=Tiny())
    # The failed open released the lock.
    EdgeBackend(tmp_path / "idx").close()
    # An index built with another embedder opens with it when none is named.
    from hopgraph.index import embed

    tiny = Tiny()
    embed._cache["tiny"] = tiny
    try:
        EdgeBackend(tmp_path / "other", embedder=tiny).close()
        b = EdgeBackend(tmp_path / "other")
        assert b.embedder is tiny
        b.close()
    finally:
        del embed._cache["tiny"]


def test_closed_backend_raises_backend_error(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx")
    b.upsert(_chunks(2))
    b.close()
    with pytest.raises(BackendError, match="closed"):
        b.search("cranes", S, 3)


def test_hnsw_above_threshold_matches_exact(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx", exact_threshold=50)
    try:
        b.upsert(_chunks(300))
        b.optimize()
        assert b._dense_params().exact is False
        approx = [h.doc_id for h in b.dense_search("note 17 cranes", S, 10)]
        b.exact_threshold = 10**9
        assert b._dense_params().exact is True
        exact = [h.doc_id for h in b.dense_search("note 17 cranes", S, 10)]
        assert len(set(approx) & set(exact)) >= 9
    finally:
        b.close()


def test_dead_server_fails_fast() -> None:
    from hopgraph.index.server import ServerBackend

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    with pytest.raises(BackendError, match=rf"cannot reach Qdrant at http://127.0.0.1:{port}"):
        ServerBackend(url=f"http://127.0.0.1:{port}", embedder=get_embedder("minilm"))
    assert time.monotonic() - t0 < 5


def test_factory_url_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(BackendError, match="cannot reach Qdrant"):
        factory.open_backend(str(tmp_path / "idx"), url=f"http://127.0.0.1:{port}")
    assert not (tmp_path / "idx").exists()


def test_hybrid_results_are_identical_across_processes(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx")
    # Many exact ties (identical texts) plus distinct docs: the order must not depend on the process.
    same = [Chunk(chunk_id=make_chunk_id("default", f"twin{i}", 0), doc_id=f"twin{i}", index=0, title="twin",
                  text="heron colony survey at the estuary", container="default", content_hash="h")
            for i in range(12)]
    b.upsert(same + _chunks(20))
    b.close()
    code = """
        import json, sys
        from hopgraph.index.backend import Scope
        from hopgraph.index.edge import EdgeBackend
        b = EdgeBackend(sys.argv[1])
        s = Scope(("default",))
        out = {m: [(h.chunk.chunk_id, round(h.score, 9)) for h in getattr(b, m)("heron estuary birds", s, 15)]
               for m in ("search", "text_search", "dense_search")}
        print(json.dumps(out))
        b.close()
    """
    runs = []
    for _ in range(2):
        p = _run_py(code, str(tmp_path / "idx"))
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        runs.append(out)
    assert runs[0] == runs[1]
    first = json.loads(runs[0])
    twins = [cid for cid, _ in first["search"] if "twin" in cid]
    assert twins == sorted(twins) and len(twins) == 12


def _doc(container: str, doc_id: str, text: str, tags: tuple[str, ...] = (), index: int = 0,
         chunk_count: int = 1) -> Chunk:
    return Chunk(chunk_id=make_chunk_id(container, doc_id, index), doc_id=doc_id, index=index, title=doc_id,
                 text=text, container=container, tags=tags, content_hash=f"h-{doc_id}", chunk_count=chunk_count)


def test_scope_filter_is_skipped_only_while_it_would_match_every_point(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx")
    try:
        b.upsert([_doc("default", f"d{i}", f"crane migration report {i}", tags=("birds",)) for i in range(8)])
        both = Scope(("default", "other"))
        assert b._scope_filter(S) is None  # one container, all complete: the filter excludes nothing
        assert b._scope_filter(Scope(("default",), ("birds",))) is None
        assert b._scope_filter(Scope(("default",), ("fish",))) is not None
        assert b.search("crane migration", Scope(("default",), ("fish",)), 5) == []

        b.upsert([_doc("other", "secret", "crane migration secret memo")])
        assert b._scope_filter(S) is not None  # the write forgot the earlier answer
        assert b._scope_filter(both) is None
        for search in (b.search, b.dense_search, b.text_search):
            assert "secret" not in [h.doc_id for h in search("crane migration secret memo", S, 20)]
            assert "secret" in [h.doc_id for h in search("crane migration secret memo", both, 20)]

        b.delete_document("secret", "other")
        assert b._scope_filter(S) is None

        # Half of a two-chunk document: stored, not complete, so the filter is needed to hide it.
        b.upsert([_doc("default", "half", "crane migration half written", chunk_count=2)])
        assert b._scope_filter(S) is not None
        assert "half" not in [h.doc_id for h in b.search("crane migration half written", S, 20)]
        b.upsert([_doc("default", "half", "second part", index=1, chunk_count=2)])
        assert b._scope_filter(S) is None
        assert "half" in [h.doc_id for h in b.search("crane migration half written", S, 20)]
    finally:
        b.close()


def test_writes_racing_searches_never_leak_another_container(tmp_path: Path) -> None:
    b = EdgeBackend(tmp_path / "idx")
    b.upsert([_doc("default", f"d{i}", f"heron colony count {i}") for i in range(20)])
    stop = threading.Event()
    leaks: list[str] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for i in range(60):
                b.upsert([_doc("other", f"x{i}", f"heron colony count private {i}")])
                b.delete_document(f"x{i}", "other")
        except BaseException as exc:
            errors.append(exc)
        finally:
            stop.set()

    t = threading.Thread(target=writer)
    t.start()
    try:
        searches = 0
        while not stop.is_set() or searches < 20:
            for search in (b.search, b.dense_search, b.text_search):
                leaks += [h.doc_id for h in search("heron colony count private", S, 30) if h.doc_id.startswith("x")]
            searches += 1
    finally:
        t.join()
        b.close()
    assert not errors, errors
    assert leaks == []


def test_index_built_before_vector_quantization_opens_and_gains_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import qdrant_edge as qe

    def unquantized(self: EdgeBackend) -> object:
        return qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=self.embedder.dim, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
            hnsw_config=qe.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=10_000),
            max_search_threads=1,
        )

    with monkeypatch.context() as m:
        m.setattr(EdgeBackend, "_config", unquantized)
        old = EdgeBackend(tmp_path / "idx", exact_threshold=50)
        old.upsert(_chunks(300))
        old.optimize()
        before = [h.doc_id for h in old.dense_search("note 17 cranes", S, 10)]
        old.close()
    assert "quantization" not in json.dumps(json.loads((tmp_path / "idx" / "shard" / "edge_config.json").read_text()))
    b = EdgeBackend(tmp_path / "idx", exact_threshold=50)
    try:
        assert [h.doc_id for h in b.dense_search("note 17 cranes", S, 10)] == before
        b.optimize()
        config = json.loads((tmp_path / "idx" / "shard" / "edge_config.json").read_text())
        assert "int8" in json.dumps(config).lower()
        after = [h.doc_id for h in b.dense_search("note 17 cranes", S, 10)]
        assert len(set(after) & set(before)) >= 9
    finally:
        b.close()
