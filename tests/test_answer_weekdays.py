"""Days of the week say how often: "every Tuesday and Friday", "on Mondays", "each morning".

"How often are the learner pool filters backwashed?" asks for a frequency, and a routine that names the days it is
done on gives one without a number. A folder written here is ingested into the default embedded index and asked
through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.evals.answer_metrics import is_not_found
from hopgraph.policies.answer.types import AMOUNT, holds_kind
from tests.support.folders import Folder, ask, ingested, write_files

ROUTINE = """# Plant room routine at Fenwick Baths

The learner pool filters are backwashed every Tuesday and Friday before opening. The duty technician records the
filter pressure before and after each backwash in the plant room log.

The main pool filters were replaced in May 2025 by Calder Water Systems.
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("baths"), {"ops/plant-room-routine.md": ROUTINE})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_the_days_a_routine_is_done_on_answer_how_often(folder: Folder) -> None:
    answer = str(ask(folder, "How often are the learner pool filters backwashed?")["answer"])
    assert not is_not_found(answer) and "every Tuesday and Friday" in answer, answer


def test_days_of_the_week_are_a_frequency_and_a_past_day_is_not() -> None:
    question = "How often are the learner pool filters backwashed?"
    assert holds_kind("The learner pool filters are backwashed every Tuesday and Friday.", AMOUNT, question)
    assert holds_kind("The plant room log is checked on Mondays.", AMOUNT, question)
    assert holds_kind("Each morning the duty technician reads the gauges.", AMOUNT, question)
    assert holds_kind("The rota is swapped every other weekend.", AMOUNT, question)
    assert not holds_kind("The main pool filters were replaced in May 2025.", AMOUNT, question)
    assert not holds_kind("The filters were last backwashed on Tuesday.", AMOUNT, question)
