"""Bridges: the name or code in the first results that a question passes through to its answer.

"Which supplier missed the deadline?" passes through Nordlicht Components GmbH; "who directed the film that
was shot in Leland?" through Maximum Overdrive. Candidates are names and codes the question does not give,
in sentences that share words with it; a multi-word name, a name that is another found document's title, a
name in a document the question names, and a name next to the kind of thing the question describes ("the
film that ...", "which supplier") rank higher.
"""

from __future__ import annotations

import re
from collections import Counter

from hopgraph.policies.answer.evidence import (
    CODE,
    NOT_SEARCH_TERMS,
    AnswerState,
    Passage,
    entities,
    name_like,
    named_stems,
    regions,
    split_question,
    stem,
    stems,
)
from hopgraph.policies.answer.paragraphs import paragraph_of, passage_sentences
from hopgraph.policies.answer.row_filter import MONTHS
from hopgraph.policies.answer.types import AMOUNT, DATE, PHONE_ASKED, asked_kind, holds_kind, is_personal
from hopgraph.policies.text import base_title, fold

UNRELATED = 1.5
ADJACENT = 2.0
SLOT = 1.5
PLACE = 1.5
LARGER = 2.5
TITLE_WORDS = 0.5
# Below the first four results a name needs more to be the bridge: there it is taken only over weak candidates.
FIRST_RESULTS = 4
LOW_RANK = 2.0
MEASURES = frozenset({"value", "amount", "name", "number", "price", "cost", "total", "size", "date", "title"})
# "somebody was asked to ...": the bridge is a person's name, not a job or a thing.
PERSON_BRIDGE = 2.0
PARAGRAPH_WORDS = 0.5
_SOMEBODY = re.compile(r"\b(?:somebody|someone|some one|a colleague|a member of (?:staff|the team)|one of (?:the|our) "
                       r"(?:staff|team|managers|colleagues))\b", re.IGNORECASE)
# "Wanda will retrain ...": a single name that opens a sentence and acts in it.
_ACTS = re.compile(r"\s+(?:will|would|is to|was to|agreed|offered|volunteered|said|has agreed|is going to)\b")
_TASKED = re.compile(r"\b(?:who|owner|lead|action by|assigned to|responsible)\s*:\s*$", re.IGNORECASE)
# Month words say when a document is dated, not what a sentence of it is about.
_MONTH_STEMS = frozenset(stems(" ".join(MONTHS)))


def focus_stems(part: str) -> set[str]:
    """What the part asks for: the noun after which/what ("the value of the purchase order": the purchase
    order), or after "who was the" ("on-call engineer")."""
    m = re.search(r"\b(?:which|what)\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?([\w\-]+)"
                  r"(?:\s+of\s+(?:the\s+|a\s+|an\s+)?([\w\-]+(?:\s+[\w\-]+)?))?", part, re.IGNORECASE)
    if m and fold(m.group(1)) in MEASURES and m.group(2):
        return stems(m.group(2))
    if not m:
        m = re.search(r"\bwho\s+(?:was|is|were|are)\s+(?:the\s+)?([\w\-]+(?:\s+[\w\-]+)?)", part, re.IGNORECASE)
    return stems(m.group(1)) if m else set()


# "Which version is that?", "What company was it?": a part that asks what the statement before it describes.
_WHICH_IS_THAT = re.compile(r"^\s*(?:which|what)\s+([a-z][\w\-]*)\s+(?:is|was|are|were)\s+(?:that|it|this|they|"
                            r"those)\s*\??\s*$", re.IGNORECASE)


def pointed_back_kind(part: str) -> set[str]:
    """Stems of the kind a part like "Which version is that?" names: what the statement before it describes is the
    bridge ("Version 4.2.1 or later is recommended" for "The data sheet recommends a minimum firmware.")."""
    m = _WHICH_IS_THAT.match(part)
    return stems(m.group(1)) if m else set()


