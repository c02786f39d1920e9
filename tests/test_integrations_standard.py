"""LangChain's own standard test suites (langchain-tests), unmodified, against HopgraphRetriever and as_tool(...) over a
real embedded index; plus what the suites leave to the integration: ``k`` as an upper bound, and arguments refused."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import RetrieversIntegrationTests, ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests
from pydantic import ValidationError

from hopgraph import Context, HopgraphRetriever, as_tool, run
from tests.support.contracts import (
    QUESTION,
    contract_context,
    contract_index,  # noqa: F401 (the index fixture)
)

# Every container of the contract index: four documents, so a query can fill k=3.
CONTAINERS = ("legal", "default", "hr")


def context(index: str, **overrides: Any) -> Context:
    return contract_context(index, CONTAINERS, **overrides)


class _OnTheIndex:
    """The suites read their settings from properties; the index path comes from the module's fixture."""

    index_path = ""

    @pytest.fixture(autouse=True)
    def _on_the_index(self, index: str) -> None:
        self.index_path = index


class TestRetrieverStandard(_OnTheIndex, RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[HopgraphRetriever]:
        return HopgraphRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"context": context(self.index_path)}

    @property
    def retriever_query_example(self) -> str:
        return QUESTION


class _IdsTool(_OnTheIndex):
    @property
    def tool_constructor(self) -> BaseTool:
        return as_tool(context=context(self.index_path), mode="ids")

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"question": QUESTION}


class _AnswerTool(_IdsTool):
    @property
    def tool_constructor(self) -> BaseTool:
        return as_tool(context=context(self.index_path), mode="answer")


# The suites allow one standard base per class: the settings come from the mixins above.
class TestIdsToolStandardUnit(_IdsTool, ToolsUnitTests):
    pass


class TestIdsToolStandardIntegration(_IdsTool, ToolsIntegrationTests):
    pass


class TestAnswerToolStandardUnit(_AnswerTool, ToolsUnitTests):
    pass


class TestAnswerToolStandardIntegration(_AnswerTool, ToolsIntegrationTests):
    pass


def test_k_is_an_upper_bound_kept_in_the_reported_order(index: str) -> None:
    full = run(QUESTION, context=context(index))["reported_ids"]
    assert len(full) >= 3
    retriever = HopgraphRetriever(context=context(index), k=2)
    assert [d.id for d in retriever.invoke(QUESTION)] == full[:2]
    # Per call, k overrides the retriever's own, both ways; the ranks stay 1..n.
    assert [d.id for d in retriever.invoke(QUESTION, k=1)] == full[:1]
    wider = retriever.invoke(QUESTION, k=50)
    assert [d.id for d in wider] == full and [d.metadata["rank"] for d in wider] == list(range(1, len(full) + 1))
    # A k above the context's own bound does not lift it.
    capped = HopgraphRetriever(context=context(index, max_reported_ids=2), k=5)
    assert [d.id for d in capped.invoke(QUESTION)] == full[:2]


async def test_k_per_call_works_async_and_in_batches(index: str) -> None:
    retriever = HopgraphRetriever(context=context(index))
    full = [d.id for d in retriever.invoke(QUESTION)]
    assert [d.id for d in await retriever.ainvoke(QUESTION, k=2)] == full[:2]
    assert [[d.id for d in docs] for docs in retriever.batch([QUESTION, QUESTION], k=1)] == [full[:1]] * 2


def test_unknown_or_bad_arguments_are_refused(index: str) -> None:
    with pytest.raises(ValidationError, match="bogus"):
        HopgraphRetriever(context=context(index), k=3, bogus=1)  # type: ignore[call-arg]
    for bad in (0, -1):
        with pytest.raises(ValidationError, match="k"):
            HopgraphRetriever(context=context(index), k=bad)
    retriever = HopgraphRetriever(context=context(index))
    with pytest.raises(TypeError, match="bogus"):
        retriever.invoke(QUESTION, bogus=1)
    for bad_k in (0, "3", True):
        with pytest.raises(ValueError, match="k must be a whole number"):
            retriever.invoke(QUESTION, k=bad_k)
