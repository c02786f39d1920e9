"""The answer evaluation: scores, data loading, a run over a small corpus, the CLI on the demo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hopgraph.cli import main
from hopgraph.evals.answer_data import item_from, load_beir_answers, load_demo_answers
from hopgraph.evals.answer_metrics import (
    aggregate_answers,
    contains,
    evidence_recall,
    is_not_found,
    normalize,
    score_answer,
)
from hopgraph.evals.answer_runner import AnswerEvalOptions, evaluate_answers
from hopgraph.evals.data import EvalError
from hopgraph.index.memory import MemoryBackend
from tests.support.beir import DOCS, write_beir_folder

DEMO_QUESTIONS = Path(__file__).resolve().parents[1] / "hopgraph" / "demo" / "questions.json"


def test_normalisation_and_containment() -> None:
    assert normalize("The Émile-Zola  Prize, 48,200 EUR!") == "emile zola prize 48200 eur"
    assert contains("The warranty is three years from delivery.", "three years")
    assert contains("no later than 1 January [2].", "1 January")
    assert contains("a penalty of 2,169 EUR", "2169")
    assert contains("It was painted by Ilse Varnhagen.", "the Ilse Varnhagen")  # articles do not count
    assert not contains("capped at 100 percent", "10")  # word boundaries
    assert not contains("anything", "")
    assert is_not_found("Not found in the documents you can search (containers: default, legal).")
    assert is_not_found("I could not find this in the documents.")
    assert not is_not_found("The cause was not found in the logs, but a door seal was loose.")


def test_scores_of_one_answer() -> None:
    cites = [{"doc_id": "a"}, {"doc_id": "x"}, {"doc_id": "a"}]  # a document cited twice counts once
    s = score_answer("It was G. Stanley Hall [1][2].", cites, answers=["Granville Hall", "Stanley Hall"],
                     relevant={"a", "b"})
    assert s["contained"] is True  # the alias is inside
    assert s["cited_documents"] == 2 and s["citation_precision"] == 0.5 and s["citation_recall"] == 0.5
    facts = score_answer("PO-4471, 48,200 EUR [1].", [{"doc_id": "a"}], facts=["PO-4471", "48,200", "1.5 percent"])
    assert facts["contained"] is False and facts["fact_recall"] == pytest.approx(2 / 3)
    assert facts["citation_precision"] is None  # no qrels: not defined
    # "Not found" is right for an unanswerable question, and never counts as containing the gold answer.
    assert score_answer("Not found in the documents you can search.", [], answerable=False)["contained"] is True
    assert score_answer("Some sentence [1].", [{"doc_id": "a"}], answerable=False)["contained"] is False
    wrong = score_answer("Not found in the documents you can search.", [], answers=["documents"])
    assert wrong["contained"] is False and wrong["not_found"] is True
    # A gold answer the question names counts only as the answer's first sentence: quoting both options
    # of "A or B?" is no answer.
    choice = "Who is older, Sid Haig or Vic Darchinyan?"
    assert score_answer("Sid Haig. Sid Haig (born 1939) [1]. Vic Darchinyan (born 1976) [2].", [],
                        answers=["Sid Haig"], question=choice)["contained"] is True
    assert score_answer("Vic Darchinyan. Vic Darchinyan (born 1976) [1]. Sid Haig (born 1939) [2].", [],
                        answers=["Sid Haig"], question=choice)["contained"] is False
    assert score_answer("Born 1939, Sid Haig is older [1].", [], answers=["Sid Haig"])["contained"] is True
    none_cited = score_answer("Korvath.", [], answers=["Korvath"], relevant={"a"})
    assert none_cited["citation_precision"] is None and none_cited["citation_recall"] == 0.0


def test_evidence_recall_counts_the_relevant_documents_the_run_read() -> None:
    assert evidence_recall(["a", "x"], {"a", "b"}) == 0.5
    assert evidence_recall([], {"a"}) == 0.0
    # Undefined, not zero, where nothing was expected to be read.
    assert evidence_recall(["a"], set()) is None and evidence_recall(["a"], {"a"}, answerable=False) is None
    m = aggregate_answers([{"answerable": True, "contained": True, "not_found": False, "evidence_recall": 1.0},
                           {"answerable": True, "contained": False, "not_found": False, "evidence_recall": 0.0},
                           {"answerable": True, "contained": False, "not_found": False, "evidence_recall": None}])
    assert m["evidence_recall"] == 0.5


def test_aggregate_skips_undefined_scores() -> None:
    per_query: list[dict[str, Any]] = [
        {"answerable": True, "contained": True, "not_found": False, "fact_recall": None,
         "citation_precision": 1.0, "citation_recall": 0.5},
        {"answerable": True, "contained": False, "not_found": True, "fact_recall": None,
         "citation_precision": None, "citation_recall": 0.0},
        {"answerable": False, "contained": True, "not_found": True},
    ]
    m = aggregate_answers(per_query)
    assert m["containment"] == 0.5 and m["citation_precision"] == 1.0 and m["citation_recall"] == 0.25
    assert m["not_found_correct"] == 1.0 and m["false_not_found"] == 0.5 and m["fact_recall"] is None
    assert (m["answerable"], m["unanswerable"]) == (2, 1)


def write_answers(folder: Path) -> Path:
    queries: list[dict[str, Any]] = [
        {"_id": "q1", "text": "Who painted The Copper Lantern?", "answer": "Ilse Varnhagen"},
        {"_id": "q2", "text": "Which river flows through the town where the painter of The Copper Lantern grew up?",
         "answer": "the Seline", "answer_aliases": ["Seline river"]},
        {"_id": "q3", "text": "What causes tides?", "facts": ["moon", "sun"]},
        {"_id": "q4", "text": "What is the airspeed of an unladen swallow?", "answerable": False},
        {"_id": "q5", "text": "Who painted The Copper Lantern?", "follow_up": "Where did she grow up?",
         "answer": "Korvath"},
        {"_id": "q6", "text": "A question without a gold answer"},
    ]
    qrels = [("q1", "lantern"), ("q2", "lantern"), ("q2", "varnhagen"), ("q2", "korvath"), ("q3", "tides"),
             ("q5", "varnhagen")]
    return write_beir_folder(folder, DOCS[:5], queries, qrels)


def test_loading_beir_answers_and_the_demo_layout(tmp_path: Path) -> None:
    items, skipped = load_beir_answers(write_answers(tmp_path / "tiny"))
    assert [i.qid for i in items] == ["q1", "q2", "q3", "q4", "q5"] and skipped == 1
    q2 = items[1]
    assert q2.answers == ["the Seline", "Seline river"] and q2.relevant == {"lantern", "varnhagen", "korvath"}
    assert items[2].facts == ["moon", "sun"] and items[3].answerable is False and items[3].relevant == set()
    assert items[4].follow_up == "Where did she grow up?"
    demo, demo_skipped = load_demo_answers(DEMO_QUESTIONS)
    assert len(demo) == 8 and demo_skipped == 0
    amount = next(i for i in demo if i.qid == "late-order-penalty-amount")
    assert "2169" in amount.facts and "PO-4471" in amount.facts  # the calculation's result is a fact too
    assert amount.relevant == {"INC-2026-031-late-housing-delivery.pdf", "orders.xlsx.pdf",
                               "nordlicht-supply-agreement.pdf"}
    assert amount.containers == ["default", "legal", "finance"]


def test_bad_question_lines_are_named(tmp_path: Path) -> None:
    with pytest.raises(EvalError, match="needs an id"):
        item_from({"answer": "x"}, "queries.jsonl:3")
    with pytest.raises(EvalError, match="string or a list of strings"):
        item_from({"_id": "q", "text": "t", "answer": 5}, "queries.jsonl:4")
    folder = write_answers(tmp_path / "bad")
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "ok", "answer": "a"}\nnot json\n')
    with pytest.raises(EvalError, match="queries.jsonl:2"):
        load_beir_answers(folder)


def test_answer_evaluation_on_a_given_backend(tmp_path: Path) -> None:
    folder = write_answers(tmp_path / "tiny")
    backend = MemoryBackend()
    for line in (folder / "corpus.jsonl").read_text().splitlines():
        d = json.loads(line)
        backend.add_text(d["_id"], d["title"], d["text"], container="default")
    out = tmp_path / "out"
    results = evaluate_answers(AnswerEvalOptions(data=str(folder), out=str(out), progress=False,
                                                 container="default"), backend=backend)
    m = results["systems"]["builtin"]
    assert results["queries"] == 5 and results["skipped_no_answer"] == 1
    records = {json.loads(line)["qid"]: json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()}
    assert records["q1"]["contained"] and "Ilse Varnhagen" in records["q1"]["answer"]
    assert records["q1"]["cited"] and records["q1"]["citation_precision"] == 1.0
    assert records["q1"]["citations"][0]["doc_id"] == "lantern" and records["q1"]["cited_documents"] == 1
    assert records["q3"]["contained"] and records["q3"]["fact_recall"] == 1.0
    # The unanswerable question is answered "not found", naming the container searched.
    assert records["q4"]["not_found"] and "(container: default)" in records["q4"]["answer"]
    # The follow-up is asked on the same thread, after its first question.
    assert records["q5"]["contained"] and "Korvath" in records["q5"]["answer"]
    assert m["not_found_correct"] == 1.0 and m["false_not_found"] == 0.0
    assert m["containment"] == pytest.approx(sum(records[q]["contained"] for q in ("q1", "q2", "q3", "q5")) / 4)
    assert m["mean_turns"] >= 2 and m["latency_ms_p50"] > 0 and sum(m["exit_reasons"].values()) == 5
    saved = json.loads((out / "results.json").read_text())
    assert saved["mode"] == "answer" and saved["systems"]["builtin"]["containment"] == m["containment"]
    assert "| `builtin` |" in (out / "results.md").read_text()
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_answer_mode_on_the_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo-out"
    assert main(["eval", "--mode", "answer", "--data", "demo", "--out", str(out), "--quiet", "--limit", "2"]) == 0
    printed = capsys.readouterr().out
    assert "## demo: 2 questions, answer mode" in printed and "| `builtin` |" in printed
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    assert [r["qid"] for r in records] == ["late-supplier-penalty", "late-order-penalty-amount"]
    assert all(r["contained"] for r in records), [r["answer"] for r in records]
    assert "2,169 EUR" in records[1]["answer"]


def test_cli_answer_mode_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_answers(tmp_path / "tiny")
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "A question"}\n')
    code = main(["eval", "--mode", "answer", "--data", str(folder), "--quiet", "--cache", str(tmp_path / "idx")])
    assert code != 0 and "carries an answer" in capsys.readouterr().err
    code = main(["eval", "--mode", "answer", "--data", "demo", "--rerank", "http:x", "--quiet"])
    assert code != 0 and "--mode ids only" in capsys.readouterr().err


def test_more_demo_corpus_questions_with_follow_ups_and_unanswerable_ones() -> None:
    from tests.test_answer_harness import demo_backend

    more = Path(__file__).resolve().parent / "support" / "demo_more_questions.json"
    results = evaluate_answers(AnswerEvalOptions(data="demo", queries=str(more), progress=False),
                               backend=demo_backend())
    m = results["systems"]["builtin"]
    assert (m["answerable"], m["unanswerable"]) == (14, 2)
    # Both questions the corpus cannot answer say so, and no answerable one does.
    assert m["not_found_correct"] == 1.0 and m["false_not_found"] == 0.0
    assert m["containment"] >= 12 / 14


def test_a_qrels_file_given_apart_from_the_corpus(tmp_path: Path) -> None:
    folder = write_answers(tmp_path / "tiny")
    apart = tmp_path / "held-out-qrels.tsv"
    apart.write_text("query-id\tcorpus-id\tscore\nq1\tvarnhagen\t1\n")
    items, _ = load_beir_answers(folder, qrels_file=apart)
    assert items[0].relevant == {"varnhagen"} and items[1].relevant == set()
    with pytest.raises(EvalError, match="does not exist"):
        load_beir_answers(folder, qrels_file=tmp_path / "missing.tsv")


def write_folder_layout(root: Path, expected: str) -> Path:
    """A user's own folder: docs/<container>/... and questions.json naming files relative to docs/."""
    for rel, text in (("ops/depots/north.md", "# North depot\n\nThe North depot is managed by Rhian Castell."),
                      ("ops/notes.md", "# Notes\n\nThe yard gate opens at six."),
                      ("finance/costs.csv", "depot,q1\nNorth,1200\n")):
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(text)
    questions = [{"id": "m1", "question": "Who manages the North depot?", "containers": ["ops"],
                  "expected_files": [expected], "facts": ["Rhian Castell"]}]
    (root / "questions.json").write_text(json.dumps(questions))
    return root


