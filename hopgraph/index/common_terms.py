"""Query-time pruning of common BM25 terms, so that a BM25 query's cost stops growing with the index.

A BM25 query walks the posting list of every term it holds, so its cost is the number of chunks holding its
terms, and that grows linearly with the index. The longest lists belong to the most common terms, whose IDF
is the lowest (below ln 2 for a term in half the chunks, about 4.6 for a term in one chunk of a hundred), so
they move a score least. The backend keeps a query's rarest terms while their estimated postings fit a budget
(``DEFAULT_BUDGET``) and leaves the rest out, the most common first; the rarest term is always kept. An index
smaller than the budget divided by the query's length can never exceed it, so small indexes search every
term and are never sampled.

How many chunks hold a term is estimated from the BM25 vectors of a random sample of chunks (``SAMPLE``; the
whole index when it is smaller): with 2,000 chunks a term's share is known to about one point either way, and
a term missing from the sample is rare enough to keep. The estimate is made at the first query after a write
and kept until the next one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

# Postings a BM25 query may walk: about a millisecond of engine time on a 2-core machine
# (docs/benchmarks-index.md, "BM25 postings budget").
DEFAULT_BUDGET = 100_000
SAMPLE = 2000


def checked_budget(budget: int | None) -> int | None:
    """``budget`` as a backend takes it: a positive number of postings, or None for every term."""
    if budget is not None and budget < 1:
        raise ValueError(f"bm25_postings_budget must be at least 1 or None, not {budget!r}")
    return budget


def term_shares(sample: Iterable[Sequence[int]]) -> dict[int, float]:
    """For every term of the sample (each chunk given by its vector's term ids), the share of chunks holding it."""
    df: Counter[int] = Counter()
    size = 0
    for indices in sample:
        size += 1
        df.update(set(indices))
    return {term: n / size for term, n in df.items()} if size else {}


def may_exceed(terms: int, points: int, budget: int) -> bool:
    """Whether a query of ``terms`` terms could walk more than ``budget`` postings in an index of ``points``."""
    return terms > 1 and terms * points > budget


def prune(
    indices: Sequence[int], values: Sequence[float], shares: dict[int, float], points: int, budget: int
) -> tuple[list[int], list[float]] | None:
    """The query's rarest terms (and their weights, in the query's order) whose estimated postings fit
    ``budget``, or None when every term fits. The rarest term is kept whatever its postings."""
    by_rarity = sorted(range(len(indices)), key=lambda k: (shares.get(indices[k], 0.0), indices[k]))
    kept: list[int] = []
    postings = 0.0
    for k in by_rarity:
        postings += shares.get(indices[k], 0.0) * points
        if kept and postings > budget:
            break
        kept.append(k)
    if len(kept) == len(indices):
        return None
    kept.sort()
    return [indices[k] for k in kept], [float(values[k]) for k in kept]
