"""Near misses are no answers. "What's the finance director's name?" asks for a person of that job, and "which lawyer
wrote ...?" for a lawyer: a person named in a passage that never speaks of the job does not answer them. A table cell is
no person's name unless its column holds people or firms ("Status: Paid" is a status), nor is a column's label ("Amount
EUR:", "Due date:") or a pair of places ("England and Wales"). A rate for another of a few alternatives of the same
thing (a full pallet for a half one, the weekday rate for a Saturday) answers nothing about the one asked. "Who signed
the agreement on their side?" asks for the other party's signatory: our own signature line, or a contact in a supplier
list, is no answer; when the line signed for the party asked about names nobody ("authorised representative"), the
answer is "not found". A figure given for another interval than the one the question sets ("about five years at a 15
minute wake-up interval" for "every 5 minutes") says nothing of it. A folder written here is ingested into the default
embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.asked import asked_subject
from hopgraph.policies.answer.contrast import (
    another_alternative,
    another_interval,
    another_side,
    named_party_lines,
)
from hopgraph.policies.answer.evidence import stems
from hopgraph.policies.answer.types import PERSON, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

APPROVAL = """# Contract approval policy

Supplier contracts above EUR 50,000 a year also need the signature of the finance director. Smaller contracts may be
signed by the head of procurement.
"""
SIGNED = """# Supply Agreement - Wrapline Packaging Ltd

This Agreement renews automatically on 1 April 2027. This Agreement is governed by the laws of England and Wales.

Signed for Tidewater Instruments Ltd: Helen Marsh, Head of Procurement.
Signed for Wrapline Packaging Ltd: authorised representative.
"""
REMINDER = """# Renewal reminder - Wrapline Packaging Ltd

The renewal reminder for the Wrapline agreement was sent on 2 December by the contracts desk.
"""
LEASE = """# Forklift lease - Harbour Plant Hire

The forklift lease with Harbour Plant Hire was reviewed by Anna Berg, our contracts lawyer, before signature.
"""
INVOICES = """Invoice,Supplier,Amount EUR,Status
WP-2201,Wrapline Packaging Ltd,31600,Paid
HP-0417,Harbour Plant Hire,4100,On hold
"""
SUPPLIERS = """Supplier,Category,Contact
Wrapline Packaging Ltd,Pallet wrap,Katrin Vogel
Boxco Cartons Ltd,Cartons,Mikko Laine
"""
FREIGHT = """# Freight rates 2026

Hull to Rotterdam, full pallet: EUR 210, transit two days. Hull to Gdansk, full pallet: EUR 340, transit four days.
"""
PAY = """Role,Weekday rate per hour
Casual Warehouse Operative,£12.60
Forklift Driver,£14.10
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("near-misses"), {
        "legal/approval-policy.md": APPROVAL, "legal/wrapline.md": SIGNED, "legal/wrapline-reminder.md": REMINDER,
        "finance/invoices.csv": INVOICES, "finance/suppliers.csv": SUPPLIERS, "ops/freight-rates.md": FREIGHT,
        "ops/casual-pay.csv": PAY})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


@pytest.mark.parametrize(("question", "head"), [
    ("What's the finance director's name?", "director"),
    ("Which lawyer wrote the renewal reminder?", "lawyer"),
    ("Which of the firmware engineers fixed the bug?", "firmware engineers"),  # "of the firmware team" speaks of it
])
def test_the_job_a_person_is_asked_by(question: str, head: str) -> None:
    assert asked_subject(question) == stems(head)


@pytest.mark.parametrize(("question", "text", "other"), [
    ("Who signed the Wrapline agreement on their side?", "Signed for Tidewater Instruments Ltd: Helen Marsh", True),
    ("Who signed the Wrapline agreement on Wrapline's side?", "Signed for Tidewater Instruments Ltd: Helen Marsh",
     True),
    ("Who signed the Wrapline agreement on their side?", "Signed for Wrapline Packaging Ltd: Jo Bell", False),
    ("Who signed the Wrapline agreement for us?", "Signed for Tidewater Instruments Ltd: Helen Marsh", False),
])
def test_another_side(question: str, text: str, other: bool) -> None:
    assert another_side(question, text) is other


def test_the_other_side_of_an_agreement(folder: Folder) -> None:
    # Wrapline's side is signed by an "authorised representative"; the contact in the supplier list signed nothing.
    for question in ("Who actually signed the Wrapline agreement on their side?",
                     "Who signed the pallet wrap contract on Boxco's side?"):
        answer = str(ask(folder, question)["answer"])
        assert is_not_found(answer), (question, answer)
    answer = str(ask(folder, "Who signed the Wrapline agreement for us?")["answer"])
    assert "Helen Marsh" in answer, answer


def test_the_line_given_for_the_party_asked_about() -> None:
    texts = [SIGNED, SUPPLIERS.replace(",", "; ")]
    assert named_party_lines("Who signed the pallet wrap contract on Wrapline's side?", texts) == [
        "Signed for Wrapline Packaging Ltd: authorised representative."]
    assert named_party_lines("Who signed the pallet wrap contract?", texts) == []  # no side asked about
    assert named_party_lines("Who signed the carton contract on Boxco's side?", texts) == []  # no line for Boxco


