"""A sentence is about the heading it stands under, as much as about its paragraph.

Minutes say "## 2. Kestrel Depot Manager" and under it "Gwen confirmed that she will retire on 31 March after nine
years": the sentence names neither the depot nor the post, but "When is the Kestrel depot manager stepping down?"
is answered by it, not "not found" because no sentence with a date says "manager". A document's opening heading is
its title, already counted as such, and gives its sentences nothing more. A folder written here is ingested into
the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.sentences import leading_heading, prose_sentences, sentence_headings
from tests.support.folders import Folder, ask, ingested, write_files

MINUTES = """# Depot managers' meeting, 5 October 2026

Kestrel Depot, upstairs office, 09:30.

## 1. Van servicing

All vans at Heron Depot were serviced in September. Two vans at Kestrel Depot still have to be booked in.

## 2. Kestrel Depot Manager

Gwen confirmed that she will retire on 31 March after nine years. Interviews for the post will be held in the new
year.

## 3. Heron Depot yard

The yard resurfacing at Heron Depot will start on 2 November and take two weeks.
"""
STAFF = """name,job_title,site
Gwen Talbot,Depot Manager,Kestrel Depot
Ravi Shah,Depot Manager,Heron Depot
Lena Morris,Duty Manager,Kestrel Depot
Tom Price,Driver,Heron Depot
"""
POLICY = """# Leave and notice

A manager who is stepping down gives three months' notice in writing to the operations director. Drivers give one
month's notice. Notice periods are counted from the first day of the following month.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("depots"), {
        "ops/meetings/depot-managers-2026-10-05.md": MINUTES, "ops/staff.csv": STAFF,
        "ops/policies/leave-and-notice.md": POLICY})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_each_sentence_knows_the_heading_it_stands_under() -> None:
    sentences = prose_sentences(MINUTES)
    headings = dict(zip(sentences, sentence_headings(MINUTES), strict=True))
    assert headings["Gwen confirmed that she will retire on 31 March after nine years."] == "2. Kestrel Depot Manager"
    assert headings["Kestrel Depot, upstairs office, 09:30."] == "Depot managers' meeting, 5 October 2026"
    assert leading_heading(MINUTES) == "Depot managers' meeting, 5 October 2026"
    assert leading_heading("Gwen will retire.\n\n## Later\n\nMore text here, long enough to keep.") == ""


def test_a_date_under_the_heading_that_names_the_post_answers(folder: Folder) -> None:
    answer = str(ask(folder, "When is the Kestrel depot manager stepping down?")["answer"])
    assert not is_not_found(answer) and "31 March" in answer, answer
