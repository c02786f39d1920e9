"""Answers over a small folder of documents of a kind the demo corpus lacks (tests/support/answer_dev: bakeries,
vans, ovens, flour purchases), ingested with the real loaders into the default embedded index and answered through
the real tools:
sums, differences and products computed with run_python from cited rows and sentences; a sentence read with its
paragraph's opening; "not found" when nothing speaks of the thing asked for; a follow-up about the thread's subject.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage

from hopgraph.citations import resolve_citations
from hopgraph.config import Context
from hopgraph.index.factory import close_backend, open_backend
from hopgraph.index.ingest import ingest_paths
from hopgraph.policies.answer.aggregate import asks_for_arithmetic, plan_aggregate
from hopgraph.policies.answer.builtin import BuiltinAnswerPolicy
from hopgraph.policies.answer.evidence import Passage
from tests.test_answer_harness import Conversation, converse

DOCS = Path(__file__).resolve().parent / "support" / "answer_dev" / "docs"
CONTAINERS = ["finance", "ops"]


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The folder in the default embedded index (hybrid search), as a user who ingests it gets."""
    index_dir = str(tmp_path_factory.mktemp("answer-folder-index"))
    backend = open_backend(index_dir=index_dir)
    try:
        for name in CONTAINERS:
            ingest_paths(backend, [DOCS / name], container=name)
        yield backend
    finally:
        close_backend(index_dir=index_dir)


def _answer(backend: Any, question: str, run_python: bool = True) -> tuple[list[list[str]], str, set[str],
                                                                                         list[ToolMessage]]:
    context = Context(mode="answer", containers=CONTAINERS, run_python=run_python)
    conv = converse(BuiltinAnswerPolicy(containers=CONTAINERS, run_python=run_python), backend, context, question)
    cited = resolve_citations(conv.answer, conv.ledger.turn_memory.get("refs", {}))
    assert cited.unknown_markers == 0
    names = [[c["name"] for c in batch] for batch in conv.batches]
    outputs = [m for m in conv.messages if isinstance(m, ToolMessage) and m.name == "run_python"]
    return names, conv.answer, {c.doc_id for c in cited.citations}, outputs


def test_a_sum_over_the_table_rows_the_question_names(backend: Any) -> None:
    names, answer, docs, outputs = _answer(backend, "How many tonnes of flour did we buy in Q1 and Q2 combined?")
    assert names[-1] == ["run_python"] and outputs[-1].artifact["ok"]
    assert "84 + 96 = 180" in answer and "(Flour tonnes)" in answer
    # Each row a number came from is quoted and cited; the third quarter's is not used.
    assert "Quarter: Q1" in answer and "Quarter: Q2" in answer and "Quarter: Q3" not in answer
    assert docs == {"finance/flour-purchases-2026.csv"}


def test_a_difference_takes_the_item_before_than_minus_the_one_after(backend: Any) -> None:
    _, answer, _, _ = _answer(backend, "How much more flour did we buy in Q2 than in Q1?")
    assert "96 − 84 = 12" in answer


def test_a_rate_per_unit_times_the_count_of_units(backend: Any) -> None:
    _, answer, docs, _ = _answer(backend, "What is the total oven power at the Eastgate bakery?")
    assert "6 × 22 = 132 kW" in answer and "Bakery: Eastgate" in answer and docs == {"ops/ovens.csv"}


def test_counts_written_in_words_next_to_the_names_the_question_gives(backend: Any) -> None:
    _, answer, docs, _ = _answer(backend, "How many delivery vans do the Fennel and Sorrel fleets have altogether?")
    assert "four + three = 7" in answer and "four Fennel vans" in answer and "three Sorrel vans" in answer
    assert docs == {"ops/delivery-vans.md"}


def test_without_run_python_the_answer_gives_the_numbers_and_says_it_did_not_compute(backend: Any) -> None:
    names, answer, _, outputs = _answer(backend, "How many tonnes of flour did we buy in Q1 and Q2 combined?",
                                        run_python=False)
    assert not outputs and all("run_python" not in n for n in names)
    assert "Not calculated: run_python is not available here" in answer and "84 + 96" in answer
    assert "180" not in answer


def test_questions_that_ask_for_no_number_compute_nothing() -> None:
    rows = Passage(ref="S1", title="flour", text="Quarter,Supplier,Flour tonnes\nQ1,Greystone,84\nQ2,Greystone,96\n",
                   rank=1, round=1, kind="table", source="flour.csv")
    assert plan_aggregate("Who played together with Q1 and Q2?", [rows]) is None
    assert plan_aggregate("How many tonnes did we buy in Q1?", [rows]) is None  # one number: nothing to add
    assert asks_for_arithmetic("How much more did we buy in Q2 than in Q1?") == "difference"
    assert asks_for_arithmetic("What was bought in Q2?") == ""
    both = plan_aggregate("How many tonnes of flour in Q1 and Q2 in total?", [rows])
    assert both is not None and both.op == "sum" and [o.value for o in both.operands] == [84.0, 96.0]


