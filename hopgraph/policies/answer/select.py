"""Which evidence sentences answer a part of the question, best first.

A sentence scores by the weighted words it shares with the part, plus: holding an answer of the asked
kind (a name for "who", a date for "when", a causal link for "what caused"), naming the bridge, belonging
to a passage the question is about. A sentence that only restates the question loses. A sentence that
opens with a pronoun ("It is led by Jonas Berg") inherits part of the score of the sentence before it and
is quoted together with it, so the answer keeps what the pronoun stands for. For a name, a date, a place or an
amount, the question's words in the rest of the sentence's paragraph count a little ("The pastry team is based at
Eastgate. Omar Haddad leads it." for "Who leads the pastry team?").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from hopgraph.citations import is_tabular
from hopgraph.policies.answer.contrast import sibling_pairs, speaks_of_sibling
from hopgraph.policies.answer.evidence import Passage, named_stems, stems, weights
from hopgraph.policies.answer.meaning import meaning_weight, similarities
from hopgraph.policies.answer.paragraphs import paragraph_context, paragraph_leads, passage_sentences, section_headings
from hopgraph.policies.answer.row_filter import ISO_DATE, named_at, named_months
from hopgraph.policies.answer.slots import (
    WORD,
    answer_slots,
    described_answer,
    fills_answer_slot,
    gives_cause,
)
from hopgraph.policies.answer.tables import read_whole, row_record
from hopgraph.policies.answer.types import (
    AMOUNT,
    CAUSE,
    DATE,
    PERSON,
    THING,
    YESNO,
    holds_kind,
    restates,
)
from hopgraph.policies.text import base_title, fold

# A sentence that refers back to the one before it.
_ANAPHOR = re.compile(r"^(?:it|its|he|his|she|her|they|their|this|these|those|there|that|such|the latter|"
                      r"the former|both)\b", re.IGNORECASE)
MAX_JOINED_CHARS = 420
KIND_BONUS = 1.25
MISSING_KIND = 1.5
RESTATED = 1.0
# A sentence about a sibling of what the question names ("the bread team" for "the pastry team").
SIBLING = 1.0
INHERITED = 0.6
FIGURE_BONUS = 1.0
_FIGURE = re.compile(r"(?<![\w.])(?=[\w.\-]*\d)[\w]+(?:[.\-][\w]+)+(?![\w])|\b\d{3,}\b")
LINKED = 1.0
DEFINES = 0.75
SLOT_FILLED = 2.0
UNLINKED = 1.5
MEANING_CANDIDATES = 48
# How much the question's words in the rest of a sentence's paragraph count, beside its own.
PARAGRAPH = 0.3
QUALIFIED = 0.5
# A runner-up this close to the best sentence of a part is quoted too (see near_tie).
CLOSE = 0.9


def _opens_paragraph(text: str, phrase: str) -> bool:
    """A paragraph of the text (its first, or one after a blank line) opens with the phrase."""
    return re.search(rf"(?:^|\n\s*\n)[#*\- ]*{re.escape(phrase)}(?!\w)", text) is not None


def _has(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def near_tie(ranked: list[Candidate], used: set[str], kind: str) -> Candidate | None:
    """For one part of a question in several, the runner-up of the sentence quoted for it when it scores nearly as
    much (``CLOSE``) and holds an answer of the asked kind: "How often are door closers tested, and by whom?" over
    two wings' routines is answered with both, not with whichever came first."""
    if len(ranked) < 2 or ranked[0].text not in used:
        return None
    c = ranked[1]
    if c.text not in used and c.score >= CLOSE * ranked[0].score and (c.holds or kind in (THING, YESNO)):
        return c
    return None


