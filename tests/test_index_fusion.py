"""Fusion, score band and keyword-query parsing (pure functions)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hopgraph.index.backend import Chunk, Hit, make_chunk_id
from hopgraph.index.common import is_whole, parse_text_query
from hopgraph.index.fusion import (
    BM25_FLOOR,
    TIE_REACH,
    check_fusion,
    dbsf_ids,
    fuse_ids,
    rrf_fuse,
    rrf_ids,
    score_band,
    sort_hits,
    through_ties,
    tied_cut,
    untied_candidates,
)


def hit(doc: str, score: float, index: int = 0, count: int = 1, h: str = "h") -> Hit:
    return Hit(chunk=Chunk(chunk_id=make_chunk_id("c", doc, index), doc_id=doc, index=index, title=doc, text=doc,
                           container="c", content_hash=h, chunk_count=count), score=score)


def test_rrf_rewards_agreement_and_breaks_ties_by_chunk_id() -> None:
    dense = [hit("a", 0.9), hit("b", 0.8), hit("c", 0.7)]
    sparse = [hit("c", 9.0), hit("b", 5.0), hit("d", 1.0)]
    fused = rrf_fuse([dense, sparse], 10)
    assert [h.doc_id for h in fused] == ["c", "b", "a", "d"]
    assert fused[0].score == pytest.approx(1 / 61 + 1 / 63)
    assert fused[1].score == pytest.approx(2 / 62)
    # Equal contributions tie and fall back to chunk id order.
    tied = rrf_fuse([[hit("z", 1.0)], [hit("y", 1.0)]], 10)
    assert [h.doc_id for h in tied] == ["y", "z"]
    assert rrf_fuse([dense, sparse], 2) == fused[:2]
    assert rrf_fuse([], 5) == []


def test_rrf_ids_keeps_list_order_and_breaks_fused_ties_by_key() -> None:
    dense = [("c/x#0", 0.9), ("c/a#0", 0.8)]
    sparse = [("c/b#0", 7.0), ("c/x#0", 3.0)]
    assert [cid for cid, _ in rrf_ids([dense, sparse], 3)] == ["c/x#0", "c/b#0", "c/a#0"]
    assert [cid for cid, _ in rrf_ids([[("c/z#0", 1.0)], [("c/y#0", 1.0)]], 2)] == ["c/y#0", "c/z#0"]
    assert rrf_ids([dense, sparse], 1)[0][1] == pytest.approx(1 / 61 + 1 / 62)


def test_rrf_ids_gives_tied_engine_scores_one_rank() -> None:
    # Engines order equal scores as they like; the fused scores must not depend on that order.
    sparse = [("p", 9.0), ("q", 4.0), ("r", 4.0), ("s", 4.0000000001), ("t", 1.0)]
    dense = [("t", 0.9), ("s", 0.5), ("r", 0.5), ("q", 0.5), ("p", 0.1)]
    fused = rrf_ids([dense, sparse], 5)
    reordered = [[dense[0], dense[3], dense[1], dense[2], dense[4]], [sparse[0], *sparse[3:0:-1], sparse[4]]]
    assert rrf_ids(reordered, 5) == fused
    shares = dict(fused)
    assert shares["q"] == shares["r"] == shares["s"] == pytest.approx(1 / 62 + 1 / 62)  # ranks 2 and 2
    assert shares["p"] == pytest.approx(1 / 61 + 1 / 65)
    assert shares["t"] == pytest.approx(1 / 61 + 1 / 65)
    assert [key for key, _ in fused] == ["q", "r", "s", "p", "t"]  # equal fused scores by key


def test_dbsf_maps_each_list_to_three_deviations_around_its_mean() -> None:
    dense = [("a", 0.9), ("b", 0.5), ("c", 0.1)]  # mean 0.5, deviation sqrt(0.32 / 3)
    sparse = [("c", 30.0), ("d", 10.0)]  # mean 20, deviation 10
    fused = dict(dbsf_ids([dense, sparse], 10))
    dev = (0.32 / 3) ** 0.5
    assert fused["a"] == pytest.approx((0.9 - 0.5 + 3 * dev) / (6 * dev))
    assert fused["b"] == pytest.approx(0.5)
    assert fused["c"] == pytest.approx((0.1 - 0.5 + 3 * dev) / (6 * dev) + (30 - 20 + 30) / 60)
    assert fused["d"] == pytest.approx((10 - 20 + 30) / 60)
    assert [key for key, _ in dbsf_ids([dense, sparse], 2)] == ["c", "a"]


def test_dbsf_counts_how_far_ahead_the_best_are_where_rrf_counts_only_order() -> None:
    # "y" is far ahead of everything in dense and absent from BM25; "x" is second in dense and last in BM25,
    # far behind a close pack. RRF sees only that "x" is in both lists; DBSF sees that it is weak in both.
    dense = [("y", 0.95), ("x", 0.50), ("p", 0.49), ("q", 0.48), ("r", 0.47)]
    sparse = [("s", 6.0), ("t", 5.99), ("u", 5.98), ("v", 5.97), ("x", 3.0)]
    assert rrf_ids([dense, sparse], 1)[0][0] == "x"
    assert dbsf_ids([dense, sparse], 1)[0][0] == "y"
    # Near the top of BM25 instead, "x" is strong in both and leads under either fusion.
    close = [("s", 6.0), ("x", 5.99), ("t", 5.98), ("u", 5.97), ("v", 3.0)]
    assert dbsf_ids([dense, close], 1)[0][0] == rrf_ids([dense, close], 1)[0][0] == "x"


def test_dbsf_ties_flat_lists_and_empty_lists() -> None:
    # Equal engine scores (within float noise) get equal shares whatever order they come in.
    sparse = [("p", 9.0), ("q", 4.0), ("r", 4.0000000001), ("s", 4.0), ("t", 1.0)]
    dense = [("t", 0.9), ("s", 0.5), ("r", 0.5), ("q", 0.5), ("p", 0.1)]
    fused = dbsf_ids([dense, sparse], 5)
    assert dbsf_ids([dense[:1] + dense[3:0:-1] + dense[4:], sparse[:1] + sparse[3:0:-1] + sparse[4:]], 5) == fused
    shares = dict(fused)
    assert shares["q"] == shares["r"] == shares["s"]
    assert [key for key, _ in fused] == ["t", "p", "q", "r", "s"]  # equal fused scores by key
    # A list without spread puts every entry in the middle; an empty list adds nothing.
    assert dbsf_ids([[("a", 3.0)], []], 5) == [("a", 0.5)]
    assert dbsf_ids([[("b", 2.0), ("a", 2.0)]], 5) == [("a", 0.5), ("b", 0.5)]
    assert dbsf_ids([], 5) == []


def test_dbsf_counts_a_short_bm25_list_up_to_its_window_at_the_floor() -> None:
    # A lone BM25 match the dense list missed: without a floor it gets the middle share and sinks below the
    # dense list's upper half; counted against the rest of the window at BM25's floor it gets a full share.
    dense = [(f"d{i:02d}", 0.60 - i / 100) for i in range(20)]
    lone = [("x", 7.0)]
    assert dict(dbsf_ids([dense, lone], 30))["x"] == 0.5
    with_floor = dbsf_ids([dense, lone], 30, floors=(None, BM25_FLOOR))
    assert dict(with_floor)["x"] == 1.0 and with_floor[0][0] == "x"
    # A full list is its own sample: the floor changes nothing; a list without a floor given is left alone.
    full = [(f"b{i:02d}", 9.0 - i / 4) for i in range(20)]
    assert dbsf_ids([dense, full], 40, floors=(None, BM25_FLOOR)) == dbsf_ids([dense, full], 40)
    short_dense = dict(dbsf_ids([dense[:5], lone], 30, floors=(None, BM25_FLOOR)))
    assert {key: short_dense[key] for key, _ in dense[:5]} == dict(dbsf_ids([dense[:5]], 30))
    assert fuse_ids("dbsf", [dense, lone], 1, floors=(None, BM25_FLOOR)) == with_floor[:1]


def test_dbsf_scores_a_deeper_list_like_its_first_window() -> None:
    dense = [(f"d{i:02d}", 1.0 - i / 100) for i in range(60)]
    short, deep = dict(dbsf_ids([dense[:20]], 20)), dict(dbsf_ids([dense], 60))
    assert all(deep[key] == pytest.approx(share) for key, share in short.items())
    assert min(deep.values()) == 0.0  # far below the window's range: clipped, not negative


def test_fusion_is_chosen_by_name_and_an_unknown_name_is_refused() -> None:
    lists = [[("a", 0.9), ("b", 0.8)], [("b", 7.0), ("c", 3.0)]]
    assert fuse_ids("dbsf", lists, 3) == dbsf_ids(lists, 3)
    assert fuse_ids("rrf", lists, 3) == rrf_ids(lists, 3)
    assert check_fusion("rrf") == "rrf"
    with pytest.raises(ValueError, match="unknown fusion 'borda': use one of dbsf, rrf"):
        fuse_ids("borda", lists, 3)


def test_sort_hits_ignores_float_noise() -> None:
    hits = [hit("b", 0.5000000001), hit("a", 0.5), hit("c", 0.9)]
    assert [h.doc_id for h in sort_hits(hits)] == ["c", "a", "b"]


def test_score_band() -> None:
    hits = [hit("a", 1.0), hit("b", 0.8), hit("c", 0.55), hit("d", 0.7)]
    assert [h.doc_id for h in score_band(hits, 0.3)] == ["a", "b"]  # stops at the first one out
    assert [h.doc_id for h in score_band(hits, 0.5)] == ["a", "b", "c", "d"]
    assert score_band(hits, None) == hits
    assert [h.doc_id for h in score_band(hits, 0.0)] == ["a"]
    assert [h.doc_id for h in score_band(hits, 0.0, min_keep=2)] == ["a", "b"]
    assert score_band([], 0.2) == []
    with pytest.raises(ValueError):
        score_band(hits, -0.1)


def test_parse_text_query() -> None:
    q = parse_text_query('insulin "beta cells" -mouse -rat resistance "')
    assert q.terms == ("insulin", "resistance")
    assert q.phrases == ("beta cells",)
    assert q.excluded == ("mouse", "rat")
    assert q.positive_text == "insulin resistance beta cells"
    assert parse_text_query("well-known co-factor").terms == ("well-known", "co-factor")
    assert parse_text_query("- -- x").terms == ("x",)
    assert parse_text_query('""').phrases == ()


def test_is_whole() -> None:
    assert is_whole([hit("a", 1, 0, 2).chunk, hit("a", 1, 1, 2).chunk])
    assert not is_whole([hit("a", 1, 0, 3).chunk, hit("a", 1, 1, 3).chunk])
    assert not is_whole([hit("a", 1, 0, 2, "x").chunk, hit("a", 1, 1, 2, "y").chunk])


def test_tied_cut_keeps_the_whole_tie_with_the_last_place() -> None:
    assert tied_cut([0.9, 0.8, 0.7], 2, 3) == 2  # nothing tied with the second
    assert tied_cut([0.9, 0.8, 0.8, 0.8, 0.5], 2, 5) == 4
    assert tied_cut([0.9, 0.8], 2, 3) == 2  # the engine had no more
    assert tied_cut([0.9, 0.8, 0.8], 2, 4) == 3  # asked for four, got three: the tie ends with the index
    assert tied_cut([0.9, 0.8, 0.8], 2, 3) is None  # the answer ends inside the tie: it may go on
    assert tied_cut([0.9, 0.8, 0.8 + 1e-9], 2, 4) == 3  # equal at six decimals


def test_through_ties_follows_a_tie_past_the_limit_once() -> None:
    scores = [1.0, 0.9] + [0.5] * 30 + [0.1] * (TIE_REACH + 50)
    asked: list[int] = []

    def fetch(n: int) -> list[float]:
        asked.append(n)
        return scores[:n]

    assert through_ties(fetch, float, 3) == scores[:32]
    assert asked == [4, 3 + TIE_REACH]
    asked.clear()
    assert through_ties(fetch, float, 1) == [1.0]
    assert asked == [2]
    asked.clear()
    # A tie longer than the reach: decided among what the second answer holds, with no third query.
    assert through_ties(fetch, float, 40) == scores[: 40 + TIE_REACH]
    assert asked == [41, 40 + TIE_REACH]


def test_a_candidate_list_stops_before_a_tie_across_its_cut() -> None:
    asked: list[int] = []

    def engine(scores: list[float]) -> Callable[[int], list[float]]:
        def fetch(n: int) -> list[float]:
            asked.append(n)
            return scores[:n]
        return fetch

    # Depth 4 (five asked for): no tie across the cut keeps four; a tie there is left out of the candidates when
    # what stays still covers the limit, without asking again, and its scores still count for the statistics.
    five = [0.9, 0.8, 0.7, 0.6, 0.5]
    assert untied_candidates(five, engine([]), float, 4, 2) == (five[:4], five[:4])
    tied = [0.9, 0.8, 0.5, 0.5, 0.5]
    assert untied_candidates(tied, engine([]), float, 4, 2) == ([0.9, 0.8], tied[:4])
    nearly = [0.9, 0.8, 0.5 + 1e-9, 0.5, 0.5]
    assert untied_candidates(nearly, engine([]), float, 4, 2)[0] == [0.9, 0.8]
    assert untied_candidates([0.9, 0.8, 0.7], engine([]), float, 4, 2)[0] == [0.9, 0.8, 0.7]  # the index ran out
    assert asked == []
    # When it would not cover the limit, the whole tie is read, TIE_REACH deep.
    scores = [0.9] + [0.5] * 6 + [0.1]
    assert untied_candidates(scores[:5], engine(scores), float, 4, 2) == (scores[:7], scores[:7])
    assert asked == [4 + TIE_REACH]


def test_dbsf_statistics_can_come_from_scores_left_out_of_the_candidates() -> None:
    full = [("a", 0.9), ("b", 0.8), ("c", 0.5), ("d", 0.5)]
    shares = dict(dbsf_ids([full], 4))
    # The tie (c, d) left out of the list, its scores kept for the statistics: a and b score as before.
    kept = dict(dbsf_ids([full[:2]], 4, stats=[[s for _, s in full]]))
    assert kept == {"a": shares["a"], "b": shares["b"]}
    # Without them the list looks shorter, and its statistics change.
    assert dict(dbsf_ids([full[:2]], 4)) != kept
