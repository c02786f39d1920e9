"""How close in meaning an evidence sentence is to what a question asks: the cosine of their sentence embeddings.

Word overlap misses a sentence that answers in other words ("Who services the vans?" / "Every van is serviced by
Cole Motors" shares two words; "Who leads the team?" / "Omar Haddad leads it" one), and counts a sentence that
repeats the question's words without answering it. The index's sentence encoder (all-MiniLM-L6-v2 by default)
places a question near the sentences that answer it, so the policy scores candidate sentences by that closeness
next to the word overlap (:mod:`hopgraph.policies.answer.select`), and picks the column of a table a question
asks about when they share no word (:func:`closest_label`).

Only local encoders are used (an embedder behind a network API would make a request per answer); with none, or
when it fails, every similarity is None and the policy scores by words alone. The question is embedded as a query
(int8 where the CPU allows, see :mod:`hopgraph.index.embed`), each candidate sentence as a document, once per
process: sentences are kept in a bounded cache, so the parts of a question, its rounds and the turns of a thread
that score the same sentences again embed them once.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

CACHED_SENTENCES = 8192
_LOCAL = ("minilm", "fastembed:")

_lock = threading.Lock()
_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_failed: set[str] = set()


def meaning_weight() -> float:
    """How much closeness in meaning counts next to the words: HOPGRAPH_ANSWER_MEANING, default 0 (off).

    Off by default: on the shared sets' scored-only parts it cost one answer each of HotpotQA and the demo
    questions at every weight tried, while it fixed one answer of fourteen on a folder of new documents and one of
    MuSiQue's scored-only part, and it made the policy's final step about 35 times slower (docs/benchmarks.md,
    "Answer mode").
    """
    raw = os.environ.get("HOPGRAPH_ANSWER_MEANING", "").strip()
    try:
        return max(0.0, float(raw)) if raw else 0.0
    except ValueError:
        return 0.0


def _spec() -> str:
    return (os.environ.get("HOPGRAPH_EMBEDDER") or "minilm").strip()


def _embedder() -> Any:
    """The process's local sentence encoder, or None (a remote one, or one that cannot be loaded)."""
    spec = _spec()
    if not spec.startswith(_LOCAL) or spec in _failed:
        return None
    from hopgraph.index.embed import get_embedder

    try:
        return get_embedder(spec)
    except Exception as exc:  # a missing model only costs the policy this signal
        log.warning("answer policy scores sentences by words only: %s", exc)
        _failed.add(spec)
        return None


def similarities(question: str, texts: Sequence[str]) -> list[float] | None:
    """Cosine similarity of each text to the question; None without a local encoder."""
    if not texts or not question.strip():
        return None
    embedder = _embedder()
    if embedder is None:
        return None
    key = _spec()
    try:
        query = embedder.embed_query(question)
        with _lock:
            missing = list(dict.fromkeys(t for t in texts if (key, t) not in _cache))
        if missing:
            vectors = embedder.embed_documents(missing)
            with _lock:
                for text, vec in zip(missing, vectors, strict=True):
                    _cache[(key, text)] = vec
                while len(_cache) > CACHED_SENTENCES:
                    _cache.popitem(last=False)
        with _lock:
            rows = [_cache.get((key, t)) for t in texts]
    except Exception as exc:
        log.warning("answer policy scores sentences by words only: %s", exc)
        _failed.add(key)
        return None
    if any(r is None for r in rows):  # evicted meanwhile by another run: embed them together
        return [float(v) for v in embedder.embed_documents(list(texts)) @ query]
    return [float(np.dot(r, query)) for r in rows if r is not None]


# How much closer in meaning one label must be than the next for it to be taken: clearly, not by a hair.
CLEAR_MARGIN = 0.05


def closest_label(question: str, labels: Sequence[str]) -> int | None:
    """The index of the label (a column header, a field name) closest in meaning to the question, when it is
    clearly closer than every other (by ``CLEAR_MARGIN``); None without a local encoder or a clear winner.

    For the wording a question and a table do not share: "how many items did Tanners lend" asks for ``loans``,
    "what number do I ring" for ``Telephone``."""
    if len(labels) < 2:
        return None
    sims = similarities(question, list(labels))
    if not sims:
        return None
    order = sorted(range(len(labels)), key=lambda i: -sims[i])
    return order[0] if sims[order[0]] - sims[order[1]] >= CLEAR_MARGIN else None