# "a network founded by ...", "the film that was shot ...", "an NFL team based in ...": the noun before a
# relative clause or a participle names the kind of thing a one-part question passes through.
_DESCRIBED = re.compile(r"\b((?:[a-z][\w\-]*\s+)?[a-z][\w\-]*)\s+(?:that|which|who|whose|where|"
                        r"(?:in|on|at|from|for|with|by|of)\s+wh(?:ich|om)\b|"
                        r"(?:[a-z]+ed|built|written|made|held|born|known|run|shot|sung|led)\s+(?:by|in|on|at|from|for|"
                        r"with|as)\b)")


_PLACE_KINDS = frozenset(stems("city country state town county region province village island district capital"))
_LARGE_PLACE_KINDS = frozenset(stems("country state province region"))
_PLACE_BEFORE = re.compile(r"\b(?:in|at|from|near)\s+(?:the\s+)?$", re.IGNORECASE)
# "in the city Sarah Sorge was born": a place the question describes by a name's story.
_PLACE_OF_NAME = re.compile(r"\b[Tt]he\s+(city|country|state|town|county|region|province|village|island)\s+"
                            r"(?:that\s+|where\s+|in\s+which\s+)?[A-Z]")
_AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "has", "have", "had"})


# "the painter of The Copper Lantern", "the author of ...": a role of something the question names.
_ROLE_OF = re.compile(r"\b(?:[Tt]he|[Aa]n?|its|their)\s+([a-z][\w\-]*)\s+of\s+(?:the\s+)?(?:[a-z]+\s+){0,2}\s*"
                      r"[\"“]?[A-Z0-9]")


def bridge_kind(question: str) -> set[str]:
    """Stems of the nouns that describe what a one-part question passes through."""
    found = described_kinds(question)
    for m in _ROLE_OF.finditer(question):
        found |= stems(m.group(1))
    return found


def described_kinds(question: str) -> set[str]:
    """Stems of the nouns a relative clause describes ("the city where ...", "a network founded by ..."),
    not a role of something named ("the island of Oahu" names its island)."""
    found: set[str] = set()
    for m in _DESCRIBED.finditer(fold(question)):
        if m.group(1).split()[-1] not in _AUXILIARIES:  # "the novel was published by": a clause, not a kind
            found |= stems(m.group(1))
    for m in _PLACE_OF_NAME.finditer(question):
        found |= stems(m.group(1))
    return found



_CURRENCY = re.compile(r"EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|JPY|CNY|AUD|CAD")
_DEFINED_TERM = re.compile(r"\b(?:this|that|these|those|such)\s+$", re.IGNORECASE)


def asked_through(state: AnswerState, parts: list[str], bridge: str | None, round_no: int = 1) -> bool:
    """The first part asks its own question of the bridge, and the sentence naming the bridge does not answer it
    ("If the lens window people deliver late, what do they owe us, ...": Ostrava Optics supplies the lens windows;
    what they owe is in Ostrava's contract). Every part is then asked of the bridge's document. Only for an amount or
    a date: asked who or where, the bridge is itself the answer ("Who supplies our circuit boards?")."""
    kind = asked_kind(parts[0])
    if len(parts) < 2 or not bridge or kind not in (AMOUNT, DATE):
        return False
    evidence = find_bridge_evidence(state, parts[0], round_no)
    return evidence is not None and evidence[0] == bridge and not holds_kind(evidence[1], kind, parts[0])


def find_bridge(state: AnswerState, first_part: str, round_no: int = 1) -> str | None:
    found = find_bridge_evidence(state, first_part, round_no)
    return found[0] if found else None


def find_bridge_evidence(state: AnswerState, first_part: str, round_no: int = 1) -> tuple[str, str, Passage] | None:
    """(bridge, the sentence naming it, its passage): the best of :func:`bridge_candidates`."""
    ranked = bridge_candidates(state, first_part, round_no)
    return (ranked[0][1], ranked[0][2], ranked[0][3]) if ranked else None


_PAGE = re.compile(r"\s*-\s*page\s+\d+\s*$", re.IGNORECASE)


