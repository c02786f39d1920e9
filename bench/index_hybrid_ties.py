"""What making a hybrid query's candidate lists independent of the engine's tie order costs.

    PYTHONPATH=. python bench/index_hybrid_ties.py --size 100000      # the scale benchmark's points
    PYTHONPATH=. python bench/index_hybrid_ties.py --size 1000000

The engine cuts a tie across a candidate list's last place in its storage order, which differs between two
builds of the same documents. ``EdgeBackend.hybrid_vector_search`` asks each list for one point more and stops
before such a tie, or reads the whole tie with a second query when stopping would leave fewer candidates than
the limit (``fusion.untied_candidates``). This compares it, query by query in alternating order, with the
engine's own cut (the same two queries one point shorter, fused and read by the backend's own code), on the
scale benchmark's points (``index_scale.py``; their BM25 vectors are copies of 8,067 documents' vectors, so
ties are far more common than in real text), and counts how often each list was cut before a tie or read
through one. Prints a markdown table.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).parent))
from _common import SCOPE, load_avg, one_size_args, print_ways, taking_turns  # noqa: E402
from index_scale import one_size  # noqa: E402

from hopgraph.index import edge, fusion  # noqa: E402
from hopgraph.index.backend import Hit  # noqa: E402
from hopgraph.index.edge import EdgeBackend  # noqa: E402

T = TypeVar("T")


def engine_cut(b: EdgeBackend, vec: Any, sparse: Any, limit: int) -> list[Hit]:
    """The hybrid query as it was: each list as the engine cuts it at ``depth``."""
    depth = max(b.prefetch, limit)
    with b._lock:
        flt = b._scope_filter(SCOPE)
        reqs = [b._dense_request(vec, flt, depth, False)]
        if list(sparse.indices):
            reqs.append(b._sparse_request(b._bm25_query(sparse), flt, depth, False))
        lists = [b._call(lambda s, r=r: s.query(r)) for r in reqs]
    return b._fused_hits([[(p.id.int, p.score) for p in pts] for pts in lists], limit, None)


def counted(tally: Counter[str], name: str) -> Callable[..., tuple[list[Any], list[float]]]:
    """``untied_candidates`` that records, per list, whether it was cut before a tie or read through one."""
    def wrapper(got: Sequence[T], fetch: Callable[[int], Sequence[T]], score: Callable[[T], float],
                depth: int, limit: int) -> tuple[list[T], list[float]]:
        asked: list[int] = []

        def recording(n: int) -> Sequence[T]:
            asked.append(n)
            return fetch(n)

        out = fusion.untied_candidates(got, recording, score, depth, limit)
        if asked:
            tally[f"{name}: tie read with a second query"] += 1
        elif len(out[0]) < min(depth, len(got)):
            tally[f"{name}: stopped before a tie"] += 1
        else:
            tally[f"{name}: no tie across the cut"] += 1
        return out
    return wrapper


def main() -> int:
    ap = one_size_args(__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    run = one_size(args, "Hybrid candidate lists and ties", "hopgraph-ties-")
    backend, stats, qvecs, qsparse = run.backend, run.stats, run.qvecs, run.qsparse

    tally: Counter[str] = Counter()
    changed = 0
    untied = edge.untied_candidates
    for j in range(len(qvecs)):  # warm up, count, and compare the chunks each way returns
        names = iter(("dense", "BM25"))
        edge.untied_candidates = lambda *a, names=names, **k: counted(tally, next(names))(*a, **k)  # type: ignore
        new = backend.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)
        edge.untied_candidates = untied  # type: ignore[assignment]
        old = engine_cut(backend, qvecs[j], qsparse[j], 10)
        changed += [h.chunk.chunk_id for h in new] != [h.chunk.chunk_id for h in old]

    def plain(j: int) -> list[Hit]:
        return backend.hybrid_vector_search(qvecs[j], qsparse[j], SCOPE, 10)

    def cut(j: int) -> list[Hit]:
        return engine_cut(backend, qvecs[j], qsparse[j], 10)

    wall = taking_turns([("engine's cut (before)", cut), ("untied lists (now)", plain)], len(qvecs), args.rounds)
    backend.close()
    print(f"{args.size} points (built in {stats['load_s']:.0f} s + {stats['optimize_s']:.0f} s), {len(qvecs)} real "
          f"questions x {args.rounds} rounds, engine hybrid at limit 10 (lists of {backend.prefetch}) with the "
          f"vectors given; the two ways took turns query by query; load avg at the end {load_avg()}\n")
    print_ways(wall, "engine's cut (before)", "the engine's cut")
    print(f"\nTop 10 changed for {changed} of {len(qvecs)} questions. Candidate lists:\n")
    for key in sorted(tally):
        print(f"- {key}: {tally[key]}")
    run.tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