def doc_links(question: str, passages: list[Passage], bridge: str = "") -> dict[str, float]:
    """How strongly each document (by title) belongs to the question's chain of evidence.

    2: the question names its title (an anchor); 1: an anchor names it, it names an anchor, or it is
    the bridge; 0: unrelated while the question has anchors. An empty dict: the question names no title,
    so nothing is preferred.
    """
    q = fold(question)
    titles = {p.title: fold(base_title(p.title)) for p in passages}
    texts: dict[str, str] = {}
    for p in passages:
        texts[p.title] = texts.get(p.title, "") + " " + fold(p.text)
    anchors = {t for t, b in titles.items() if len(b) > 2 and _has(q, b)}
    if not anchors:
        return {}
    links = {t: 2.0 for t in anchors}
    b = fold(bridge)
    for t, base in titles.items():
        if t in links:
            continue
        named_by_anchor = any(_has(texts[a], base) for a in anchors if len(base) > 2)
        names_anchor = any(_has(texts[t], titles[a]) for a in anchors)
        # ... or its title's qualifier is the bridge: "Leader of Opposition (Uganda)" for Uganda.
        is_bridge = bool(b) and len(base) > 2 and (_has(b, base) or _has(base, b) or f"({b})" in fold(t))
        # ... or a paragraph of it opens with the bridge: its entry in a list ("Pellow harbour: 18 Slipway Road").
        is_bridge = is_bridge or (len(b) > 2 and _opens_paragraph(texts[t].strip(), b))
        # The bridge's own document: where the answer of a bridge question usually is.
        links[t] = 1.5 if is_bridge else 1.0 if named_by_anchor or names_anchor else 0.0
    return links


def _defines_unnamed(p: Passage, question: str, described: set[str]) -> int:
    """How many of the question's own words for the answer the passage's opening uses when it defines
    something the question does not name ("Mercyful Fate is a Danish heavy metal band" for "which Danish
    heavy metal band"); 0 below two."""
    if not described:
        return 0
    title = fold(base_title(p.title))
    sents = passage_sentences(p)
    if len(title) < 3 or not sents or _has(fold(question), title) or title not in fold(sents[0])[:80]:
        return 0
    shared = len(stems(sents[0]) & described)
    return shared if shared >= 2 else 0


@dataclass(frozen=True)
class Candidate:
    score: float
    order: int
    text: str  # the sentence, or the sentence before it and the sentence
    passage: Passage
    holds: bool  # it holds an answer of the asked kind


