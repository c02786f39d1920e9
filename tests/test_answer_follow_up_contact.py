"""A follow-up asking how to reach whom the last answer named: "What number should they ring?" after "Hydrotherapy
sessions at Pennock are booked by the Client Care Supervisor". A job has no number of its own; the place the answer
names does, so that place is the follow-up's subject, its own record is searched for a telephone number alongside the
follow-up's words, and a telephone number answers "what number should they ring?" without saying "number" or
"ring". A folder written here (with visit notes about the place that crowd a search for it) is ingested into the
default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.policies.answer.thread import turn_subject
from tests.support.folders import Folder, ask, ingested, write_files

DIRECTORY = """# Practice directory

## Kestleford Animal Hospital

- Address: 2 Mill Road, Kestleford, KF2 8AA
- Telephone: 01632 710100
- Practice Manager: Owen Price

## Pennock Vale Vets

- Address: Unit 6, Station Yard, Pennock, PV1 3DS
- Telephone: 01632 790455
- Practice Manager: Nadia Hollis
"""
BOOKINGS = """# Who books what

Hydrotherapy sessions at Pennock are booked by the Client Care Supervisor, not by the hydrotherapist, who is in the
treadmill room all day. Dental appointments are booked at every practice by reception.
"""
VISITS = {f"notes/visit-{i:02d}.md": f"# Visit note {i}\n\nThe van called at Pennock on day {i} of the round; the "
          f"kennels were checked and the stock count was done.\n" for i in range(8)}

ASKED = "Someone wants to book their dog in for hydrotherapy sessions. Who do they need to speak to?"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("contact"), {
        "clinical/practice-directory.md": DIRECTORY, "clinical/bookings.md": BOOKINGS, **VISITS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_contact_follow_up_is_about_the_place_not_the_job() -> None:
    question = ASKED
    answer = "Hydrotherapy sessions at Pennock are booked by the Client Care Supervisor, not by the hydrotherapist."
    assert turn_subject(question, answer, answered=True, follow_up="What number should they ring?") == "Pennock"
    # Asked who they are, the job stays the subject.
    assert turn_subject(question, answer, answered=True, follow_up="Is that person there on Saturdays?") == (
        "Client Care Supervisor")


def test_the_number_to_ring_for_a_job_at_a_place(folder: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(folder, ASKED, "t1", saver)["answer"])
    assert "Client Care Supervisor" in first, first
    answer = str(ask(folder, "What number should they ring?", "t1", saver)["answer"])
    assert "01632 790455" in answer, answer
    assert "01632 710100" not in answer, answer
