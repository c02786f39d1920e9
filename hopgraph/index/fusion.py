"""Fusion of a hybrid query's lists, and result trimming, shared by every backend.

Fusion runs in Python (not in the engine) so that tied scores are broken the same
way in every process: by chunk id.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from hopgraph.config import env_choice
from hopgraph.index.backend import BackendError, Hit

RRF_K = 60
# The fusions a hybrid query can use; the first is the default.
FUSIONS = ("dbsf", "rrf")
# DBSF takes a list's mean and spread from its best this many scores, so a deeper list (a larger limit)
# does not change how the first ones are scored.
DBSF_WINDOW = 20
# The BM25 score of every chunk a BM25 list does not hold: it shares none of the query's terms.
BM25_FLOOR = 0.0
# A hybrid query's lists come dense first, then BM25: only the BM25 list has a floor.
HYBRID_FLOORS = (None, BM25_FLOOR)
# Engine scores equal at this many decimals are ties (equal vectors can score a few ulps apart).
TIE_DIGITS = 6
# How far past the limit an engine list is followed to find the end of a tie with its last place: one more
# query at most, since on tie-heavy data every further query costs as much as the first.
TIE_REACH = 100

T = TypeVar("T")


def rrf_fuse(rankings: Sequence[Sequence[Hit]], limit: int, k: int = RRF_K) -> list[Hit]:
    """Reciprocal rank fusion: score = sum over lists of 1 / (k + rank), rank from 1.

    Ties are broken by chunk id, so the order never depends on engine internals.
    """
    scores: dict[str, float] = {}
    chunks: dict[str, Hit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            cid = hit.chunk.chunk_id
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
            chunks.setdefault(cid, hit)
    order = sorted(scores, key=lambda cid: (-round(scores[cid], 9), cid))
    return [Hit(chunk=chunks[cid].chunk, score=scores[cid]) for cid in order[: max(limit, 0)]]


def rrf_ids(rankings: Sequence[Sequence[tuple[T, float]]], limit: int, k: int = RRF_K) -> list[tuple[T, float]]:
    """RRF over ``(key, engine score)`` lists, each best first; returns ``(key, fused score)``
    best first, equal fused scores by key (keys must be comparable).

    Entries with equal engine scores (at TIE_DIGITS decimals) share the better rank, so the order an
    engine gives its ties never changes a fused score.
    """
    scores: dict[T, float] = {}
    for ranking in rankings:
        rank, previous = 0, None
        for position, (key, score) in enumerate(ranking, start=1):
            level = round(score, TIE_DIGITS)
            if level != previous:
                rank, previous = position, level
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    order = sorted(scores.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))
    return order[: max(limit, 0)]


def dbsf_ids(rankings: Sequence[Sequence[tuple[T, float]]], limit: int, window: int = DBSF_WINDOW,
             floors: Sequence[float | None] = (), stats: Sequence[Sequence[float]] | None = None
             ) -> list[tuple[T, float]]:
    """Distribution-based score fusion over ``(key, engine score)`` lists, each best first; returns
    ``(key, fused score)`` best first, equal fused scores by key (keys must be comparable).

    Each list's scores are mapped to [0, 1] by where they fall between its mean minus and plus three standard
    deviations (of its first ``window`` scores; later ones are clipped into the range), and a key's fused score
    is the sum over the lists that hold it. A list without spread (one entry, or all equal) puts every entry at
    0.5. Unlike RRF, how far the best are ahead of the rest counts, not only their order; equal engine scores get
    equal shares whatever order the engine gives them in.

    ``floors[i]``, where given, is the score of everything list ``i`` does not hold (``BM25_FLOOR`` for a BM25
    list). A list shorter than ``window`` ran out of matches, so its statistics count the rest of the window at
    that floor: a lone exact match then gets a full share, not the middle of a range it alone spans.

    ``stats[i]``, where given, are the engine scores list ``i``'s mean and spread are taken from instead of its
    own (a candidate list that left out a tie still counts the tie's scores, see ``untied_candidates``).
    """
    scores: dict[T, float] = {}
    for i, ranking in enumerate(rankings):
        if not ranking:
            continue
        # Engine scores equal at TIE_DIGITS are ties: rounded first, they get exactly equal shares.
        levels = [round(score, TIE_DIGITS) for _, score in ranking]
        head = [round(score, TIE_DIGITS) for score in stats[i][:window]] if stats is not None else levels[:window]
        floor = floors[i] if i < len(floors) else None
        if floor is not None and len(head) < window:
            head += [floor] * (window - len(head))
        # fsum: the same mean and spread whatever order equal scores come in.
        mean = math.fsum(head) / len(head)
        spread = math.sqrt(math.fsum([(x - mean) ** 2 for x in head]) / len(head))
        low, scale = mean - 3 * spread, (1 / (6 * spread) if spread > 0 else 0.0)
        for (key, _), level in zip(ranking, levels, strict=True):
            share = (level - low) * scale if scale else 0.5
            share = 0.0 if share < 0.0 else 1.0 if share > 1.0 else share
            scores[key] = scores.get(key, 0.0) + share
    order = sorted(scores.items(), key=lambda kv: (-round(kv[1], 9), kv[0]))
    return order[: max(limit, 0)]


def fuse_ids(fusion: str, rankings: Sequence[Sequence[tuple[T, float]]], limit: int,
             floors: Sequence[float | None] = (), stats: Sequence[Sequence[float]] | None = None
             ) -> list[tuple[T, float]]:
    """The hybrid query's fusion by name (one of ``FUSIONS``); ``floors`` and ``stats`` as in ``dbsf_ids`` (RRF
    needs neither: a tie left out of a list shares the rank after everything kept)."""
    if check_fusion(fusion) == "dbsf":
        return dbsf_ids(rankings, limit, floors=floors, stats=stats)
    return rrf_ids(rankings, limit)


def backend_fusion(fusion: str | None) -> str:
    """A backend's fusion: the one named (checked), else HOPGRAPH_FUSION, else ``FUSIONS[0]`` (dbsf)."""
    if fusion is not None:
        return check_fusion(fusion)
    return env_choice("HOPGRAPH_FUSION", FUSIONS, FUSIONS[0], BackendError)


