"""The evaluation harness: metric definitions and a small end-to-end run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hopgraph.cli import main
from hopgraph.evals.data import EvalError, load_beir
from hopgraph.evals.metrics import SET_KEYS, aggregate, per_query_metrics, rrf, set_metrics
from hopgraph.evals.runner import EvalOptions, evaluate
from hopgraph.index.memory import MemoryBackend
from tests.support.beir import DOCS, write_beir_folder


def _ndcg(gains: list[int], ideal: list[int]) -> float:
    def dcg(g: list[int]) -> float:
        return sum(x / math.log2(i + 2) for i, x in enumerate(g))
    return dcg(gains) / dcg(sorted(ideal, reverse=True))


def test_metrics_match_hand_computed_values() -> None:
    qrels = {"q1": {"a": 1, "b": 1, "z": 0}, "q2": {"c": 2, "d": 1}, "q3": {"e": 1}}
    runs = {
        "q1": ["x", "a", "z", "y", "b"],          # hits at ranks 2 and 5
        "q2": ["d", "c"],                          # graded: the better one second
        "q3": [f"n{i}" for i in range(10)] + ["e"],  # first hit at rank 11: outside every cut-off
    }
    m = per_query_metrics(qrels, runs)
    assert m["q1"]["ndcg@10"] == pytest.approx(_ndcg([0, 1, 0, 0, 1], [1, 1]))
    assert m["q1"]["recall@2"] == 0.5 and m["q1"]["recall@5"] == 1.0
    assert m["q1"]["mrr@10"] == 0.5
    assert m["q1"]["full_support@5"] == 1.0
    assert m["q2"]["ndcg@10"] == pytest.approx(_ndcg([1, 2], [2, 1]))
    assert m["q2"]["recall@2"] == 1.0 and m["q2"]["mrr@10"] == 1.0
    assert m["q3"]["recall@10"] == 0.0 and m["q3"]["mrr@10"] == 0.0 and m["q3"]["ndcg@10"] == 0.0
    assert m["q3"]["full_support@5"] == 0.0
    mean = aggregate(m)
    assert mean["recall@5"] == pytest.approx((1.0 + 1.0 + 0.0) / 3)


def test_empty_and_duplicated_rankings() -> None:
    m = per_query_metrics({"q": {"a": 1, "b": 1}}, {"q": []})
    assert all(v == 0.0 for v in m["q"].values())
    # A repeated id counts once and does not push later ids down.
    m = per_query_metrics({"q": {"a": 1, "b": 1}}, {"q": ["a", "a", "b"]})
    assert m["q"]["recall@2"] == 1.0 and m["q"]["ndcg@10"] == pytest.approx(1.0)


def test_set_metrics_match_hand_computed_values() -> None:
    qrels = {"q1": {"a": 1, "b": 1, "z": 0}, "q2": {"c": 1}, "q3": {"e": 1}, "q4": {"n": 0}}
    runs = {
        "q1": ["a", "x", "z", "a"],   # 3 distinct ids, 1 of 2 relevant: P 1/3, R 1/2, F1 0.4
        "q2": ["c"],                  # exactly right
        "q3": [],                     # nothing reported
        "q4": ["n"],                  # no relevant document: not scored
    }
    m = set_metrics(qrels, runs)
    assert set(m) == {"q1", "q2", "q3"}
    assert m["q1"] == pytest.approx({"reported": 3, "set_precision": 1 / 3, "set_recall": 0.5, "set_f1": 0.4})
    assert m["q2"] == {"reported": 1, "set_precision": 1.0, "set_recall": 1.0, "set_f1": 1.0}
    assert m["q3"] == {"reported": 0, "set_precision": 0.0, "set_recall": 0.0, "set_f1": 0.0}
    mean = aggregate(m, SET_KEYS)
    assert mean["reported"] == pytest.approx(4 / 3) and mean["set_f1"] == pytest.approx(1.4 / 3)


def test_rrf_fuses_and_breaks_ties_by_id() -> None:
    assert rrf([["a", "b"], ["b", "a"]]) == ["a", "b"]
    assert rrf([["a", "b", "c"], ["b", "c"]]) == ["b", "c", "a"]


def write_beir(folder: Path) -> Path:
    queries = [
        {"_id": "q1", "text": "Who painted The Copper Lantern and where did the painter grow up?",
         "answer": "gold answer: Korvath"},
        {"_id": "q2", "text": "What causes tides?", "answer": ""},
        {"_id": "q3", "text": "How do bees make honey?", "answer": ""},
        {"_id": "q4", "text": "A question without judgments", "answer": ""},
    ]
    qrels = [("q1", "lantern"), ("q1", "varnhagen"), ("q2", "tides"), ("q3", "bees")]
    return write_beir_folder(folder, DOCS, queries, qrels)


def test_load_beir_skips_queries_without_qrels(tmp_path: Path) -> None:
    data = load_beir(write_beir(tmp_path / "tiny"))
    assert [q for q, _ in data.queries] == ["q1", "q2", "q3"]
    assert data.skipped == ["q4"]
    with pytest.raises(EvalError):
        load_beir(tmp_path / "missing")
    # Questions kept apart from their corpus bring their own judgments.
    apart = tmp_path / "apart.tsv"
    apart.write_text("query-id\tcorpus-id\tscore\nq4\tbees\t1\n")
    data = load_beir(tmp_path / "tiny", qrels_file=apart)
    assert [q for q, _ in data.queries] == ["q4"] and data.qrels == {"q4": {"bees": 1}}


def test_broken_query_lines_are_named(tmp_path: Path) -> None:
    folder = write_beir(tmp_path / "broken")
    queries = folder / "queries.jsonl"
    lines = queries.read_text().splitlines()
    queries.write_text("\n".join([lines[0], "", '{"_id": "q2", "text": "cut sh', *lines[2:]]) + "\n")
    with pytest.raises(EvalError, match=r"queries.jsonl:3: not a JSON line"):
        load_beir(folder)
    queries.write_text("\n".join([lines[0], '{"_id": "q2"}']) + "\n")
    with pytest.raises(EvalError, match=r"queries.jsonl:2: not a query line with _id and text"):
        load_beir(folder)


def test_evaluate_on_a_given_backend(tmp_path: Path) -> None:
    folder = write_beir(tmp_path / "tiny")
    backend = MemoryBackend()
    for line in (folder / "corpus.jsonl").read_text().splitlines():
        d = json.loads(line)
        backend.add_text(d["_id"], d["title"], d["text"], container="default")
    out = tmp_path / "out"
    opts = EvalOptions(data=str(folder), out=str(out), progress=False, container="default")
    results = evaluate(opts, backend=backend)
    assert results["queries"] == 3 and results["skipped_no_qrels"] == 1
    assert set(results["systems"]) == {"builtin", "hybrid", "bm25", "dense"}
    for m in results["systems"].values():
        assert all(0.0 <= m[k] <= 1.0 for k in ("ndcg@10", "recall@2", "recall@5", "recall@10", "mrr@10"))
    builtin = results["systems"]["builtin"]
    assert builtin["recall@5"] == 1.0
    # The two single-hop questions end after their first round; the multi-hop one follows its bridge.
    assert builtin["exit_reasons"] == {"reported": 3} and 1 < builtin["mean_turns"] < 3
    assert builtin["mean_tool_calls"] >= 3
    assert results["systems"]["hybrid"]["mean_turns"] == 1
    # The graph's report is also scored as a set; the fixed-depth baselines are not.
    assert 1 <= builtin["reported"] <= 10 and 0.0 < builtin["set_f1"] <= 1.0 and builtin["set_recall"] == 1.0
    assert "set_f1" not in results["systems"]["hybrid"]
    saved = json.loads((out / "results.json").read_text())
    assert saved["systems"]["builtin"]["recall@5"] == 1.0
    assert "| `builtin` |" in (out / "results.md").read_text()
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((out / "per_query.jsonl").read_text().splitlines()) == 3 * 4


def test_cli_builds_then_reuses_the_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_beir(tmp_path / "tiny")
    args = ["eval", "--data", str(folder), "--cache", str(tmp_path / "idx"), "--out", str(tmp_path / "out"),
            "--quiet", "--limit", "2"]
    assert main(args) == 0
    first = json.loads((tmp_path / "out" / "results.json").read_text())
    assert first["index"]["reused"] is False and first["index"]["documents"] == 6
    assert first["index"]["path"].startswith(str(tmp_path / "idx"))
    assert first["queries"] == 2
    captured = capsys.readouterr()
    assert "| `builtin` |" in captured.out and "| `hybrid` |" in captured.out
    assert "deprecated" not in captured.err
    from hopgraph.index.factory import close_all

    close_all()
    # --index, the option's old name, still works, and says what to use instead.
    assert main([("--index" if a == "--cache" else a) for a in args]) == 0
    assert "warning: hopgraph eval --index is deprecated" in capsys.readouterr().err
    second = json.loads((tmp_path / "out" / "results.json").read_text())
    assert second["index"]["reused"] is True
    assert second["systems"]["builtin"] == {**second["systems"]["builtin"], **{
        k: first["systems"]["builtin"][k] for k in ("ndcg@10", "recall@5", "mrr@10")}}
    # A changed corpus gets a fresh index.
    with (folder / "corpus.jsonl").open("a") as f:
        f.write(json.dumps({"_id": "extra", "title": "Extra", "text": "One more document."}) + "\n")
    close_all()
    assert main(args) == 0
    third = json.loads((tmp_path / "out" / "results.json").read_text())
    assert third["index"]["reused"] is False and third["index"]["documents"] == 7
    close_all()


def test_cli_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--data", str(tmp_path / "nope"), "--quiet"]) == 2
    assert "error:" in capsys.readouterr().err
    folder = write_beir(tmp_path / "tiny")
    assert main(["eval", "--data", str(folder), "--runs", "0", "--quiet", "--cache", str(tmp_path / "i")]) == 2
    assert "--runs" in capsys.readouterr().err
    # The old name and the new one at once: which one was meant is not guessed.
    both = ["eval", "--data", str(folder), "--quiet", "--cache", str(tmp_path / "a"), "--index", str(tmp_path / "b")]
    assert main(both) == 2
    assert "error: --index is the old name of --cache: give only --cache" in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_an_index_another_process_is_building_is_left_to_it(tmp_path: Path) -> None:
    """Two evaluations of one corpus at once: the second must not remove the index the first is still building
    (no ready mark yet); it fails naming the process that holds it, and a later run clears what was left."""
    import subprocess
    import sys

    from hopgraph.evals.index import corpus_key, open_eval_index
    from hopgraph.index.backend import IndexLockedError
    from hopgraph.index.factory import close_all

    folder = write_beir(tmp_path / "tiny")
    corpus = folder / "corpus.jsonl"
    building = tmp_path / "idx" / f"tiny-{corpus_key(corpus, 'minilm', 'float')}"
    building.mkdir(parents=True)
    (building / "segment.part").write_text("written by the run still building")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from hopgraph.index.edge_dir import lock_dir; "
         "lock_dir(Path(sys.argv[1])); print('locked', flush=True); sys.stdin.read()", str(building)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(IndexLockedError, match=f"another process \\(pid {holder.pid}\\)"):
            open_eval_index(corpus, "tiny", index_root=str(tmp_path / "idx"), progress=False, doc_precision="float")
        assert (building / "segment.part").read_text() == "written by the run still building"
    finally:
        holder.communicate("")
    # The holder is gone without marking the index ready: the next run removes the leftovers and builds it.
    backend, info = open_eval_index(corpus, "tiny", index_root=str(tmp_path / "idx"), progress=False,
                                    doc_precision="float")
    try:
        assert info["reused"] is False and info["documents"] == 6
        assert not (building / "segment.part").exists()
    finally:
        close_all()