def heading_bridge(question: str, bridge: str, evidence: tuple[str, str, Passage]) -> bool:
    """The bridge is a name (no code) from nothing but the heading of a document the question names ("Freight
    Services Agreement - Baltic Freight Services AB - page 3" for "the Baltic freight deal"): a name of the document
    the question is about, not a link to another one. (A code in a heading is a link: a report's number cited by a
    procedure.) ``evidence``: from :func:`find_bridge_evidence`."""
    found, sentence, passage = evidence
    if found != bridge or CODE.fullmatch(bridge):
        return False
    heading = fold(_PAGE.sub("", sentence)).rstrip(". ") == fold(passage.title).rstrip(". ")
    named = named_stems(question)
    return heading and bool(named & stems(passage.title))


def bridge_candidates(state: AnswerState, first_part: str, round_no: int = 1) -> list[tuple[float, str, str, Passage]]:
    """(score, bridge, the sentence naming it, its passage), best first: names and codes from the results
    of round ``round_no`` (the first) that the question does not mention.

    Candidates come from sentences that share words with the first part of the question;
    a multi-word name helps, and so does matching what the question asks for ("which
    supplier" -> a name right after "supplier"; "which bug" -> BUG-882).
    """
    want = stems(first_part)
    # In a two-part question "which supplier ..." names the bridge's kind; in a one-part question the
    # noun after which/what is the kind of the final answer, not of the bridge.
    parts = split_question(state.question)
    multi = len(parts) > 1
    focus = focus_stems(first_part) if multi else bridge_kind(first_part)
    if multi and not focus and fold(parts[0]) == fold(first_part):
        focus = pointed_back_kind(parts[1])  # "... recommends a minimum firmware. Which version is that?"
    focus_bonus = 4.0 if multi else 1.5
    question = fold(state.question)
    # Only what was found by then: the bridge stays the same when later rounds bring more documents.
    titles = {fold(base_title(p.title)): p.title for p in state.passages if p.round <= round_no}
    # Words the question says in lower case: "network" in "a network founded by" names a kind; a word
    # of a name the question gives ("Dick" of Dick Humbert) does not make "Dick Crum" the bridge.
    plain = stems(" ".join(w for w in first_part.split() if not w[:1].isupper())) & want
    unrelated = _unrelated_documents(state, round_no)
    slots = _slots(first_part)
    place = bool(described_kinds(first_part) & _PLACE_KINDS)  # the bridge is a place ("the city where ...")
    large = bool(described_kinds(first_part) & _LARGE_PLACE_KINDS)
    somebody = bool(_SOMEBODY.search(first_part))
    # "At the March managers' meeting ...": that meeting's minutes hold the bridge, other documents do not.
    dated = {p.title for p in state.passages if p.round == round_no and _dated_as_named(p.title, first_part)}
    if dated:
        want -= _MONTH_STEMS
    found: list[tuple[float, int, str, str, Passage]] = []
    for p in state.passages:
        if p.round != round_no:
            continue
        own_title = fold(base_title(p.title))
        # A document the question names by title is where a chain of evidence starts; one that neither
        # is named nor names such a document is off the chain.
        if dated:
            # The question names its document by month ("the March meeting"): "staff" in "front desk staff" is
            # no name of the staff list.
            anchor = 1.0 if p.title in dated else -UNRELATED
        else:
            anchor = (1.0 if len(own_title) > 2 and own_title in question
                      else -UNRELATED if p.title in unrelated else 0.0)
        # In the document the question names, its title's words say nothing about which sentence it is.
        # (A place the question describes is what the named document says of its subject: not then.)
        titled = stems(own_title) if anchor > 0 and not place else set()
        for sentence in passage_sentences(p):
            got = stems(sentence)
            shared = len(got & want)
            if shared == 0:
                continue
            relevance = max(1.0, shared - TITLE_WORDS * len(got & want & titled))
            if dated:
                # The paragraph around the sentence says what it is about ("Missing child drills ... Wanda will
                # retrain the reception teams"); the month that named the minutes says nothing.
                around = stems(paragraph_of(p, sentence)) - got
                relevance += PARAGRAPH_WORDS * len(around & want - titled - _MONTH_STEMS)
            found_regions = regions(sentence, state.question) if place else ()
            named_titles = _titles_named(sentence, titles, p.title, question, focus)
            for span, pos in [*entities(sentence, state.question), *found_regions, *named_titles]:
                if _CURRENCY.fullmatch(span):
                    continue  # "EUR 50,000": a unit of money, nothing to follow
                kind_word, _, rest = span.partition(" ")
                if focus and stems(kind_word) & focus and any(c.isdigit() for c in rest):
                    span, pos = rest, pos + len(kind_word) + 1  # "Version 4.2.1" for "which version": 4.2.1
                score = float(relevance) - 0.05 * p.rank + anchor - (LOW_RANK if p.rank > FIRST_RESULTS else 0.0)
                before = sentence[max(0, pos - 40):pos]
                linked = titles.get(fold(span))
                if linked is not None and linked != p.title:
                    score += 2.0  # the name is the title of another document found: a link to follow
                near = sentence[max(0, pos - 25):pos] + " " + sentence[pos + len(span):pos + len(span) + 25]
                if stems(near) & want:
                    score += 0.5  # said right next to words of the question
                if stems(span) & plain:
                    score += 1.0  # "Cartoon Network" for "a network founded by ...": the kind the question names
                # "Sunita will redo the audit", "Who: Sunita": a person the minutes give a task to.
                acting = somebody and (bool(_ACTS.match(sentence[pos + len(span):]))
                                       or bool(_TASKED.search(before)))
                if name_like(span):
                    score += 1.5
                elif pos == 0 and not acting:
                    score -= 1.5  # a capitalized first word is not evidence of a name
                if pos == 0 and anchor > 0:
                    score -= 1.5  # the named document's own subject under another name ("Andrew Alan")
                if large and (span, pos) in found_regions:
                    score += LARGER  # "the country where Buyende is": Uganda of "the Eastern Region of Uganda"
                if place and (_PLACE_BEFORE.search(before) or (span, pos) in found_regions):
                    score += PLACE  # "the city where she was born": "born 1969 in Frankfurt", one word or more
                if slots and _fills_slot(before, slots):
                    score += SLOT  # "published by Two Dollar Radio" for "published by a publishing house"
                if somebody:
                    # "somebody was given the job of ...": "Who: Bethany", not "the Volunteer Coordinator".
                    score += PERSON_BRIDGE if acting and is_personal(sentence, span, max(pos, 1)) else -PERSON_BRIDGE
                if _DEFINED_TERM.search(before):
                    score -= 1.5  # "this Agreement": a defined term of the document, not a name
                # "the Eastgate bakery" for "the bakery where ...": the kind right after the name names it too (not in
                # "the Pixar film Toy Story", where a name follows the kind and is the film).
                after = sentence[pos + len(span):].split()[:2]
                named_kind = (bool(focus) and bool(after) and bool(stems(after[0]) & focus)
                              and not (len(after) > 1 and after[1][:1].isupper()))
                if focus and (stems(span) & focus or stems(" ".join(before.split()[-3:])) & focus or named_kind):
                    score += focus_bonus
                    if not multi and (stems(" ".join(before.split()[-2:])) & focus or named_kind):
                        score += ADJACENT  # 'the soap opera "Neighbours"': the kind names this very span
                found.append((score, len(found), span, sentence, p))
    # Ties keep the order met (the first, as before).
    found.sort(key=lambda f: (-f[0], f[1]))
    return [(f[0], f[2], f[3], f[4]) for f in found]


