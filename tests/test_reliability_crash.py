"""Crashes: kill -9 during ingestion and during a run.

After a SIGKILL mid-ingest the embedded index opens, every document it shows is complete
(all ``chunk_count`` chunks, one content hash), and ingesting again finishes the job with
no duplicates. After a SIGKILL mid-run the thread's last checkpoint loads from SQLite and
the conversation goes on.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from hopgraph.index.backend import Scope
from hopgraph.index.embed import Embedder

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["steel", "copper", "bolt", "supplier", "contract", "delivery", "invoice", "harbour", "engine", "turbine",
         "valve", "pump", "gasket", "warranty", "audit", "ledger", "freight", "crane", "quarry", "timber"]


class HashEmbedder(Embedder):
    """Deterministic bag-of-words hashing: crash tests exercise the index, not the model (and stay fast)."""

    name = "hash-test"

    @property
    def dim(self) -> int:
        return 64

    def _embed_batch(self, texts: list[str]) -> Any:
        import zlib

        import numpy as np

        out = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.split():
                out[row, zlib.crc32(word.encode()) % 64] += 1.0
            out[row, 0] += 1e-3
        return out



@pytest.fixture(autouse=True)
def sqlite_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests crash a process holding a SQLite checkpoint file; keep PostgreSQL (set by CI) out of it."""
    monkeypatch.delenv("POSTGRES_URI", raising=False)
    monkeypatch.delenv("DATABASE_URI", raising=False)

def embedder(kind: str) -> Embedder:
    from hopgraph.index.embed import get_embedder

    return HashEmbedder() if kind == "hash" else get_embedder("minilm")


def make_corpus(folder: Path, files: int, seed: int = 1, words: tuple[int, int] = (700, 1700)) -> dict[str, str]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for i in range(files):
        # Four to nine chunks per file, so many documents straddle a write batch.
        text = " ".join([f"file{i}"] + [rng.choice(WORDS) for _ in range(rng.randint(*words))])
        name = f"doc{i:03d}.txt"
        (folder / name).write_text(text)
        out[f"{folder.name}/{name}"] = text  # an ingested folder keeps its name in the ids
    return out


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("QDRANT_URL", "POSTGRES_URI", "DATABASE_URI")}
    e["PYTHONPATH"] = str(ROOT)
    e["HOPGRAPH_EMBED_THREADS"] = "1"
    return e


def wait_for_line(proc: subprocess.Popen[str], marker: str, timeout: float) -> list[str]:
    deadline = time.monotonic() + timeout
    lines = []
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line)
        if marker in line:
            return lines
    proc.kill()
    raise AssertionError(f"never saw {marker!r}: {''.join(lines)[-2000:]}")


def raw_points(backend: Any) -> list[dict[str, Any]]:
    return [dict(r.payload or {}) for r in backend._scroll(None)]


def check_consistent(index: Path, corpus: dict[str, str], kind: str) -> dict[str, int]:
    """Every visible document is complete; returns counts of what the index holds."""
    from hopgraph.index.edge import EdgeBackend

    with EdgeBackend(index, embedder=embedder(kind)) as backend:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in raw_points(backend):
            groups[p["doc_id"]].append(p)
        complete = partial = 0
        for doc_id, points in groups.items():
            ready = [p for p in points if p["status"] == "ready"]
            document = backend.read(doc_id, Scope(("default",)))
            if ready:
                assert len({p["content_hash"] for p in ready}) == 1, doc_id
                assert sorted(p["index"] for p in ready) == list(range(ready[0]["chunk_count"])), doc_id
                assert document is not None and len(document.chunks) == ready[0]["chunk_count"]
                assert document.text.split()[0] == corpus[doc_id].split()[0]
                complete += 1
            else:
                assert document is None, f"{doc_id} is readable with {len(points)} partial chunks"
                partial += 1
        # Searches only ever return chunks of complete documents.
        for hit in backend.search("steel copper turbine", Scope(("default",)), 50):
            assert len(groups[hit.doc_id]) >= hit.chunk.chunk_count and hit.chunk.chunk_count > 0
            assert groups[hit.doc_id][0]["status"] == "ready" or any(
                p["status"] == "ready" for p in groups[hit.doc_id])
        return {"complete": complete, "partial": partial, "points": len(raw_points(backend))}


def finish_and_check(index: Path, folder: Path, corpus: dict[str, str], kind: str) -> None:
    from hopgraph.index.edge import EdgeBackend
    from hopgraph.index.ingest import ingest_paths

    with EdgeBackend(index, embedder=embedder(kind)) as backend:
        report = ingest_paths(backend, [folder], progress=False)
        assert not report.skipped
        assert report.docs + report.unchanged == len(corpus)
        points = raw_points(backend)
        per_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in points:
            per_doc[p["doc_id"]].append(p)
        assert set(per_doc) == set(corpus)
        for doc_id, ps in per_doc.items():
            # no duplicates and no stale partial chunks: exactly chunk_count points, all ready
            assert all(p["status"] == "ready" for p in ps), doc_id
            assert sorted(p["index"] for p in ps) == list(range(ps[0]["chunk_count"])), doc_id
        assert len(points) == sum(ps[0]["chunk_count"] for ps in per_doc.values())
        # A second pass changes nothing.
        again = ingest_paths(backend, [folder], progress=False)
        assert again.docs == 0 and again.unchanged == len(corpus)
        assert len(raw_points(backend)) == len(points)


