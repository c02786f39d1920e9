"""A person asked for by what they do, found through the job title a policy gives them and a staff list.

"Who supervises the lifeguards on poolside at Quarry Lane?" is answered by a policy in terms of a job ("The
**Senior Pool Attendant** supervises the lifeguard team on poolside"), and by a staff list in terms of people
("name: Stellan Birch; job_title: Senior Pool Attendant; site: Quarry Lane Pool & Fitness"). The policy takes the
job title from the best sentence that names one and no person, searches for it with the places the question names,
and answers with the one staff row holding that title whole whose other cells hold those places (of several sites'
rows, the one at the site asked about).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hopgraph.policies.answer.evidence import Passage, entities, name_like, stems
from hopgraph.policies.answer.row_filter import named_at
from hopgraph.policies.answer.select import best_sentences
from hopgraph.policies.answer.tables import row_record, table_records
from hopgraph.policies.answer.types import PERSON, THING, asked_kind, holds_kind, is_job_title
from hopgraph.policies.text import fold

# A run of capitalized words, bold or not ("**Senior Pool Attendant**", "the Duty Manager").
_TITLE = re.compile(r"\b(?:[A-Z][\w'-]*\s+){0,3}[A-Z][\w'-]*\b")
_LEADING = re.compile(r"^(?:The|A|An|Our|Each|Every|Any)\s+")
# How many of the best sentences are looked at for a job title.
_LOOKED_AT = 5


@dataclass
class RoleHolder:
    role: str
    sentence: str  # the sentence that gives the job title
    said_in: Passage
    row: str  # the staff row of the person holding it
    listed_in: Passage


def asked_places(question: str) -> list[str]:
    """The capitalized names inside the question ("Quarry Lane"), folded: where the person is asked about."""
    spans = [m.group(0) for m in _TITLE.finditer(question) if m.start() > 0]
    return [fold(s) for s in spans if not is_job_title(s)]


def role_named(question: str, passages: list[Passage]) -> tuple[str, str, Passage] | None:
    """(job title, sentence, passage) when the question asks for a person and one of its best sentences names a
    job title and no person the question lacks; else None."""
    if asked_kind(question) != PERSON or not passages:
        return None
    # Ranked by the question's words alone: a sentence that names only a job holds no person, and ranked as a
    # person's answer it would come after any sentence naming someone.
    ranked = best_sentences(passages, stems(question), question, THING)
    for candidate in ranked[:_LOOKED_AT]:
        if len(row_record(candidate.text)) >= 2:
            continue  # a row of a table (the staff list itself) gives a job to a person it names, not a duty
        text = candidate.text.replace("*", "")
        for m in _TITLE.finditer(text):
            title = _LEADING.sub("", m.group(0))
            if is_job_title(title) and fold(title) not in fold(question):
                return title, candidate.text, candidate.passage
        if any(name_like(span) and not is_job_title(span) for span, _ in entities(text, question)) and (
                holds_kind(text, PERSON, question)):
            return None  # a better sentence names a person: no job to look up
    return None


def role_holder(question: str, passages: list[Passage]) -> RoleHolder | None:
    """The person holding the job title the question's best sentences give, at the places it names; None unless
    exactly one staff row holds it."""
    named = role_named(question, passages)
    if named is None:
        return None
    role, sentence, said_in = named
    places = asked_places(question)
    rows = [(row, p) for record, row, p in table_records(passages)
            if any(fold(cell) == fold(role) for cell in record.values())]
    if places:
        rows = [(row, p) for row, p in rows
                if all(named_at(place, fold(row)) is not None for place in places)]
    if len(rows) != 1:
        return None
    return RoleHolder(role, sentence, said_in, rows[0][0], rows[0][1])


def role_query(question: str, passages: list[Passage]) -> str | None:
    """A search for the staff list's row of the job title the best sentences give, with the places asked about."""
    named = role_named(question, passages)
    if named is None:
        return None
    places = [m.group(0) for m in _TITLE.finditer(question) if m.start() > 0 and not is_job_title(m.group(0))]
    return " ".join(dict.fromkeys([named[0], *places, "staff"]))


def role_answer(found: RoleHolder) -> str:
    """The sentence giving the job, then the staff row of the one person holding it, each cited."""
    return f"{found.sentence.rstrip(' .')} [{found.said_in.ref}]. {found.row.rstrip(' .')} [{found.listed_in.ref}]."