def best_sentences(passages: list[Passage], want: set[str], question: str, kind: str = THING,
                   bridge: set[str] | None = None, only_round: int = 0,
                   about: set[str] | None = None, loose: bool = False,
                   links: dict[str, float] | None = None) -> list[Candidate]:
    """Candidates by score, best first.

    ``only_round``: only passages that round's searches matched, ranked as they ranked there (the search
    issued for a part of the question knows best what answers it). ``about``: stems of what the question is
    about (a bridge, a title it names); sentences of passages naming it get a little more. ``loose``: a
    sentence of such a passage that holds an answer of the asked kind is a candidate even when it shares no
    word with the part (a follow-up's few words: "Where did she grow up?"), and a document whose title names the
    question's subject counts as naming it in each sentence that shares a word with the part. ``links``: from
    :func:`doc_links`; documents outside the question's chain of evidence lose.
    """
    weight = weights(passages)
    specific = kind not in (THING, YESNO)
    # Versions, years and codes the question gives ("4.3.0", "TS-40"): the stemmer drops their parts.
    figures = {f for f in _FIGURE.findall(fold(question))}
    described = described_answer(question) if kind in (THING, PERSON) else set()
    slots = answer_slots(question)
    # Stems of the names the question gives (capitalized words after its first), or a follow-up's subject.
    named = named_stems(question) & (want | (about or set()))
    siblings = sibling_pairs(question, (p.text for p in passages))
    asked_stems = stems(question)
    scored: list[Candidate] = []
    order = 0
    for p in passages:
        if only_round and only_round not in p.ranks:
            continue
        rank = p.ranks.get(only_round, p.rank) if only_round else p.rank
        on_topic = bool(about and stems(p.title + " " + p.text) & about)
        title_match = math.fsum(weight.get(t, 1.0) for t in stems(p.title) & want)
        previous = ("", 0.0)
        opening = DEFINES * _defines_unnamed(p, question, described)
        leads = paragraph_leads(p)
        context = paragraph_context(p)
        headings = section_headings(p)
        titled = stems(p.title)
        for i, s in enumerate(passage_sentences(p)):
            got = stems(s)
            # fsum: exact, so the score never depends on set iteration order (hash seed).
            own = math.fsum(weight.get(t, 1.0) for t in got & want)
            text, inherited = s, 0.0
            if previous[0] and _ANAPHOR.match(s):
                inherited = INHERITED * previous[1]
                if len(previous[0]) + len(s) < MAX_JOINED_CHARS:
                    text = f"{previous[0].rstrip()} {s}"  # so the answer says what "it" is
            elif loose and own > 0 and named - got and titled & (named - got):
                # A follow-up's subject named by the document's title ("Supply Agreement - Nordlicht Components
                # GmbH"): each of its sentences is about it as much as one whose paragraph opening names it.
                inherited = INHERITED * math.fsum(weight.get(t, 1.0) for t in titled & (named - got))
            elif leads[i] and named - got and stems(leads[i]) & (named - got):
                # The paragraph's opening names what the question names and the sentence does not ("Eastgate
                # bakery: 7 Foundry Lane." before "The site manager is Marek Dvorak."): the sentence is about it.
                inherited = INHERITED * math.fsum(weight.get(t, 1.0) for t in stems(leads[i]) & (named - got))
                if len(leads[i]) + len(s) < MAX_JOINED_CHARS:
                    text = f"{leads[i].rstrip()} {s}"
            counted = got | stems(text)  # with the sentence it was joined to, whose words already count
            previous = (s, own)
            holds = holds_kind(s, kind, question)
            # For a name, a date, a place ...: the paragraph's other sentences say what this one is about ("The
            # pastry team is based at Eastgate. Omar Haddad leads it."; "The site manager is Marek Dvorak. It makes
            # the pastries.").
            # So does the heading it stands under ("4. Cray Bridge Pool Manager" over "Moira confirmed that she will
            # retire on 31 December").
            setting = f"{context[i]} {headings[i]}".strip()
            around = PARAGRAPH * math.fsum(weight.get(t, 1.0) for t in (stems(setting) - counted) & want) \
                if setting and specific else 0.0
            if own <= 0 and inherited <= 0 and not (loose and on_topic and holds and specific) and not (
                    around > 0 and holds and specific):
                continue
            score = own + inherited + around + 0.3 * title_match
            if holds and kind != YESNO:
                score += KIND_BONUS if specific else 0.4
            elif specific:
                score -= MISSING_KIND
            if restates(s, question):
                score -= RESTATED
            if speaks_of_sibling(text, siblings, asked_stems):
                score -= SIBLING
            if bridge and got & bridge:
                score += 1.0
            if any(c.isdigit() for c in s) and kind in (THING, AMOUNT, DATE):
                score += 0.25
            if on_topic:
                score += 0.75
            if i == 0:
                score += opening
            if slots and fills_answer_slot(s, slots):
                score += SLOT_FILLED
            if kind == CAUSE and gives_cause(s):
                score += SLOT_FILLED  # "Why didn't it renew?": "Root cause: the renewal job had been disabled ..."
            if figures and any(f in fold(p.title + " " + s) for f in figures):
                score += FIGURE_BONUS
            if links:
                link = links.get(p.title, 0.0)
                score += LINKED * min(1.5, link) - UNLINKED * (link == 0.0)
            score -= 0.05 * rank + 0.001 * p.round
            scored.append(Candidate(score, order, text, p, holds))
            order += 1
    scored.sort(key=lambda c: (-c.score, c.order))
    return _by_meaning(_unqualified_first(scored, question), question)


def _unqualified_first(scored: list[Candidate], question: str) -> list[Candidate]:
    """Of two table rows whose cells in one column differ by words the question does not say ("Deputy Head Nurse"
    against "Head Nurse" for "who's the head nurse there?"), the one with the added words loses: the question names
    the plain cell whole, so it asked for that one ("second in charge of the nursing team" names neither)."""
    asked = stems(question)
    head = scored[:MEANING_CANDIDATES]
    cells = [{column: stems(value) for column, value in row_record(c.text).items()
              if not any(ch.isdigit() for ch in value)}
             if is_tabular(c.passage.kind, c.passage.source, c.passage.title) else {} for c in head]
    qualified = set()
    for i, mine in enumerate(cells):
        for column, words in mine.items():
            if not words & asked:
                continue
            for j, theirs in enumerate(cells):
                plain = theirs.get(column)
                if j != i and plain and plain <= asked and plain < words and not (words - plain) & asked:
                    qualified.add(i)
    if not qualified:
        return scored
    rescored = [replace(c, score=c.score - QUALIFIED) if i in qualified else c for i, c in enumerate(head)]
    rescored += scored[MEANING_CANDIDATES:]
    rescored.sort(key=lambda c: (-c.score, c.order))
    return rescored


