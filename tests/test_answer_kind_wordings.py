"""Wordings whose kind of answer was missed: "which of the firmware engineers ..." asks for a person (one of a group of
people), "what's the warranty period ...?" for a length of time, and "what temperature range ...?" for two figures
that bound it; "what's the finance director's name?" for a person, "what's their liability capped at?" for an
amount. A sentence without one does not answer them, however many of the question's words it shares: with none
found, the answer is "not found". Nor does a sentence about another code of the series the question names one of (the
TS-40's warranty for the TS-60). A question relayed ("A customer is asking how long the warranty is on the TS-40.
What do I tell them?") is asked as the one it relays; "why" after a statement asks for a cause. "Big contracts need
the finance director's signature. Who is our finance director?" asks for the person of that job: a person named in a
passage that never speaks of a director does not answer it. A folder written here is ingested into the default
embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.evidence import split_question
from hopgraph.policies.answer.types import AMOUNT, CAUSE, PERSON, THING, asked_kind, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

RELEASE = """# Firmware 3.2 release notes

Fixed: BUG-882, humidity readings drifted upwards after wake-up because the temperature compensation was applied
twice. Fixed: BUG-901, the status LED stayed on after pairing.
"""
FIXES = """# Who fixed what in firmware 3.2

The BUG-901 status LED fault was fixed by Tomasz Kowal of the firmware team.
"""
WARRANTY = """# Sensor warranty terms

The TS-40 sensor carries a warranty of three years from delivery. A claim needs the sensor's serial number.
"""
INCIDENT = """# Cold store alarm

The temperature alarm of cold store B sounded at 02:40 when the reading rose to 9 degrees Celsius. The night shift
moved the calibration gas cylinders to cold store A within twenty minutes.
"""
RUNBOOK = """# Weekly cold store check

Door seals are checked by hand along their full length. Calibration gas cylinders must stay between 2 and 8 degrees
Celsius.
"""
APPROVAL = """# Contract approval policy

Supplier contracts above EUR 50,000 a year also need the signature of the finance director. Smaller contracts may be
signed by the head of procurement.
"""
SIGNED = """# Supply Agreement - Wrapline Packaging Ltd

Signed for Tidewater Instruments Ltd: Helen Marsh, Head of Procurement.
"""
SUPPLIERS = """Supplier,Category,Contract value EUR,Contact
Wrapline Packaging Ltd,Pallet wrap,64000,Katrin Vogel
Boxco Cartons Ltd,Cartons,38000,Mikko Laine
"""
SHIPPING = """# Shipping log

A pallet of 60 TS-60 sensors left Hull on 17 October for a distributor in Rotterdam. The TS-60 weighs 240 grams.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("sensors"), {
        "eng/release-3.2.md": RELEASE, "eng/fixes-3.2.md": FIXES, "ops/warranty.md": WARRANTY,
        "ops/shipping-log.md": SHIPPING, "ops/cold-store-alarm.md": INCIDENT, "ops/cold-store-check.md": RUNBOOK,
        "legal/approval-policy.md": APPROVAL, "legal/wrapline.md": SIGNED,
        "legal/suppliers.csv": SUPPLIERS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize(("question", "kind"), [
    ("Which of the firmware engineers fixed the status LED bug?", PERSON),
    ("Which of our nurses was on shift?", PERSON),
    ("What's the warranty period on the TS-40?", AMOUNT),
    ("What is the notice period?", AMOUNT),
    ("What are the terms of the deal?", THING),  # the terms themselves, not a length of time
    ("Which of the suppliers was late?", THING),
    ("Back in August the gateway's cert expired. Why didn't it get renewed?", CAUSE),
    ("Big contracts need the finance director's signature too. What's the finance director's name?", PERSON),
    ("What is the name of the site manager?", PERSON),
    ("What's the name of the Rotterdam distributor?", THING),  # a firm, not a person
    ("If a batch turns out defective, what's their liability to us capped at?", AMOUNT),
    ("Is there a ceiling on it?", AMOUNT),
])
def test_the_kind_asked_for(question: str, kind: str) -> None:
    assert asked_kind(question) == kind


def test_one_of_a_group_of_people_is_answered_with_a_person(folder: Folder) -> None:
    answer = str(ask(folder, "Which of the firmware engineers fixed the status LED bug?")["answer"])
    assert "Tomasz Kowal" in answer, answer
    # No document says who fixed BUG-882: the release note naming it names nobody.
    answer = str(ask(folder, "Which of the firmware engineers fixed BUG-882?")["answer"])
    assert is_not_found(answer), answer


def test_a_warranty_period_is_answered_with_a_length_of_time(folder: Folder) -> None:
    answer = str(ask(folder, "What's the warranty period on the TS-40?")["answer"])
    assert "three years" in answer, answer
    # The TS-60 is found, but no warranty for it.
    answer = str(ask(folder, "What's the warranty period on the TS-60?")["answer"])
    assert is_not_found(answer), answer


def test_a_range_is_answered_with_two_bounds(folder: Folder) -> None:
    question = "What temperature range is the calibration gas supposed to be kept in?"
    assert holds_kind("Keep it at 2-8 °C.", AMOUNT, question)
    assert holds_kind("The cylinders stay between -5 and 10 degrees.", AMOUNT, question)
    assert not holds_kind("The reading rose to 9 degrees Celsius.", AMOUNT, question)
    assert not holds_kind("Incident INC-2026-019 was closed at 9 degrees.", AMOUNT, question)  # no range in a code
    answer = str(ask(folder, "When cold store B got too warm, the night shift moved the calibration gas. What "
                             "temperature range is that gas supposed to be kept in?")["answer"])
    assert "between 2 and 8 degrees" in answer, answer


@pytest.mark.parametrize(("question", "parts"), [
    ("A customer is asking how long the warranty is on the TS-40. What do I tell them?",
     ["how long the warranty is on the TS-40"]),
    ("My manager asked me when the audit is due. What should I say?", ["when the audit is due"]),
    # Nothing relayed, or a last question of its own: the parts stay as written.
    ("A customer is asking about the TS-40. What do I tell them?",
     ["A customer is asking about the TS-40", "What do I tell them"]),
    ("A customer asked how long the warranty is. Who handles the claim?",
     ["A customer asked how long the warranty is. Who handles the claim"]),
])
def test_a_relayed_question_is_the_question(question: str, parts: list[str]) -> None:
    assert split_question(question) == parts


def test_a_relayed_question_is_answered(folder: Folder) -> None:
    answer = str(ask(folder, "A customer is asking how long the warranty is on the TS-40. What do I tell them?")[
        "answer"])
    assert "three years" in answer, answer
    answer = str(ask(folder, "A customer is asking how long the warranty is on the TS-60. What do I tell them?")[
        "answer"])
    assert is_not_found(answer), answer


def test_a_job_asked_after_a_statement_needs_a_passage_about_that_job(folder: Folder) -> None:
    answer = str(ask(folder, "Bigger supplier contracts need the finance director's signature as well. Who is our "
                             "finance director?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "Small supplier contracts can be signed by the head of procurement. Who is our head of "
                             "procurement?")["answer"])
    assert "Helen Marsh" in answer, answer