INGEST_SCRIPT = textwrap.dedent("""
    import sys
    from hopgraph.index.edge import EdgeBackend
    from hopgraph.index.ingest import ingest_paths
    from tests.test_reliability_crash import HashEmbedder
    backend = EdgeBackend(sys.argv[1], embedder=HashEmbedder())
    original = backend.upsert
    def upsert(chunks):
        original(chunks)
        print("UPSERT", len(chunks), flush=True)
    backend.upsert = upsert
    print("READY", flush=True)
    ingest_paths(backend, [sys.argv[2]], progress=False, batch=int(sys.argv[3]))
    print("DONE", flush=True)
""")


@pytest.mark.parametrize("kill_after", [1, 4, 9])
def test_kill_9_mid_ingest_then_resume(tmp_path: Path, kill_after: int) -> None:
    folder, index = tmp_path / "docs", tmp_path / "index"
    corpus = make_corpus(folder, 40, seed=kill_after)
    proc = subprocess.Popen([sys.executable, "-c", INGEST_SCRIPT, str(index), str(folder), "7"], env=env(), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_line(proc, "READY", 60)
        for _ in range(kill_after):
            wait_for_line(proc, "UPSERT", 60)
    finally:
        proc.send_signal(signal.SIGKILL)  # mid-way: the next batch is being embedded or written
        rest = proc.communicate(timeout=30)[0]
    assert proc.returncode == -signal.SIGKILL
    assert "DONE" not in rest
    counts = check_consistent(index, corpus, "hash")
    assert counts["complete"] < len(corpus)  # the kill really interrupted the ingest
    assert counts["points"] > 0
    finish_and_check(index, folder, corpus, "hash")


def tree_size(root: Path) -> int:
    """Bytes of the files under root. The engine creates and renames temporary files while we look:
    os.walk skips folders that vanish, and files that vanish are skipped here."""
    total = 0
    for folder, _, names in os.walk(root):
        for name in names:
            with contextlib.suppress(FileNotFoundError):
                total += os.stat(os.path.join(folder, name)).st_size
    return total


def test_kill_9_of_the_cli_ingest(tmp_path: Path) -> None:
    folder, index = tmp_path / "docs", tmp_path / "index"
    # Real CLI, real embedder: kept small (about 20 chunks).
    corpus = make_corpus(folder, 8, seed=9, words=(250, 600))
    proc = subprocess.Popen([sys.executable, "-m", "hopgraph.cli", "ingest", str(folder), "--index", str(index),
                             "--no-progress"], env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Kill once the first chunks are on disk (the shard's write-ahead log has grown).
    wal = index / "shard"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        size = tree_size(wal)
        if size > 20_000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    out = proc.communicate(timeout=30)[0]
    assert proc.returncode == -signal.SIGKILL, out
    counts = check_consistent(index, corpus, "minilm")
    assert counts["complete"] < len(corpus)
    finish_and_check(index, folder, corpus, "minilm")


# A run whose model hangs in turn 2. ``api`` goes through hopgraph.api.run (the CLI's path, default
# durability); ``sync`` calls the graph with durability="sync" (each checkpoint written before the next step).
RUN_SCRIPT = textwrap.dedent("""
    import os, sys, time
    from langchain_core.messages import AIMessage
    from hopgraph import api
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.config import Context
    from hopgraph.graph import build_graph
    from hopgraph.index.memory import MemoryBackend
    from tests.scripted import ScriptedChatModel, call, calls

    db, how = sys.argv[1], sys.argv[2]
    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")
    backend.add_text("globex", "Globex contract", "Globex supplies copper wire.")

    def hang(messages):
        print("SLEEPING", flush=True)
        if how == "exit":
            os._exit(137)  # like kill -9: no cleanup, no flush
        time.sleep(600)
        return AIMessage(content="never")

    model = ScriptedChatModel(replies=[calls(call("search", {"query": "steel bolts"})), hang])
    context = Context(chat_model=model, backend=backend)
    with open_checkpointer(path=db) as saver:
        if how == "sync":
            build_graph(checkpointer=saver).invoke({"question": "Who supplies steel bolts?"},
                                                   config={"configurable": {"thread_id": "t1"}},
                                                   context=context, durability="sync")
        else:
            if how == "exit":
                # A slow disk: each checkpoint write takes a moment, as on a busy machine.
                put = saver.put
                def slow_put(*args, **kwargs):
                    time.sleep(0.3)
                    return put(*args, **kwargs)
                saver.put = slow_put
            api.run("Who supplies steel bolts?", context=context, thread_id="t1", checkpointer=saver)
""")


def kill_mid_run(db: Path, how: str) -> None:
    proc = subprocess.Popen([sys.executable, "-c", RUN_SCRIPT, str(db), how], env=env(), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_line(proc, "SLEEPING", 60)
    finally:
        if how != "exit":
            proc.send_signal(signal.SIGKILL)
        out = proc.communicate(timeout=30)[0]
    assert proc.returncode in (-signal.SIGKILL, 137), out


def small_backend() -> Any:
    from hopgraph.index.memory import MemoryBackend

    backend = MemoryBackend()
    backend.add_text("acme", "Acme contract", "Acme Corp supplies steel bolts.")
    backend.add_text("globex", "Globex contract", "Globex supplies copper wire.")
    return backend


def search_then_report(messages: list[Any]) -> Any:
    """Resumes from wherever the checkpoint stopped: search if nothing was found yet, else report."""
    from langchain_core.messages import ToolMessage

    from tests.scripted import call, calls

    if any(isinstance(m, ToolMessage) and "Acme" in str(m.content) for m in messages):
        return calls(call("report_helpful_ids", {"ids": ["d1"]}))
    return calls(call("search", {"query": "steel bolts"}))


def resume_and_follow_up(db: Path) -> None:
    from langchain_core.messages import HumanMessage

    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.config import Context
    from hopgraph.graph import build_graph
    from tests.scripted import ScriptedChatModel, call, calls

    backend = small_backend()
    config = {"configurable": {"thread_id": "t1"}}
    with open_checkpointer(path=str(db)) as saver:
        graph = build_graph(checkpointer=saver)
        snapshot = graph.get_state(config)
        humans = [m.content for m in snapshot.values["messages"] if isinstance(m, HumanMessage)]
        assert humans == ["Who supplies steel bolts?"]
        # The run was cut off: its last checkpoint must say so (a next step), so it can be resumed.
        assert snapshot.next, f"killed run looks finished at step {snapshot.metadata.get('step')}"
        resume = ScriptedChatModel(replies=[search_then_report], repeat_last=True)
        resumed = graph.invoke(None, config=config, context=Context(chat_model=resume, backend=backend))
        assert resumed["exit_reason"] == "reported" and resumed["reported_ids"] == ["acme"]

        follow = ScriptedChatModel(replies=[calls(call("search", {"query": "copper"}),
                                                  call("report_helpful_ids", {"ids": ["d2"]}))])
        second = graph.invoke({"messages": [{"role": "user", "content": "And copper?"}]}, config=config,
                              context=Context(chat_model=follow, backend=backend))
    assert second["exit_reason"] == "reported" and second["reported_ids"] == ["globex"]
    humans = [m.content for m in follow.prompts[0] if isinstance(m, HumanMessage)]
    assert humans == ["Who supplies steel bolts?", "And copper?"]


def test_kill_9_mid_run_then_resume_and_follow_up(tmp_path: Path) -> None:
    """With per-step durable checkpoints, a SIGKILL loses nothing: resume, then a follow-up turn."""
    db = tmp_path / "threads.sqlite"
    kill_mid_run(db, "sync")
    resume_and_follow_up(db)


def test_kill_9_mid_api_run_then_follow_up(tmp_path: Path) -> None:
    """Through hopgraph.api.run (as ``hopgraph ask --thread``): the thread survives the kill and a
    follow-up question on it sees the first one."""
    from langchain_core.messages import HumanMessage

    from hopgraph import api
    from hopgraph.checkpoint import open_checkpointer
    from hopgraph.config import Context
    from tests.scripted import ScriptedChatModel, call, calls

    db = tmp_path / "threads.sqlite"
    kill_mid_run(db, "api")
    follow = ScriptedChatModel(replies=[calls(call("search", {"query": "copper"}),
                                              call("report_helpful_ids", {"ids": ["d2"]}))])
    with open_checkpointer(path=str(db)) as saver:
        result = api.run("And copper?", context=Context(chat_model=follow, backend=small_backend()),
                         thread_id="t1", checkpointer=saver)
    assert result["exit_reason"] == "reported" and result["reported_ids"] == ["globex"]
    humans = [m.content for m in follow.prompts[0] if isinstance(m, HumanMessage)]
    assert humans == ["Who supplies steel bolts?", "And copper?"]


def test_api_run_leaves_a_resumable_checkpoint_at_a_hard_exit(tmp_path: Path) -> None:
    """hopgraph.api.run on a slow disk, process gone without cleanup: the newest checkpoint still
    has the run's next step, so it resumes. (stress/kill_run_durability.py repeats kills of a bare
    ``graph.invoke`` with LangGraph's default durability, where this does not always hold.)"""
    db = tmp_path / "threads.sqlite"
    kill_mid_run(db, "exit")
    resume_and_follow_up(db)
