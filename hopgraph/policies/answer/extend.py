"""What is added to a part's answer after its best sentence: the sentence that goes on about the same figure (a cap
after a rate), and the runner-up when the ranking cannot tell it from the best.
"""

from __future__ import annotations

from hopgraph.policies.answer.evidence import Passage, stems
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.select import Candidate, near_tie
from hopgraph.policies.answer.tables import row_record

# The most sentences an answer quotes.
MAX_SENTENCES = 4


def runner_up(ranked: list[Candidate], chosen: list[tuple[str, Passage]], used: set[str], kind: str,
               later: int = 0) -> None:
    """Quotes a part's runner-up too when the ranking cannot tell it from the best (see :func:`near_tie`), leaving
    room for the ``later`` parts still to be answered."""
    if len(chosen) + later < MAX_SENTENCES and (tied := near_tie(ranked, used, kind)) is not None:
        chosen.append((tied.text, tied.passage))
        used.add(tied.text)


def continued(ranked: list[Candidate], chosen: list[tuple[str, Passage]], used: set[str]) -> None:
    """The sentence right after the chosen one, when it goes on about the same figure (a cap after a rate); never
    the next row of a table."""
    if not chosen or len(chosen) >= MAX_SENTENCES:
        return
    text, passage = chosen[-1]
    sents = passage_sentences(passage)
    last = text.split(". ")[-1] if text not in sents else text
    if last not in sents:
        return
    i = sents.index(last)
    if i + 1 >= len(sents):
        return
    nxt = sents[i + 1]
    if nxt in used or not any(c.isdigit() for c in nxt) or not (stems(nxt) & stems(last)):
        return
    if len(row_record(last)) > 1 and len(row_record(nxt)) > 1:
        return  # the next row of a table is another record, not more about this one
    if any(c.text == nxt or c.text.endswith(nxt) for c in ranked):
        chosen.append((nxt, passage))
        used.add(nxt)


def take(chosen: list[tuple[str, Passage]], used: set[str], ranked: list[Candidate], limit: int, floor: float,
         covered: bool = False) -> bool:
    """Adds up to ``limit`` of the ranked sentences scoring at least ``floor``; True when one was added, or (with
    ``covered``) when the best one is in the answer already."""
    added = False
    for c in ranked:
        if len(chosen) >= MAX_SENTENCES or limit <= 0:
            break
        if c.text in used and covered:
            return True  # the best sentence for this part is already in the answer
        if c.text in used or c.score < floor:
            continue
        chosen.append((c.text, c.passage))
        used.add(c.text)
        limit -= 1
        added = True
    return added
