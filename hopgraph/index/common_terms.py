"""Query-time pruning of very common BM25 terms in large indexes.

A term that most chunks contain adds almost nothing to a BM25 score (its IDF is below ln 2 once it is in
half the chunks, against about 4.6 for a term in one chunk of a hundred), yet the engine must walk its
posting list, which grows with the index: such terms make a BM25 query cost linear in the corpus. The
backend leaves them out of the query vector once the index is large (``DEFAULT_FROM`` points) and keeps
at least one term, so a query made only of common terms is searched as it is.

Which terms are common is estimated from the BM25 vectors of a random sample of chunks (``SAMPLE``), the
whole index when it is smaller: with 2,000 chunks the share of chunks holding a term is known to about
one point either way. The estimate is made at the first query after a write and kept until the next one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

# Terms in more than this share of the chunks are left out of BM25 queries.
DEFAULT_SHARE = 0.5
# From this many points on; below it BM25 is cheap and every term is kept.
DEFAULT_FROM = 100_000
SAMPLE = 2000


def common_terms(sample: Iterable[Sequence[int]], share: float) -> frozenset[int]:
    """Term ids held by more than ``share`` of the sampled chunks (each given by its vector's term ids)."""
    df: Counter[int] = Counter()
    size = 0
    for indices in sample:
        size += 1
        df.update(set(indices))
    if not size:
        return frozenset()
    return frozenset(term for term, n in df.items() if n > share * size)


def prune(
    indices: Sequence[int], values: Sequence[float], common: frozenset[int]
) -> tuple[list[int], list[float]] | None:
    """The query vector's terms and weights without its common terms, or None to keep it as it is (no common
    term in it, or nothing but common terms)."""
    if not common:
        return None
    keep = [(i, v) for i, v in zip(indices, values, strict=True) if i not in common]
    if not keep or len(keep) == len(indices):
        return None
    return [i for i, _ in keep], [float(v) for _, v in keep]
