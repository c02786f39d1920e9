"""A currency code is no bridge: "EUR" of "above EUR 50,000" names no document to follow."""

from __future__ import annotations

from hopgraph.policies.answer.bridge import find_bridge
from hopgraph.policies.answer.evidence import AnswerState, Passage


def test_a_currency_is_no_bridge() -> None:
    question = "Who has to co-sign the bigger supplier contracts?"
    policy = Passage(ref="S1", title="Contract approval policy", text="Bigger supplier contracts, above EUR 50,000, "
                     "are co-signed by the finance director.", rank=1, round=1, ranks={1: 1}, kind="md")
    assert find_bridge(AnswerState(question=question, passages=[policy]), question) is None