def test_answer_evaluation_on_a_folder_of_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder_layout(tmp_path / "mine", "ops/depots/north.md")
    out = tmp_path / "out"
    assert main(["eval", "--mode", "answer", "--data", str(folder), "--out", str(out), "--quiet"]) == 0
    assert "## mine: 1 questions, answer mode" in capsys.readouterr().out
    record = json.loads((out / "per_query.jsonl").read_text())
    assert record["contained"] and "Rhian Castell" in record["answer"]
    # The expected file became the id ingest gave it, so the citation of that file counts.
    assert record["citation_precision"] == 1.0 and record["citation_recall"] == 1.0
    # The run read the expected file, and the other container's file was never searched.
    assert record["evidence_recall"] == 1.0 and not any("finance" in doc for doc in record["read"])
    saved = json.loads((out / "results.json").read_text())
    assert saved["systems"]["builtin"]["evidence_recall"] == 1.0
    assert "| read R |" in (out / "results.md").read_text()
    assert saved["index"]["containers"] == ["finance", "ops"]


def test_a_folder_question_naming_a_file_that_was_not_ingested_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_folder_layout(tmp_path / "mine", "ops/depots/south.md")
    assert main(["eval", "--mode", "answer", "--data", str(folder), "--quiet"]) != 0
    assert "m1" in (err := capsys.readouterr().err) and "ops/depots/south.md" in err