def check_fusion(fusion: str) -> str:
    """The name, if it names a fusion; a clear error otherwise (at construction, not at the first query)."""
    if fusion not in FUSIONS:
        raise ValueError(f"unknown fusion {fusion!r}: use one of {', '.join(FUSIONS)}")
    return fusion


def sort_hits(hits: Sequence[Hit], digits: int = TIE_DIGITS) -> list[Hit]:
    """Best first, ties by chunk id (engines may order equal scores arbitrarily).

    Scores are compared at ``digits`` decimals: equal vectors can score a few ulps apart
    depending on how the engine blocks its arithmetic.
    """
    return sorted(hits, key=lambda h: (-round(h.score, digits), h.chunk.chunk_id))


def score_band(hits: Sequence[Hit], band: float | None, min_keep: int = 1) -> list[Hit]:
    """Keeps hits while their score stays within ``band`` of the top hit.

    ``band`` is relative: a hit survives if ``score >= top * (1 - band)``; trimming stops at
    the first hit that falls out (hits are best first). ``None`` or a band >= 1 keeps
    everything. At least ``min_keep`` hits survive. Band 0.5 keeps, with RRF scores, the hits ranked first in
    one list or high in both; with DBSF scores (a share of each list, summed: 0 to 2), those scoring at least
    half the top hit's.
    """
    hits = list(hits)
    if band is None or band >= 1 or not hits:
        return hits
    if band < 0:
        raise ValueError("score band must be >= 0")
    top = hits[0].score
    if top <= 0:
        return hits
    floor = top * (1.0 - band)
    kept: list[Hit] = []
    for i, h in enumerate(hits):
        if i >= min_keep and h.score < floor:
            break
        kept.append(h)
    return kept


def tied_cut(scores: Sequence[float], limit: int, asked: int) -> int | None:
    """How many of an engine's scores (best first, ``asked`` > ``limit`` asked for) to keep: the first ``limit``
    and every later one tied with the last of them. None when the answer ran out inside that tie, so the tie may
    go on past it."""
    if len(scores) <= limit:
        return len(scores)
    edge = round(scores[limit - 1], TIE_DIGITS)
    keep = limit
    while keep < len(scores) and round(scores[keep], TIE_DIGITS) == edge:
        keep += 1
    return None if keep == len(scores) and len(scores) >= asked else keep


def through_ties(fetch: Callable[[int], Sequence[T]], score: Callable[[T], float], limit: int) -> list[T]:
    """An engine's best ``limit`` results and every further one tied with the last of them.

    An engine cuts a tie at its limit in its storage order, which differs between backends and with the order
    chunks were written; with the whole tie in hand, the caller decides by chunk id. ``fetch(n)`` asks the
    engine for its best ``n``: first one past the limit, and only when that one ties with the last place,
    ``TIE_REACH`` past it. A tie longer than that is decided among the points that answer holds.
    """
    asked = limit + 1
    got = list(fetch(asked))
    keep = tied_cut([score(p) for p in got], limit, asked)
    if keep is not None:
        return got[:keep]
    return _whole_tie(fetch, score, limit)


def _whole_tie(fetch: Callable[[int], Sequence[T]], score: Callable[[T], float], limit: int) -> list[T]:
    """The engine's best ``limit`` and the tie with the last of them, asked ``TIE_REACH`` past the limit."""
    asked = limit + TIE_REACH
    got = list(fetch(asked))
    keep = tied_cut([score(p) for p in got], limit, asked)
    return got if keep is None else got[:keep]


def untied_candidates(got: Sequence[T], fetch: Callable[[int], Sequence[T]], score: Callable[[T], float],
                      depth: int, limit: int) -> tuple[list[T], list[float]]:
    """One of a hybrid query's candidate lists, made independent of the engine's order among equal scores, and
    the scores its fusion statistics are taken from.

    ``got`` is the engine's best ``depth + 1``. The engine cuts a tie across place ``depth`` in its storage
    order, which differs between two builds of the same documents (the shard's optimizer does not lay points
    out the same way twice), so the candidates stop before such a tie, while the statistics still count its
    scores (they are the same whichever points the engine returned), so leaving the tie out changes no other
    candidate's share. When that would leave fewer than ``limit`` candidates, the whole tie is read instead
    (one more query, ``TIE_REACH`` deep; the fusion then breaks the tie by chunk id). ``fetch(n)`` asks the
    engine for its best ``n``.
    """
    scores = [score(p) for p in got]
    if len(scores) <= depth:
        return list(got), scores
    edge = round(scores[depth - 1], TIE_DIGITS)
    if round(scores[depth], TIE_DIGITS) != edge:
        return list(got[:depth]), scores[:depth]
    keep = depth - 1
    while keep > 0 and round(scores[keep - 1], TIE_DIGITS) == edge:
        keep -= 1
    if keep >= min(limit, depth):
        return list(got[:keep]), scores[:depth]
    whole = _whole_tie(fetch, score, depth)
    return whole, [score(p) for p in whole]
