"""What the offline answer policy reads: the question, its own rounds, the passages and sentences.

Only structured data is read: the ``search_documents`` and ``run_python`` artifacts and the policy's own
earlier tool calls, never the text of tool messages (documents could forge it). Sentences come from running
text (:mod:`hopgraph.policies.answer.sentences`: wrapped lines joined, headings left out, a heading over labelled
items one record) or from table rows (:mod:`hopgraph.policies.answer.rows`).
Also here: the crude stemmer, question splitting, and the names and codes of a sentence (bridges are in
:mod:`hopgraph.policies.answer.bridge`).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from hopgraph.policies.text import STOPWORDS, drop_possessive, entity_spans, fold, terms
from hopgraph.policies.transcript import message_text, tool_results
from hopgraph.state import is_question, question_position

SEARCH = "search_documents"
REWRITE = "rewrite_query"
RUN_PYTHON = "run_python"

# Codes such as PO-4471, BUG-882, INC-2026-031, TS-40.
CODE = re.compile(r"\b[A-Z]{2,}(?:-[A-Z0-9]+)*-\d+[A-Z0-9]*\b")
# Where a question turns to its second part: ", and what ...", "; who ...", " and when ..."
_SPLIT = re.compile(
    r"\s*(?:[,;]\s*(?:and\s+)?|\s+and\s+)(?=(?:(?:in|on|at|by|for|from|with|to|under)\s+)?(?:what|which|who|whom|whose|when|where|why|how|did|does|do|is|are|"
    r"was|were|can|could|should|must)\b)",
    re.IGNORECASE,
)
# Words that only say "this question refers back": they never make a good search term.
_VAGUE = frozenset({"them", "they", "it", "its", "that", "person", "one", "agree", "agreed", "get", "got", "we", "us",
                    "our", "did", "does", "do", "set", "give", "want", "need", "must", "apply", "applies",
                    "regarding"})
_JOINER_WORDS = frozenset({"of", "the", "on", "in", "and", "for", "at", "to", "de", "von", "van"})
_EXTRA_STOP = frozenset({"which", "what", "who", "when", "where", "how", "did", "does", "the", "and", "whom"})
# Words that never make a search term of their own.
NOT_SEARCH_TERMS = STOPWORDS | _VAGUE | _EXTRA_STOP


@dataclass
class Passage:
    ref: str
    title: str
    text: str
    rank: int  # position within its search
    round: int
    page: Any = None
    # Rank of this passage in each round whose search matched it (repeats included).
    ranks: dict[int, int] = field(default_factory=dict)
    kind: str = ""
    source: str = ""
    container: str = ""
    # Which chunk of its document the passage is, and how many the document has (0: not known).
    chunk_index: int = 0
    chunk_count: int = 0


@dataclass
class Computed:
    """A ``run_python`` call of this turn and what it printed."""

    code: str
    output: str
    ok: bool


@dataclass
class AnswerState:
    question: str
    rounds: list[list[tuple[str, dict[str, Any]]]] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)
    computed: list[Computed] = field(default_factory=list)
    # Earlier turns of the thread, oldest first: (question, answer).
    history: list[tuple[str, str]] = field(default_factory=list)


# Irregular verb forms, so "led" meets "leads" and "grew" meets "grow".
_IRREGULAR = {
    "led": "lead", "grew": "grow", "grown": "grow", "won": "win", "wrote": "write", "written": "write",
    "began": "begin", "begun": "begin", "became": "become", "made": "make", "held": "hold", "built": "build",
    "sold": "sell", "bought": "buy", "taught": "teach", "told": "tell", "knew": "know", "known": "know",
    "gave": "give", "given": "give", "took": "take", "taken": "take", "died": "die", "dies": "die",
    "fought": "fight", "drew": "draw", "drawn": "draw", "ran": "run", "sang": "sing", "sung": "sing",
    "spoke": "speak", "spoken": "speak", "chose": "choose", "chosen": "choose", "born": "birth", "bore": "birth",
    "flew": "fly", "flown": "fly", "paid": "pay", "sent": "send", "spent": "spend", "met": "meet",
}


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """Crude and deterministic: drop a common suffix, then keep five letters."""
    word = fold(word)
    word = _IRREGULAR.get(word, word)
    for suffix in ("ing", "ed", "es", "s"):
        # A short plural too ("vans", "cars"), not a word that merely ends in s ("gas", "bus", "this").
        short_plural = suffix == "s" and len(word) == 4 and word[-2] not in "suia"
        if (len(word) > len(suffix) + 3 or short_plural) and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # capped -> cap, planned -> plan
            break
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]  # cause, caused -> caus
    return word[:5]


def stems(text: str) -> set[str]:
    return set(_stems(text))


def named_stems(question: str) -> set[str]:
    """Stems of the names a question gives: its capitalized words after the first ("Gdansk" of "What would five
    full pallets to Gdansk cost?")."""
    return {t for word in question.split()[1:] if word[:1].isupper() for t in stems(word)}


# "unreachable", "unavailable": a word that says something cannot be done, and the verb it negates.
_NOT_ABLE = re.compile(r"un[a-z]{4,}[ai]ble")


@functools.lru_cache(maxsize=1 << 14)
def _stems(text: str) -> frozenset[str]:
    # Cached: every part of the question scores the same sentences again.
    # "doesn't", "won't": a negated auxiliary says nothing a sentence could share.
    kept = [t for t in terms(text) if t not in _VAGUE and not t.endswith(("n't", "n’t"))]
    # "unreachable" also says "reach": a sentence with it answers "when the gateway can't be reached".
    return frozenset([stem(t) for t in kept] + [stem(t[2:-4]) for t in kept if _NOT_ABLE.fullmatch(t)])


_RELATIVE = re.compile(r"^(?:who|whom|whose|who's|which)\b", re.IGNORECASE)
_RELATIVE_INSIDE = re.compile(r"\s(?:who|whom|whose|which)\s", re.IGNORECASE)


# "While the driver was waiting for recovery, how often ...?", "When the kiosk jammed, how long ...?": a clause
# that sets the scene for the question after it, not a question of its own ("When was it built, and who ...?" is).
_SCENE = re.compile(r"^(?:while|after|before|since|once|if|although|though|because|until|following|during|"
                    # "Looking at the supplier scorecard, who ...": where to look, not a question of its own.
                    r"looking at|going by|going off|according to|based on|judging by|checking|"
                    r"when(?!\s+(?:is|are|was|were|did|does|do|will|would|has|have|had|can|could|should)\b))\s",
                    re.IGNORECASE)


# "Under that procedure, if a shortfall can't be explained, how long ...?": a scene-setting clause after an opening
# phrase that asks nothing.
_SCENE_INSIDE = re.compile(r",\s*(?:while|after|before|once|if|when|until|during)\s", re.IGNORECASE)


# "Somebody was told to chase the Wi-Fi upgrade. What's that person's job title?": a statement that describes
# something, then a question that points back at it.
_STATEMENT_THEN_QUESTION = re.compile(r"^\s*([^?]+?[.!])\s+([A-Z][^.!?]*\?)\s*$", re.DOTALL)
_POINTS_BACK = re.compile(r"\b(?:(?:that|this|those|these)\s+[a-z]+|he|she|him|her|his|they|them|their|there)\b",
                          re.IGNORECASE)
_WH_START = re.compile(r"^\s*(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)


# "Jana Dvorak's company", "the firm Jana Dvorak works for", "Jonas's cost centre": a company or a unit named by a
# person its records list.
_OWNERS = (r"(?:company|firm|supplier|vendor|contractor|carrier|employer|business|organi[sz]ation|outfit|agency|"
           r"cost cent(?:re|er))")
_PERSON = r"[A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)*"
OWNER_OF = re.compile(rf"\b(?P<person>{_PERSON})['’]s\s+(?P<unit>{_OWNERS})\b|\b(?i:the|which|what)\s+"
                      rf"(?P<unit_of>{_OWNERS})\s+(?:that\s+)?(?P<member>{_PERSON})\s+(?:works|worked)\s+(?:for|at)\b")
# "Jana Dvorak's company: when does our agreement with them end?": which company is a part of its own.
_OWNER_TOPIC = re.compile(rf"^\s*({_PERSON}['’]s\s+{_OWNERS})\s*:\s*(\S.*)$", re.DOTALL)


# "A customer is asking how long the warranty is on the TS-60. What do I tell them?": the question is the one
# relayed; the last sentence asks only what to say.
_RELAYED = re.compile(r"^[^?]*?\b(?:asking|asked|asks|wants to know|wanted to know|wondering|enquiring|inquiring)\s+"
                      r"(?:(?:me|us|him|her|them)\s+)?((?:how|what|when|where|who|which|why|whether|if)\b[^?]*?)"
                      r"[.!]\s+(\S[^.!]*\?)\s*$", re.IGNORECASE | re.DOTALL)
_WHAT_TO_SAY = re.compile(r"^(?:so\s+)?(?:what|how)\s+(?:do|should|can|shall|would)\s+(?:I|we)\s+"
                          r"(?:tell|say(?:\s+to)?|answer|reply(?:\s+to)?|respond(?:\s+to)?)"
                          r"(?:\s+(?:them|him|her|the customer|the caller))?\s*\?$|"
                          r"^(?:so\s+)?what(?:'s|’s| is) the answer\s*\?$", re.IGNORECASE)


def _pieces(question: str) -> list[str]:
    """The question cut where a new question word starts a part, a leading clause that only sets the scene
    moved after the question it belongs to and joined with it ("How long ... off, when the kiosk jammed"); a
    statement that describes what a following question points back at is the first part ("Somebody was told to
    chase the upgrade." + "What's that person's job title?")."""
    relayed = _RELAYED.match(question)
    if relayed and _WHAT_TO_SAY.match(relayed.group(2)):
        return _pieces(relayed.group(1))  # "A customer is asking how long the warranty is. What do I tell them?"
    topic = _OWNER_TOPIC.match(question)
    if topic:
        return [topic.group(1), *_pieces(topic.group(2))]
    told = _STATEMENT_THEN_QUESTION.match(question)
    if told and not _WH_START.match(told.group(1)) and _POINTS_BACK.search(told.group(2)):
        return [told.group(1).strip(" .!"), *_pieces(told.group(2))]
    pieces = [m for m in _SPLIT.split(question) if m and m.strip(" ,;?")]
    if len(pieces) > 1 and (_SCENE.match(pieces[0].strip()) or _SCENE_INSIDE.search(pieces[0])
                            and not _WH_START.match(pieces[0]) and _WH_START.match(pieces[1])):
        scene, main = pieces[0].strip(" ,;?"), pieces[1].strip(" ,;?")
        pieces = [f"{main[:1].upper()}{main[1:]}, {scene[:1].lower()}{scene[1:]}", *pieces[2:]]
    return pieces


def scene_last(question: str) -> str:
    """The question with a leading clause that sets the scene moved after the question it belongs to."""
    pieces = _pieces(question)
    return " ".join(pieces) if pieces and _SCENE.match(question.strip()) else question


def split_question(question: str) -> list[str]:
    """The parts of a question that each ask for something, in order ("Which supplier missed the deadline, and
    what penalty applies?": two). A leading clause that only sets the scene is no part of its own."""
    parts: list[str] = []
    pieces = _pieces(question)
    for piece in pieces:
        # "the singer born who is known for ... and whose third album is ...": a second relative clause
        # about the same person, not a second question.
        if parts and _RELATIVE.match(piece.strip()) and _RELATIVE_INSIDE.search(parts[-1]):
            parts[-1] = f"{parts[-1]} and {piece.strip(' ,;?')}"
        else:
            parts.append(piece.strip(" ,;?"))
    return parts or [question.strip()]


def tidy_question(question: str) -> str:
    """A cleaned-up wording: single spaces, one closing mark, capital first letter."""
    text = " ".join(question.split())
    text = re.sub(r"([?!.])\1+", r"\1", text)
    text = re.sub(r"\s+([?!.,;])", r"\1", text)
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text


_MARKERS = re.compile(r"\s*\[\s*S?\d+(?:\s*[,;]\s*S?\d+)*\s*\]", re.IGNORECASE)


def earlier_turns(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
    """(question, final answer without its citation markers) for each earlier turn, oldest first."""
    turns: list[tuple[str, str]] = []
    for m in messages:
        if is_question(m):
            turns.append((message_text(m).strip(), ""))
        elif isinstance(m, AIMessage) and not m.tool_calls and turns and message_text(m).strip():
            turns[-1] = (turns[-1][0], _MARKERS.sub("", message_text(m)).strip())
    return turns


def read_state(messages: Sequence[BaseMessage]) -> AnswerState:
    start = question_position(messages)
    if start < 0:
        return AnswerState(question="")
    state = AnswerState(question=message_text(messages[start]).strip(), history=earlier_turns(messages[:start]))
    results = tool_results(messages[start + 1:])
    for m in messages[start + 1:]:
        if not isinstance(m, AIMessage) or not m.tool_calls:
            continue
        round_no = len(state.rounds) + 1
        state.rounds.append([(c["name"], dict(c["args"])) for c in m.tool_calls])
        for call in m.tool_calls:
            tm = results.get(call.get("id") or "")
            artifact = tm.artifact if tm is not None else None
            if call["name"] == RUN_PYTHON:
                if isinstance(artifact, dict):
                    state.computed.append(Computed(code=str(call["args"].get("code") or ""),
                                                   output=str(artifact.get("output") or ""),
                                                   ok=bool(artifact.get("ok"))))
                continue
            if call["name"] != SEARCH:
                continue
            state.searched.append(str(call["args"].get("query") or ""))
            if not isinstance(artifact, dict):
                continue
            for rank, ref in enumerate(artifact.get("refs") or [], start=1):
                if isinstance(ref, dict) and isinstance(ref.get("ref"), str):
                    state.passages.append(Passage(
                        ref=ref["ref"], title=str(ref.get("title") or ""), text=str(ref.get("text") or ""),
                        rank=rank, round=round_no, page=ref.get("page"), kind=str(ref.get("kind") or ""),
                        source=str(ref.get("source") or ""), container=str(ref.get("container") or ""),
                        chunk_index=_count(ref.get("chunk_index")), chunk_count=_count(ref.get("chunk_count")),
                    ))
            by_ref = {p.ref: p for p in state.passages}
            matched = artifact.get("matched") or [r.get("ref") for r in artifact.get("refs") or []
                                                  if isinstance(r, dict)]
            for rank, ref_id in enumerate(matched, start=1):
                passage = by_ref.get(ref_id) if isinstance(ref_id, str) else None
                if passage is not None:
                    passage.ranks[round_no] = min(rank, passage.ranks.get(round_no, rank))
    return state


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _clean_span(span: str) -> str:
    span = span.split(",")[0].strip()
    words = span.split()
    while len(words) > 1 and fold(words[0]) in STOPWORDS:
        words.pop(0)  # "If the Supplier": a sentence opening, not part of the name
    for i, w in enumerate(words):
        if w.isdigit():  # "Hull on 17 October": the name ends before the number
            words = words[:i]
            break
    while words and words[-1].lower() in _JOINER_WORDS:
        words.pop()
    return " ".join(words)


# A capitalized number word inside a sentence starts the name after it ("Two Dollar Radio", "Three Dog Night").
_NAME_NUMBER = re.compile(r"\b(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Twelve)\s+$")


def _listed(span: str, start: int, after: str) -> list[tuple[str, int]]:
    """The names of a list ("Thomas Pitera, Richard Kuklinski, Anthony Casso, and Richard Ramirez"), each
    with its offset. Without an "and" after it, commas join a place to its region ("Honolulu, Hawaii,
    United States"): the span stays whole."""
    pieces = [(m.group().strip(), start + m.start() + len(m.group()) - len(m.group().lstrip()))
              for m in re.finditer(r"[^,]+", span)]
    if len(pieces) < 2 or re.match(r",?\s+(?:and|or)\s", after):
        return pieces
    return [(span, start)]


@functools.lru_cache(maxsize=1 << 14)
def entities(sentence: str, question: str) -> tuple[tuple[str, int], ...]:
    """Names and codes in the sentence that the question does not mention, with their offsets."""
    q = fold(question)
    found: list[tuple[str, int]] = []
    for whole, start in entity_spans(sentence):
        number = _NAME_NUMBER.search(sentence[:start])
        if number and number.start() > 0:
            whole, start = sentence[number.start():start] + whole, number.start()  # "Two Dollar Radio"
        for raw, pos in _listed(whole, start, sentence[start + len(whole):]):
            span = drop_possessive(_clean_span(raw))  # "Ezer Weizman's resignation": Ezer Weizman
            if len(span) < 3 or fold(span) in q or fold(span) in STOPWORDS or not any(c.isalpha() for c in span):
                continue
            if all(fold(w) in q for w in span.split()):
                continue
            found.append((span, pos))
    for m in CODE.finditer(sentence):
        if fold(m.group()) not in q and all(m.group() != f for f, _ in found):
            found.append((m.group(), m.start()))
    return tuple(found)


@functools.lru_cache(maxsize=1 << 14)
def regions(sentence: str, question: str) -> tuple[tuple[str, int], ...]:
    """The larger places a place lies in, each on its own: "Zimbabwe" of "Gwanda District, Zimbabwe",
    "Uganda" of "the Eastern Region of Uganda" (not the names of a list, nor names the question gives)."""
    q = fold(question)
    found: list[tuple[str, int]] = []
    for whole, start in entity_spans(sentence):
        of = whole.rfind(" of ")
        if of > 0 and "," not in whole[of:]:
            found.append((whole[of + 4:], start + of + 4))  # "the Eastern Region of Uganda": Uganda
        if "," not in whole or re.match(r",?\s+(?:and|or)\s", sentence[start + len(whole):]):
            continue
        for m in list(re.finditer(r"[^,]+", whole))[1:]:
            span = m.group().strip()
            found.append((span, start + m.start() + len(m.group()) - len(m.group().lstrip())))
    return tuple((span, pos) for span, pos in found if len(span) > 2 and fold(span) not in q)


def name_like(span: str) -> bool:
    words = span.split()
    return len(words) >= 2 and sum(1 for w in words if w[:1].isupper() and w.isalpha()) >= 2


def weights(passages: list[Passage]) -> dict[str, float]:
    """Inverse passage frequency: a word in every passage says little about which sentence answers."""
    df: dict[str, int] = {}
    for p in passages:
        for t in stems(p.text):
            df[t] = df.get(t, 0) + 1
    return {t: 1.0 / (1.0 + 0.5 * math.log(n)) for t, n in df.items()}
