"""When the built-in answer policy searches again after its first round, and for what: whether the first part of a
question in parts still needs a search of its own, whether a one-part question follows the bridge its first results
name, the words no passage found holds, and the query of the hop (the bridge with the question's uncovered words).
"""

from __future__ import annotations

from hopgraph.policies.answer.aggregate import without_arithmetic_words
from hopgraph.policies.answer.bridge import bridge_kind, find_bridge_evidence, follow_up_query, pointed_back_kind
from hopgraph.policies.answer.evidence import CODE, AnswerState, Passage, stems
from hopgraph.policies.answer.select import best_sentences, doc_links
from hopgraph.policies.answer.types import asked_kind
from hopgraph.policies.text import fold


def first_part_unanswered(state: AnswerState, parts: list[str]) -> bool:
    """The first results name no bridge for the first part apart from in the sentence that best answers a
    later part: the search was about the later part."""
    evidence = find_bridge_evidence(state, parts[0])
    if evidence is None:
        return True
    later = best_sentences([p for p in state.passages if p.round == 1], stems(parts[1]), parts[1],
                           asked_kind(parts[1]))
    return bool(later) and later[0].text.endswith(evidence[1])


def described_bridge_found(state: AnswerState, parts: list[str]) -> bool:
    """The first part describes the bridge and the next asks for it ("The data sheet recommends a minimum firmware.
    Which version is that?"), and the first results name one: its sentence answers the later part by design, and
    "minimum" there describes the bridge, not an extreme among table rows."""
    return bool(pointed_back_kind(parts[1])) and find_bridge_evidence(state, parts[0]) is not None


def worth_following(state: AnswerState, question: str, bridge: str) -> bool:
    """A one-part question follows a bridge (a name or a code) when its best first-round sentence holds no
    answer of the asked kind, or when the question describes what it passes through ("an NFL team based
    in ..."): the answer is then in the bridge's own document ("He played for the Philadelphia Eagles":
    in which state?)."""
    if not any(w[:1].isupper() and w.isalpha() for w in bridge.split()) and not CODE.fullmatch(bridge):
        return False
    ranked = best_sentences([p for p in state.passages if p.round == 1], stems(question), question,
                            asked_kind(question), links=doc_links(question, state.passages))
    if not ranked or not ranked[0].holds:
        return True
    # "Who painted X?" is answered by the name itself; "who directed the film that ...?" goes through it.
    return bool(bridge_kind(question))


# "how long", "how much": words that ask, not what is asked about.
_ASKING = frozenset({"long", "much", "many", "often", "far", "old", "soon"})


def unseen_words(question: str, passages: list[Passage]) -> str:
    """The question's content words, as written, that no passage found contains; verb forms ("turning",
    "switched"), the words of "how long" / "how much" and those asking for arithmetic ("put together") left out,
    as they name no thing to look for."""
    seen = set().union(*(stems(p.title + " " + p.text) for p in passages)) if passages else set()
    words = [w.strip("?,.!;:'\"()") for w in without_arithmetic_words(question).split()]
    return " ".join(dict.fromkeys(
        w for w in words if stems(w) and not stems(w) & seen and fold(w) not in _ASKING
        and not (w.islower() and w.endswith(("ing", "ed")))))


def hop_query(state: AnswerState, question: str, bridge: str) -> str:
    """The bridge with the question's words that the bridge sentence's document does not already cover."""
    evidence = find_bridge_evidence(state, question)
    covered = stems(evidence[2].title) if evidence else set()
    rest = " ".join(w for w in question.split() if not (stems(w) and stems(w) <= covered))
    return follow_up_query(bridge, rest)
