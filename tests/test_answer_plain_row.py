"""The plain row before the qualified one: "who's the head nurse at Orchard Vale?" is the Head Nurse's row, not the
Deputy Head Nurse's, and when only the deputy's row was read from a table that spans several chunks, the policy
searches the table for the plain one.

Rows are ranked by :func:`hopgraph.policies.answer.select.best_sentences`: of two rows whose cells in one column
differ by words the question does not say, the one with the added words loses. The search is
:func:`hopgraph.policies.answer.select.plain_row_query`.
"""

from __future__ import annotations

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.select import best_sentences, plain_row_query
from hopgraph.policies.answer.types import PERSON

STAFF = """name,job_title,base,start_date
Leah Thornbury,Deputy Head Nurse,Orchard Vale Clinic,2019-11-04
Nadia Kowalczyk,Head Nurse,Orchard Vale Clinic,2016-05-23
Jasper Quaye,Registered Veterinary Nurse,Orchard Vale Clinic,2020-07-13
"""
LATER_ROWS = """name,job_title,base,start_date
Leah Thornbury,Deputy Head Nurse,Orchard Vale Clinic,2019-11-04
Jasper Quaye,Registered Veterinary Nurse,Orchard Vale Clinic,2020-07-13
Rosa Delgado,Senior Receptionist,Orchard Vale Clinic,2018-02-05
"""
QUESTION = "Who's the head nurse at Orchard Vale Clinic?"


def _staff(text: str, chunk_index: int = 0, chunk_count: int = 1) -> Passage:
    return Passage(ref="S1", title="staff", text=text, rank=1, round=1, kind="table", source="clinics/staff.csv",
                   chunk_index=chunk_index, chunk_count=chunk_count)


def test_the_row_without_the_added_word_comes_first() -> None:
    ranked = best_sentences([_staff(STAFF)], stems(QUESTION), QUESTION, PERSON)
    assert "Nadia Kowalczyk" in ranked[0].text, [c.text for c in ranked[:3]]
    # A question that says the added word asks for that row.
    deputy = "Who's the deputy head nurse at Orchard Vale Clinic?"
    ranked = best_sentences([_staff(STAFF)], stems(deputy), deputy, PERSON)
    assert "Leah Thornbury" in ranked[0].text, [c.text for c in ranked[:3]]


def test_a_search_for_the_plain_row_in_the_chunks_not_read() -> None:
    passages = [_staff(LATER_ROWS, chunk_index=2, chunk_count=4)]
    ranked = best_sentences(passages, stems(QUESTION), QUESTION, PERSON)
    assert "Leah Thornbury" in ranked[0].text
    assert plain_row_query(ranked, QUESTION, passages) == "staff Head Nurse Orchard Vale Clinic"


def test_no_search_when_the_table_is_read_whole_or_the_plain_row_is_read() -> None:
    whole = [_staff(LATER_ROWS)]
    assert plain_row_query(best_sentences(whole, stems(QUESTION), QUESTION, PERSON), QUESTION, whole) is None
    both = [_staff(STAFF, chunk_index=0, chunk_count=4)]
    assert plain_row_query(best_sentences(both, stems(QUESTION), QUESTION, PERSON), QUESTION, both) is None