def _dated_as_named(title: str, part: str) -> bool:
    """The question names the document by its month and kind ("at the June managers' meeting"): the title is
    dated in that month ("warehouse-managers-meeting-2026-06-23") and shares a word with the question."""
    # Capitalized: "May" the month, not "may" the verb.
    months = [i + 1 for i, m in enumerate(MONTHS) if re.search(rf"\b{m.capitalize()}\b", part)]
    if not months:
        return False
    dated = re.search(r"\b\d{4}-(\d\d)-\d\d\b", title)
    folded_title = fold(title)
    in_month = (dated is not None and int(dated.group(1)) in months) or any(
        re.search(rf"\b{MONTHS[m - 1]}\b", folded_title) for m in months)
    words = stems(re.sub(r"[\d\-_/.]+", " ", title)) - _MONTH_STEMS
    return in_month and bool(words & stems(part))


def _titles_named(sentence: str, titles: dict[str, str], own: str, question: str,
                  kind: set[str]) -> list[tuple[str, int]]:
    """Other found documents of the kind the question asks for ("which procedure ...") that the sentence names by
    the words of their title in lower case, in any order ("was reset following the breaker reset procedure" names
    "procedure breaker reset"), as (title, where its first word is): a link to follow like a name. Titles of two
    words or more that the question does not name."""
    if not kind:
        return []
    got = stems(sentence)
    out = []
    for key, title in titles.items():
        wanted = stems(key)
        if title == own or len(wanted) < 2 or not wanted <= got or not wanted & kind or key in question:
            continue
        # Each word of the title in lower case in the sentence: a description of the document, not a name of
        # something else ("a residential hall in Australian National University" does not name "University Hall").
        at = [m.start() for w in key.split() if (m := re.search(rf"\b{re.escape(w.lower())}", sentence))]
        if len(at) < len(key.split()):
            continue
        out.append((base_title(title), min(at)))
    return out


