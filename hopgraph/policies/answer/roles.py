"""A person asked for by what they do, found through the job title a policy gives them and a staff list.

"Who supervises the lifeguards on poolside at Quarry Lane?" is answered by a policy in terms of a job ("The
**Senior Pool Attendant** supervises the lifeguard team on poolside"), and by a staff list in terms of people
("name: Stellan Birch; job_title: Senior Pool Attendant; site: Quarry Lane Pool & Fitness"). The policy takes the
job title from the best sentence that names one and no person, searches for it with the places the question names,
and answers with the one staff row holding that title whole whose other cells hold those places (of several sites'
rows, the one at the site asked about, or at the site the documents describe with the question's words: "the pool
with the sauna").
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from hopgraph.policies.answer.evidence import Passage, entities, name_like, stems
from hopgraph.policies.answer.row_filter import named_at
from hopgraph.policies.answer.select import best_sentences
from hopgraph.policies.answer.tables import row_record, table_records
from hopgraph.policies.answer.types import PERSON, PLACE_WORDS, THING, asked_kind, holds_kind, is_job_title
from hopgraph.policies.text import fold

# A run of capitalized words, bold or not ("**Senior Pool Attendant**", "the Duty Manager").
_TITLE = re.compile(r"\b(?:[A-Z][\w'-]*\s+(?:(?:and|of|&)\s+)?){0,3}[A-Z][\w'-]*\b")  # "Pharmacy and Stock Coordinator"
_LEADING = re.compile(r"^(?:The|A|An|Our|Each|Every|Any)\s+")
# A question word opening a later sentence of the question ("... with the sauna. Who handles that?") is no place.
_QUESTION_WORDS = frozenset({"who", "whom", "whose", "what", "which", "where", "when", "why", "how"})
# A section heading of at most this many words can name a place ("Hollins Lane Pool").
_HEADING_WORDS = 5
# How many of the best sentences are looked at for a job title.
_LOOKED_AT = 5


@dataclass
class RoleHolder:
    role: str
    sentence: str  # the sentence that gives the job title
    said_in: Passage
    row: str  # the staff row of the person holding it
    listed_in: Passage


def role_named(question: str, passages: list[Passage]) -> tuple[str, str, Passage] | None:
    """(job title, sentence, passage) when the question asks for a person and one of its best sentences names a
    job title and no person the question lacks; else None."""
    if asked_kind(question) != PERSON or not passages:
        return None
    # Ranked by the question's words alone: a sentence that names only a job holds no person, and ranked as a
    # person's answer it would come after any sentence naming someone.
    ranked = best_sentences(passages, stems(question), question, THING)
    # (A follow-up made whole by its subject reads "Regarding <subject>: ...".)
    plain = re.sub(r"^Regarding\s+", "", question)
    asked = [t for m in _TITLE.finditer(plain) if (m.start() > 0 or plain != question)
             and is_job_title(t := _LEADING.sub("", m.group(0)))]
    for candidate in ranked[:_LOOKED_AT] if asked else []:
        # The question names the job ("Regarding Safety Officer: who is the person that gets phoned?"): its holder,
        # with a sentence that speaks of the job.
        held = [t for t in asked if fold(t) in fold(candidate.text)]
        if held and len(row_record(candidate.text)) < 2:
            return held[0], candidate.text, candidate.passage
    for candidate in ranked[:_LOOKED_AT]:
        record = row_record(candidate.text)
        if len(record) >= 2:
            if any(name_like(span) and not is_job_title(span) for span, _ in entities(candidate.text, question)):
                continue  # a row of a table (the staff list itself) gives a job to a person it names, not a duty
            # A row of who does what ("Matter: Medicines and stock orders; Millbeck: Pharmacy and Stock
            # Coordinator; ..."): the job in the column of the place asked about, else in any column.
            cells = [v for c, v in record.items() if fold(c) in fold(question)] or list(record.values())
            for cell in cells:
                title = _LEADING.sub("", cell.replace("*", "").strip())
                if is_job_title(title) and fold(title) not in fold(question):
                    return title, candidate.text, candidate.passage
            continue
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
    places = [fold(place) for place in _places(question, role, passages)]
    # Rows naming someone: a row of who does what ("Millbeck: Pharmacy and Stock Coordinator") holds the job too.
    rows = [(row, p) for record, row, p in table_records(passages)
            if any(fold(cell) == fold(role) for cell in record.values())
            and any(name_like(span) and not is_job_title(span) for span, _ in entities(row, question))]
    if places:
        rows = [(row, p) for row, p in rows
                if all(named_at(place, fold(row)) is not None for place in places)]
    if len(rows) != 1:
        return None
    return RoleHolder(role, sentence, said_in, rows[0][0], rows[0][1])


def _sections(passage: Passage) -> list[tuple[str, str]]:
    """(heading, text) of each section under a heading of the passage, and (label, text) of each paragraph that
    opens with a label ("Eastgate bakery: 7 Foundry Lane ..."; a bulleted field such as "- Address: ..." is no
    label)."""
    found = []
    for section in re.split(r"\n(?=#+\s)", passage.text):
        head, _, _ = section.strip().partition("\n")
        if head.startswith("#"):
            found.append((head.lstrip("# ").strip(), section))
    for paragraph in re.split(r"\n\s*\n", passage.text):
        label, colon, _ = paragraph.strip().partition(":")
        if colon and not label.startswith(("#", "-", "*")):
            found.append((label.strip(), paragraph))
    return [(head, text) for head, text in found if head[:1].isupper() and len(head.split()) <= _HEADING_WORDS]


def described_place(question: str, role: str, passages: list[Passage]) -> str | None:
    """The place a question describes instead of naming ("at the pool with the sauna"): of the sections of a
    document found, each headed by a place ("## Hollins Lane Pool"), the one holding words of the question that no
    other section of it holds ("sauna and steam room"); None when no section or several do. Words found in most
    passages ("pool" in a pool company's documents) say nothing about which."""
    common = {t for t, n in Counter(t for p in passages for t in stems(p.text)).items() if n > len(passages) // 2}
    want = stems(question) - stems(role) - common
    texts: dict[str, str] = {}
    for p in passages:
        texts[p.title] = f"{texts.get(p.title, '')} {fold(p.text)}"
    by_document: dict[str, dict[str, set[str]]] = {}
    for passage in passages:
        # A place says it is one ("... Lane Pool", "... Centre") or is named in other documents too; a heading such
        # as "Clubs and groups" is neither.
        elsewhere = " ".join(text for title, text in texts.items() if title != passage.title)
        sections = by_document.setdefault(passage.title, {})
        for head, text in _sections(passage):
            if stems(head) & PLACE_WORDS or named_at(fold(head), elsewhere) is not None:
                sections[head] = sections.get(head, set()) | (stems(text) & want)
    found: set[str] = set()
    for words in by_document.values():
        own = {head: said - set().union(*(w for h, w in words.items() if h != head)) for head, said in words.items()}
        best = max((len(w) for w in own.values()), default=0)
        winners = [head for head, w in own.items() if best and len(w) == best]
        if len(winners) == 1:
            found.add(winners[0])
    return next(iter(found)) if len(found) == 1 else None


def _places(question: str, role: str, passages: list[Passage]) -> list[str]:
    """The places the question names, or else the one it describes (see :func:`described_place`), as written."""
    named = [m.group(0) for m in _TITLE.finditer(question) if m.start() > 0 and not is_job_title(m.group(0))
             and fold(m.group(0)) not in _QUESTION_WORDS and m.group(0) != "I"]
    if named:
        return named
    described = described_place(question, role, passages)
    return [described] if described else []


def role_query(question: str, passages: list[Passage]) -> str | None:
    """A search for the staff list's row of the job title the best sentences give, with the places asked about."""
    named = role_named(question, passages)
    if named is None:
        return None
    return " ".join(dict.fromkeys([named[0], *_places(question, named[0], passages), "staff"]))


def role_answer(found: RoleHolder) -> str:
    """The sentence giving the job, then the staff row of the one person holding it, each cited."""
    return f"{found.sentence.rstrip(' .')} [{found.said_in.ref}]. {found.row.rstrip(' .')} [{found.listed_in.ref}]."