def test_the_fixed_split_into_a_looked_at_and_a_scored_part(tmp_path: Path) -> None:
    from hopgraph.evals.split import in_part, part_of

    # The part depends on the id alone: the SHA-1 of "q1" is even, that of "q2" odd.
    assert (part_of("q1"), part_of("q2")) == ("look", "score")
    ids = [f"q{i}" for i in range(200)]
    looked = [q for q in ids if in_part(q, "look")]
    assert 80 < len(looked) < 120 and set(looked).isdisjoint(q for q in ids if in_part(q, "score"))
    assert all(in_part(q, None) for q in ids)
    with pytest.raises(ValueError, match="look, score"):
        in_part("q1", "seen")
    folder = write_answers(tmp_path / "tiny")
    backend = MemoryBackend()
    for line in (folder / "corpus.jsonl").read_text().splitlines():
        d = json.loads(line)
        backend.add_text(d["_id"], d["title"], d["text"], container="default")
    parts = {}
    for part in ("look", "score"):
        out = tmp_path / part
        results = evaluate_answers(AnswerEvalOptions(data=str(folder), out=str(out), progress=False,
                                                     container="default", part=part), backend=backend)
        parts[part] = {json.loads(line)["qid"] for line in (out / "per_query.jsonl").read_text().splitlines()}
        assert results["part"] == part and f"the {part} part of the split" in (out / "results.md").read_text()
        assert all(part_of(q) == part for q in parts[part])
    assert parts["look"] and parts["score"] and len(parts["look"] | parts["score"]) == 5


def test_part_is_refused_in_ids_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--data", "demo", "--part", "look", "--quiet"]) != 0
    assert "--part applies to --mode answer only" in capsys.readouterr().err
