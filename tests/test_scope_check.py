"""The check that a run's containers hold documents: made every turn, counted once in a while."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hopgraph import Context, run
from hopgraph.index import factory
from hopgraph.index.backend import NothingToSearchError, Scope
from hopgraph.index.memory import MemoryBackend
from tests.test_policy import QUESTION, multi_hop_backend


def _counting(backend: Any) -> list[int]:
    """Counts the backend's per-container document counts (the expensive part of the check)."""
    calls: list[int] = []
    count = backend.container_documents

    def counted() -> dict[str, int]:
        calls.append(1)
        return dict(count())

    backend.container_documents = counted
    return calls


def test_a_run_counts_its_containers_documents_once_not_every_turn(tmp_path: Path) -> None:
    from tests.support.index import make_container_index

    path = str(tmp_path / "index")
    make_container_index(path, {"default": {"lantern": ("The Copper Lantern", "A painting of a harbour.")}})
    backend = factory.open_backend(path, create=False)
    try:
        calls = _counting(backend)
        result = run("Which harbour does The Copper Lantern show?", context=Context(model="builtin", index=path))
        assert result["exit_reason"] == "reported" and result["turns"] >= 1
        assert len(calls) == 1
        # A multi-turn run over another backend: still one count.
        memory = multi_hop_backend()
        memory_calls = _counting(memory)
        multi = run(QUESTION, context=Context(model="builtin", backend=memory))
        assert multi["turns"] >= 3 and len(memory_calls) == 1
    finally:
        factory.close_backend(path)


def test_a_container_seen_empty_is_counted_again_at_the_next_check() -> None:
    backend = MemoryBackend()
    backend.add_text("a1", "A", "alpha", container="a")
    with pytest.raises(NothingToSearchError, match="container 'b' holds no documents; containers with documents: a"):
        factory.check_scope(backend, Scope(("b",)))
    backend.add_text("b1", "B", "beta", container="b")
    factory.check_scope(backend, Scope(("b",)))  # found at once, not after the window


def test_a_container_emptied_within_the_window_is_searched_then_reported_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = MemoryBackend()
    backend.add_text("a1", "A", "alpha", container="a")
    calls = _counting(backend)
    factory.check_scope(backend, Scope(("a",)))
    backend.delete_document("a1", "a")
    factory.check_scope(backend, Scope(("a",)))  # seen holding documents a moment ago: not counted again
    assert len(calls) == 1
    monkeypatch.setattr(factory, "HELD_FOR_S", 0.0)
    with pytest.raises(NothingToSearchError, match="the index holds no documents"):
        factory.check_scope(backend, Scope(("a",)))
    assert len(calls) == 2


def test_a_scope_with_a_container_not_seen_holding_documents_is_counted(caplog: pytest.LogCaptureFixture) -> None:
    backend = MemoryBackend()
    backend.add_text("a1", "A", "alpha", container="a")
    calls = _counting(backend)
    factory.check_scope(backend, Scope(("a",)))
    with caplog.at_level("WARNING", logger="hopgraph"):
        factory.check_scope(backend, Scope(("a", "b")))
    assert len(calls) == 2
    assert "container 'b' holds no documents" in caplog.text
