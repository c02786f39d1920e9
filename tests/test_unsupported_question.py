"""A question nothing in the index supports gets an empty list from the built-in policy, and every adapter says so
alike (run, retriever, tool; MCP in test_integrations_mcp)."""

from __future__ import annotations

from typing import Any

import pytest

from hopgraph import Context, HopgraphRetriever, as_tool, run
from tests.support.contracts import (
    QUESTION,
    contract_context,
    contract_index,  # noqa: F401 (the index fixture)
)

NOTHING = ["zzzz qqqq", "?", "qwertyuiop asdfgh"]


def context(index: str, **overrides: Any) -> Context:
    return contract_context(index, ("legal", "default"), **overrides)


@pytest.mark.parametrize("question", NOTHING)
def test_nothing_is_reported_when_no_document_holds_a_word_of_the_question(index: str, question: str) -> None:
    result = run(question, context=context(index))
    assert result["reported_ids"] == [] and result["exit_reason"] == "reported" and not result.get("error")
    # One round: the hybrid search found its nearest neighbours, BM25 nothing; no bridge was followed.
    [round_] = result["trace"]
    assert [c["name"] for c in round_["tool_calls"]] == ["search", "text_search"]
    assert round_["new_docs"]


@pytest.mark.parametrize("question", NOTHING)
def test_the_retriever_and_the_tool_return_nothing_too(index: str, question: str) -> None:
    assert HopgraphRetriever(context=context(index)).invoke(question) == []
    assert as_tool(context=context(index), mode="ids").invoke({"question": question}) == (
        "No relevant documents were found."
    )
    answer = as_tool(context=context(index), mode="answer").invoke({"question": question})
    assert answer.startswith("Not found in the documents") and "Sources:" not in answer


def test_a_question_with_words_in_the_index_still_gets_its_documents(index: str) -> None:
    result = run(QUESTION, context=context(index))
    assert result["reported_ids"][0] == "nordlicht"


def test_a_phrase_or_an_exclusion_that_finds_nothing_does_not_empty_the_report(index: str) -> None:
    # BM25 search takes "a phrase" and -word as filters: its finding nothing is no proof that no document holds
    # the question's words.
    for question in ('Which supplier pays a "delay fine of 7 percent"?', "Which supplier pays a penalty -delay"):
        result = run(question, context=context(index))
        assert result["reported_ids"], question