# "published by an independent ... house", "played for an NFL team": a verb and a preposition the
# question follows with a description instead of a name.
_SLOT = re.compile(r"\b([a-z]{3,})\s+(by|for|in|of|from|with|to|at|on|into)\s+"
                   r"(?:one\s+of\s+)?(?:a|an|the|his|her|their)\s")
_ARTICLE_END = re.compile(r"\s+(?:a|an|the|his|her|their)\s*[\"“]?\s*$", re.IGNORECASE)


def _slots(part: str) -> set[tuple[str, str]]:
    """(verb stem, preposition) pairs the question follows with a description."""
    return {(stem(m.group(1)), m.group(2)) for m in _SLOT.finditer(part)}


def _fills_slot(before: str, slots: set[tuple[str, str]]) -> bool:
    """The words right before a name are one of the question's described slots ("played for the ")."""
    words = _ARTICLE_END.sub(" ", before).split()
    return len(words) >= 2 and (stem(words[-2]), fold(words[-1])) in slots


def _unrelated_documents(state: AnswerState, round_no: int) -> set[str]:
    """Titles of the round's documents off the question's chain of evidence: when the question names some
    found document by title, those that are not named and do not mention a named one. Empty otherwise."""
    question = fold(state.question)
    passages = [p for p in state.passages if p.round == round_no]
    named = {fold(base_title(p.title)) for p in passages}
    named = {t for t in named if len(t) > 2 and re.search(rf"(?<!\w){re.escape(t)}(?!\w)", question)}
    if not named:
        return set()
    texts: dict[str, str] = {}
    for p in passages:
        texts[p.title] = texts.get(p.title, "") + " " + fold(p.text)
    return {title for title, text in texts.items()
            if fold(base_title(title)) not in named and not any(t in text for t in named)}


def follow_up_query(bridge: str, part: str) -> str:
    words = [w for w in re.findall(r"[\w\-.,%]+", part) if fold(w).strip(".,") not in NOT_SEARCH_TERMS]
    if PHONE_ASKED.search(part):
        # The number is in the bridge's own record, whatever else the words ask: search for that.
        return f"{bridge} phone telephone".strip()
    return " ".join([bridge, *[w.strip(".,") for w in words]]).strip()


def named_in_titles(question: str, passages: list[Passage]) -> set[str]:
    """Question words that pick out some documents by title ("Nordlicht", even spelt "nordlict"; stems
    keep five letters), leaving out words most titles share ("agreement")."""
    titles = {p.title for p in passages}
    counts = Counter(t for title in titles for t in stems(title))
    return {t for t in stems(question) if 0 < counts[t] <= len(titles) / 2}
