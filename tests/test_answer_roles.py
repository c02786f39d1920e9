"""A person asked for by what they do, and what counts as naming a person.

"Who supervises the lifeguards at Quarry Lane?": a policy names the job ("The **Senior Pool Attendant** supervises
the lifeguard team"), the staff list names the person holding it at each site; the policy searches for the job with
the place asked about and answers with that one row. A job title, a place after "at", a table's label and the
person the question starts from ("who took over from Anjali?") are no person it asks for. A folder written here is
ingested into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.roles import role_holder, role_named
from hopgraph.policies.answer.types import PERSON, THING, asked_kind, holds_kind
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

POLICY = """# Pool safety policy

Applies to the pools at Millbeck, Quarry Lane and Sedgewick.

## Who does what

- The **Senior Pool Attendant** supervises the lifeguard team on poolside: the rota and the weekly training.
- The **Duty Manager** is in charge of the building when the centre manager is away.
"""

STAFF = csv_text(["name", "job_title", "site"], [
    ["Harvey Lindgren", "Senior Pool Attendant", "Millbeck Leisure Centre"],
    ["Stellan Birch", "Senior Pool Attendant", "Quarry Lane Pool & Fitness"],
    ["Zofia Nowicka", "Senior Pool Attendant", "Sedgewick Sports Hub"],
    ["Anjali Moorcroft", "Centre Manager", "Sedgewick Sports Hub"],
])

NUMBERS = """# Lifeguard numbers

| Pool | Public swimming | Lessons only |
|---|---|---|
| Quarry Lane pool | 2 lifeguards | 1 lifeguard |
| Millbeck main pool | 3 lifeguards | 1 lifeguard |
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("pools"), {
        "centres/pool-safety-policy.md": POLICY, "centres/staff.csv": STAFF, "centres/lifeguard-numbers.md": NUMBERS})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_what_names_no_person() -> None:
    who = "Who supervises the lifeguards on poolside at Quarry Lane?"
    assert not holds_kind("The Senior Pool Attendant supervises the lifeguard team.", PERSON, who)
    assert not holds_kind("Pool: Quarry Lane pool; Lessons: 1 lifeguard", PERSON, who)
    assert holds_kind("The rota is kept by Stellan Birch.", PERSON, who)
    took_over = "Who has been appointed to take over from Anjali as manager at Sedgewick?"
    assert not holds_kind("name: Anjali Moorcroft; job_title: Centre Manager", PERSON, took_over)
    # Asked about by name, the person named answers.
    assert holds_kind("Anjali Moorcroft manages the Sedgewick Sports Hub.", PERSON, "Who is Anjali?")
    # Staff named by their job are people too.
    assert asked_kind("Which lifeguard went into the water first?") == PERSON
    assert asked_kind("Which pool was closed first?") == THING


def test_the_job_a_policy_gives_and_the_one_holder_at_the_site() -> None:
    policy = Passage(ref="S1", title="Pool safety policy", text=POLICY, rank=1, round=1)
    staff = Passage(ref="S2", title="staff", text=STAFF, rank=1, round=2, kind="table", source="centres/staff.csv")
    question = "Who supervises the lifeguards on poolside at Quarry Lane?"
    named = role_named(question, [policy])
    assert named is not None and named[0] == "Senior Pool Attendant"
    found = role_holder(question, [policy, staff])
    assert found is not None and "Stellan Birch" in found.row
    # Without a site the job is held by three people: no one is picked.
    assert role_holder("Who supervises the lifeguards on poolside?", [policy, staff]) is None
    # The staff list's own rows give no duty to look up.
    assert role_named("Who is in charge at Quarry Lane?", [staff]) is None
    # A question that asks for no person looks for no job.
    assert role_named("When is the weekly training?", [policy]) is None


def test_the_person_holding_the_job_at_the_site_asked_about(folder: Folder) -> None:
    answer = str(ask(folder, "Who supervises the lifeguards on poolside at Quarry Lane?")["answer"])
    assert "Stellan Birch" in answer and "Senior Pool Attendant" in answer, answer
    assert "Harvey Lindgren" not in answer and "Zofia Nowicka" not in answer, answer