def test_a_sentence_is_read_with_the_opening_of_its_paragraph(backend: Any) -> None:
    # Each bakery's paragraph says "The site manager is ..."; only the opening names the bakery.
    _, answer, docs, _ = _answer(backend, "Who is the site manager of the Eastgate bakery?")
    assert "Marek Dvorak" in answer and "Ines Carvalho" not in answer and "Hannah Lowe" not in answer
    assert "Eastgate bakery: 7 Foundry Lane" in answer and docs == {"ops/bakeries.md"}


def test_nothing_about_the_thing_asked_for_is_not_found(backend: Any) -> None:
    # The bakery is found, its address too, but no document speaks of a parking policy.
    _, answer, docs, _ = _answer(backend, "What is the parking policy for staff at the Millbrook bakery?")
    assert answer == "Not found in the documents you can search (containers: finance, ops)." and not docs


def test_a_follow_up_reads_the_paragraph_of_the_threads_subject(backend: Any) -> None:
    context = Context(mode="answer", containers=CONTAINERS)
    policy = BuiltinAnswerPolicy(containers=CONTAINERS)
    conv = converse(policy, backend, context, "When was the Riverside bakery refitted?")
    conv = converse(policy, backend, context, "Who is its site manager?", conversation=conv)
    assert isinstance(conv, Conversation) and "Hannah Lowe" in conv.answer and "Ines Carvalho" not in conv.answer



def test_a_run_stopped_without_an_answer_gets_the_policys_own_answer_from_its_searches(backend: Any) -> None:
    # The graph's finalize step answers a run that stopped (its last search found nothing new, or the round cap)
    # from the run's messages: the same answer the policy gives from those searches.
    from hopgraph.policies.answer.builtin import compose_extractive_answer

    question = "Who is the site manager of the Eastgate bakery?"
    context = Context(mode="answer", containers=CONTAINERS)
    conv = converse(BuiltinAnswerPolicy(containers=CONTAINERS), backend, context, question)
    refs = conv.ledger.turn_memory["refs"]
    stopped = conv.messages[:-1]  # without the final answer
    assert compose_extractive_answer(question, refs, CONTAINERS, stopped) == conv.answer
    assert "Marek Dvorak" in conv.answer


def test_the_row_with_the_extreme_value_of_the_column_the_question_names(backend: Any) -> None:
    _, answer, docs, _ = _answer(backend, "Which bakery has the most ovens?")
    assert answer.startswith("Bakery: Eastgate") and "the most Ovens (6) of the 3 rows found" in answer
    assert docs == {"ops/ovens.csv"}
    # Two parts: the row's name is the bridge to the second part.
    names, answer, docs, _ = _answer(backend, "Which bakery has the most ovens, and who is its site manager?")
    assert names == [["search_documents"], ["search_documents"]] and "Bakery: Eastgate" in answer


def test_an_extreme_shared_by_two_rows_picks_none() -> None:
    from hopgraph.policies.answer.aggregate import extreme_row

    rows = Passage(ref="S1", title="scores", text="Supplier,Category,Quality score\nA,x,4.0\nB,y,4.0\nC,z,3.0\n",
                   rank=1, round=1, kind="table", source="scores.csv")
    assert extreme_row("Which supplier has the highest quality score?", [rows]) is None
    low = extreme_row("Which supplier has the lowest quality score?", [rows])
    assert low is not None and low.name == "C" and (low.value, low.compared) == ("3.0", 3)
    assert extreme_row("Which supplier is the most reliable?", [rows]) is None  # no column named


def test_closeness_in_meaning_is_an_opt_in_score_term(monkeypatch: pytest.MonkeyPatch) -> None:
    from hopgraph.policies.answer.evidence import stems
    from hopgraph.policies.answer.meaning import meaning_weight, similarities
    from hopgraph.policies.answer.select import best_sentences

    sims = similarities("Who services the vans?", ["Every van is serviced each quarter by Cole Motors.",
                                                   "The price of flour is fixed once a quarter."])
    assert sims is not None and sims[0] > sims[1] + 0.1
    text = "The vans park at the depot. Every van is serviced each quarter by Cole Motors."
    passage = Passage(ref="S1", title="Delivery vans", text=text, rank=1, round=1, kind="md")
    question = "Who services the vans?"
    monkeypatch.delenv("HOPGRAPH_ANSWER_MEANING", raising=False)
    assert meaning_weight() == 0.0
    plain = {c.text: c.score for c in best_sentences([passage], stems(question), question)}
    monkeypatch.setenv("HOPGRAPH_ANSWER_MEANING", "1.5")
    assert meaning_weight() == 1.5
    weighted = {c.text: c.score for c in best_sentences([passage], stems(question), question)}
    texts = list(plain)
    cosines = similarities(question, [f"Delivery vans: {t}" for t in texts])
    assert cosines is not None
    for t, cos in zip(texts, cosines, strict=True):
        assert weighted[t] == pytest.approx(plain[t] + 1.5 * cos)
    monkeypatch.setenv("HOPGRAPH_ANSWER_MEANING", "not a number")
    assert meaning_weight() == 0.0
