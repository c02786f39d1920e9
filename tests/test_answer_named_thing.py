"""One of several rows of a name, picked by the thing the question names: "Which firm looks after that hoist?" of
Hollins Lane Pool, whose asset register has four rows, is the row of its pool hoist. Words that name a column ("last
service") pick no row, and a word several of the rows hold ("Services" in two suppliers' names) picks none of them.
"""

from __future__ import annotations

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.records import record_answer

ASSETS = """asset_id,asset,site,area,supplier,last_service
HPT-A09,Chlorine dosing unit,Hollins Lane Pool,Plant room,Aquadose Services,2026-02-11
HPT-A10,Sand filter and circulation pump,Hollins Lane Pool,Plant room,Aquaflo Pump Services,2026-01-20
HPT-A11,Gas boiler,Hollins Lane Pool,Boiler house,Penmore Heating,2025-10-02
HPT-A12,Pool hoist (fixed),Hollins Lane Pool,Poolside,Ableside Access Ltd,2025-09-30
HPT-A18,Pool hoist (hydrotherapy),Cray Bridge Pool,Hydrotherapy suite,Mobility Lift Care,2026-02-24
"""
QUESTION = ("Tomasz said in March that the hoist at his pool was juddering. Which firm looks after that hoist, and "
            "when did they last service it?")


def _register() -> list[Passage]:
    return [Passage(ref="S1", title="assets register", text=ASSETS, rank=1, round=1, kind="table",
                    source="operations/assets-register.csv")]


def test_the_row_of_the_thing_the_question_names() -> None:
    found = record_answer("when did they last service it", "Hollins Lane Pool", _register(), about=QUESTION)
    assert found is not None and "HPT-A12" in found[1] and "2025-09-30" in found[1], found


def test_no_row_when_the_question_names_no_one_thing() -> None:
    # Without the question, or when it names nothing only one row has, several rows of the site are no record.
    assert record_answer("when did they last service it", "Hollins Lane Pool", _register()) is None
    vague = "Which company services the kit at Hollins Lane Pool, and when was it last serviced?"
    assert record_answer("when was it last serviced", "Hollins Lane Pool", _register(), about=vague) is None
