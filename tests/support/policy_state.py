"""A built-in ids policy state made by hand: a question and the documents its first round found, in rank order."""

from __future__ import annotations

from hopgraph.policies.ids.state import State
from hopgraph.policies.text import terms


def planner_state(question: str, docs: dict[str, tuple[str, str]], hops_done: int = 0) -> State:
    """``docs`` maps a document id to (title, text); each ranks in both lists where it stands in the dict."""
    state = State(question=question, qterms=set(terms(question)))
    for rank, (doc, (title, text)) in enumerate(docs.items(), start=1):
        state.titles[doc], state.texts[doc], state.depth[doc] = title, text, 0
        state.first[doc] = 1.0 / (60 + rank)
        state.hybrid_rank[doc] = state.text_rank[doc] = rank
    state.hops_done = hops_done
    return state
