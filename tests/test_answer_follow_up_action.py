"""A follow-up that says "do it" asks about what the last question asked about.

"Who does the chlorine and pH testing at Elmfield?" is answered with the plant technician; "How often is he
supposed to do it?" then asks how often that testing is done: "it" is the chlorine and pH testing, so the routine
test every two hours answers, not the repeat test every 30 minutes another procedure gives when a result is out of
range. A folder written here is ingested into the default embedded index and asked through the graph with the
built-in answer policy, both questions on one thread.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from hopgraph.evals.answer_metrics import is_not_found
from tests.support.folders import Folder, ask, ingested, write_files

POLICY = """# Pool water quality policy

## Testing

The Plant Technician at each pool tests the water for free chlorine, combined chlorine and pH every two hours
while the pool is open, and once before opening. Results are written in the water log.
"""
PROCEDURE = """# Water chemistry out of range

If a chlorine or pH result is outside the range in the policy, the Duty Manager closes the pool. The Plant
Technician tests again every 30 minutes and writes each result on the closure sheet.
"""
STAFF = """name,job_title,site
Aled Morgan,Plant Technician,Elmfield Pool
Rhian Price,Duty Manager,Elmfield Pool
Owen Hale,Plant Technician,Brookvale Pool
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("pools"), {
        "ops/policies/pool-water-quality.md": POLICY, "ops/procedures/water-chemistry-out-of-range.md": PROCEDURE,
        "ops/staff.csv": STAFF})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_do_it_means_what_the_last_question_asked_about(folder: Folder) -> None:
    saver = InMemorySaver()
    first = str(ask(folder, "Who does the chlorine and pH testing at Elmfield?", "pools", saver)["answer"])
    assert "Plant Technician" in first, first
    answer = str(ask(folder, "How often is he supposed to do it?", "pools", saver)["answer"])
    assert not is_not_found(answer) and "every two hours" in answer, answer
    assert "every 30 minutes" not in answer, answer