def test_a_side_whose_signature_line_names_nobody(folder: Folder) -> None:
    # Wrapline's own line says "authorised representative": its contact in the supplier list is no signatory.
    answer = str(ask(folder, "Who signed the pallet wrap contract on Wrapline's side?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "Who signed the Wrapline agreement on Tidewater's side?")["answer"])
    assert "Helen Marsh" in answer, answer


@pytest.mark.parametrize(("sentence", "person"), [
    ("Invoice: WP-2201; Supplier: Wrapline Packaging Ltd; Amount EUR: 31,600; Status: Paid", False),
    ("This Agreement is governed by the laws of England and Wales", False),
    ("Supplier: Boxco Cartons Ltd; Contact: Mikko Laine", True),
    ("Cost centre: CC-410; Owner: Jonas", True),
    ("PO: PO-4465; Value EUR: 4,950; Due date: 2026-09-05", False),  # the first word of a label
    ("item: Dosing pump; supplier: Aquadose", True),  # "who services it?" may be answered by a firm
])
def test_what_counts_as_a_person(sentence: str, person: bool) -> None:
    assert holds_kind(sentence, PERSON, "Who wrote it?") is person


def test_a_job_asked_by_its_name_needs_a_passage_about_that_job(folder: Folder) -> None:
    answer = str(ask(folder, "Big contracts need the finance director's signature too. What's the finance "
                             "director's name?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "Small contracts can be signed by the head of procurement. What's the name of the head "
                             "of procurement?")["answer"])
    assert "Helen Marsh" in answer, answer


@pytest.fixture(scope="module")
def with_lawyer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("lawyer"), {
        "legal/wrapline.md": SIGNED, "legal/wrapline-reminder.md": REMINDER, "legal/forklift-lease.md": LEASE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_which_lawyer_needs_a_lawyer(folder: Folder, with_lawyer: Folder) -> None:
    # The reminder names nobody; no document speaks of a lawyer.
    answer = str(ask(folder, "Which lawyer wrote the Wrapline renewal reminder?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(with_lawyer, "Which lawyer reviewed the forklift lease?")["answer"])
    assert "Anna Berg" in answer, answer


@pytest.mark.parametrize(("question", "sentence", "other"), [
    ("What do we pay to ship a half pallet to Rotterdam?", "Hull to Rotterdam, full pallet: EUR 210", True),
    ("What do we pay to ship a full pallet to Rotterdam?", "Hull to Rotterdam, full pallet: EUR 210", False),
    ("What's the hourly rate on a Saturday?", "Role: Casual Warehouse Operative; Weekday rate per hour: £12.60",
     True),
    ("What's the hourly rate on a Tuesday?", "Role: Casual Warehouse Operative; Weekday rate per hour: £12.60",
     False),
    ("What's the hourly rate on a Saturday?", "Weekday rate per hour: £12.60; weekend rate per hour: £15.10", False),
    ("What's the rate to Rotterdam?", "Hull to Rotterdam, full pallet: EUR 210", False),  # nothing picked
])
def test_another_alternative(question: str, sentence: str, other: bool) -> None:
    assert another_alternative(question, sentence) is other


def test_a_rate_for_another_alternative_is_no_answer(folder: Folder) -> None:
    answer = str(ask(folder, "What do we pay to ship a half pallet from Hull to Rotterdam?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "What do we pay to ship a full pallet from Hull to Rotterdam?")["answer"])
    assert "EUR 210" in answer, answer
    answer = str(ask(folder, "What's the hourly rate for a casual warehouse operative on a Saturday?")["answer"])
    assert is_not_found(answer), answer
    answer = str(ask(folder, "What's the hourly rate for a casual warehouse operative on a weekday?")["answer"])
    assert "£12.60" in answer, answer


@pytest.mark.parametrize(("question", "text", "other"), [
    ("If we set it to wake up every 5 minutes, how long will the batteries last?",
     "Two lithium AA cells; about five years at a 15 minute wake-up interval.", True),
    ("If we set it to wake up every 15 minutes, how long will the batteries last?",
     "Two lithium AA cells; about five years at a 15 minute wake-up interval.", False),
    ("How long will the batteries last?", "Two lithium AA cells; about five years at a 15 minute wake-up interval.",
     False),  # no interval asked about
    ("If it reports every 2 hours, how long will the batteries last?", "About five years when readings are sent "
     "every 30 minutes.", False),  # another unit: not comparable
])
def test_another_interval(question: str, text: str, other: bool) -> None:
    assert another_interval(question, text) is other


SENSOR = """# TS-9 Sensor - Data sheet

The TS-9 measures temperature and humidity and reports over LTE-M.

Power
Two lithium AA cells; about five years at a 15 minute wake-up interval.
"""


@pytest.fixture(scope="module")
def sensor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("sensor"), {
        "ops/ts-9-datasheet.md": SENSOR, "ops/freight-rates.md": FREIGHT})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_figure_for_another_interval_is_no_answer(sensor: Folder) -> None:
    answer = str(ask(sensor, "If we set a TS-9 to wake up every 5 minutes, how long will the batteries last?")[
        "answer"])
    assert is_not_found(answer), answer
    answer = str(ask(sensor, "If we set a TS-9 to wake up every 15 minutes, how long will the batteries last?")[
        "answer"])
    assert "five years" in answer, answer