def _by_meaning(scored: list[Candidate], question: str) -> list[Candidate]:
    """The candidates re-scored with their closeness in meaning to the question (see
    :mod:`hopgraph.policies.answer.meaning`): the best ``MEANING_CANDIDATES`` by words gain the weight
    (:func:`~hopgraph.policies.answer.meaning.meaning_weight`, 0 by default) times their cosine similarity; the rest,
    and every candidate without a local encoder, keep their score."""
    weight = meaning_weight()
    if not weight:
        return scored
    head = scored[:MEANING_CANDIDATES]
    # Each sentence under its document's title, so what the document is about does not decide alone.
    sims = similarities(question, [f"{c.passage.title}: {c.text}" for c in head])
    if not sims:
        return scored
    rescored = [replace(c, score=c.score + weight * sim) for c, sim in zip(head, sims, strict=True)]
    rescored += scored[MEANING_CANDIDATES:]
    rescored.sort(key=lambda c: (-c.score, c.order))
    return rescored


def plain_row_query(ranked: list[Candidate], question: str, passages: list[Passage]) -> str | None:
    """A search for the plain row of the best one, when that is a table row whose cell adds a word or two to what
    the question says ("Deputy Head Nurse" for "who's the head nurse there?") and the table, not read whole, may
    hold the row without them in a chunk not yet read: the table's title, the plain cell and the row's other cells
    the question names ("staff Head Nurse Orchard Vale Clinic"). None otherwise."""
    if not ranked:
        return None
    top = ranked[0].passage
    tabular = [c for c in ranked if is_tabular(c.passage.kind, c.passage.source, c.passage.title)]
    if not tabular or tabular[0] is not ranked[0]:
        return None
    if not top.chunk_count or read_whole(top, passages):
        return None
    asked, folded = stems(question), fold(question)
    record = row_record(ranked[0].text)
    for column, value in record.items():
        words = WORD.findall(value)
        said = [i for i, w in enumerate(words) if stems(w) & asked]
        extra = [w for w in words if stems(w) and not stems(w) & asked]
        if (not said or not extra or len(words) > 4 or len(extra) > 2 or any(ch.isdigit() for ch in value)
                or said != list(range(said[0], said[-1] + 1))):
            continue
        plain = " ".join(words[i] for i in said)
        if any(fold(row_record(c.text).get(column, "")) == fold(plain) for c in tabular):
            return None  # the plain row is read already
        others = [v for c, v in record.items() if c != column and len(v) > 2 and named_at(fold(v), folded) is not None]
        return " ".join([base_title(top.title), plain, *others])
    return None


def named_row(ranked: list[Candidate], text: str, question: str = "") -> Candidate | None:
    """The one table row with a cell of two words or more that the text names whole ("Where is Yasmin Farouk
    based?" names the staff row "name: Yasmin Farouk; role: ...; site: Coldharbour Depot"), or None when no row or
    several rows are named so ("Central Library" is the site of many). Of several rows of the name, the one the
    ``question`` also names by another cell whole ("the head nurse there": the row whose role is "Head Nurse") or
    by a month ("their September invoice": the row issued 2026-09-22)."""
    folded = fold(text)
    found: dict[str, Candidate] = {}
    for c in ranked:
        if not is_tabular(c.passage.kind, c.passage.source, c.passage.title):
            continue
        if any(len(value.split()) >= 2 and value[:1].isupper() and named_at(fold(value), folded) is not None
               for value in row_record(c.text).values()):
            found.setdefault(c.text, c)
    if len(found) > 1 and question:
        # Several rows of the name: the one the question names by another cell whole ("who's the head nurse
        # there?": the row whose role is "Head Nurse", not "Deputy Head Nurse").
        asked = fold(question)
        also = {t: c for t, c in found.items() if any(
            len(v.split()) >= 2 and named_at(fold(v), folded) is None and named_at(fold(v), asked) is not None
            for v in row_record(c.text).values())}
        if len(also) == 1:
            return next(iter(also.values()))
    if len(found) > 1:
        # Several rows of the name: the one dated in a month the question names ("their September invoice").
        months = named_months(question or text)
        found = {t: c for t, c in found.items() if any(
            (date := ISO_DATE.fullmatch(v.strip())) and int(date.group(1)) in months
            for v in row_record(c.text).values())}
    return next(iter(found.values())) if len(found) == 1 else None
