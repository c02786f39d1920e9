"""A percentage of a stated amount, or what is left of the amount once that share is taken off.

"Once the grant is taken off, how much of the X-ray room refit does the group have to fund itself?" over "a grant
covering 25% of the quoted cost" and "Calder Build Ltd quoted £38,400 for the whole job" is £38,400 × (100% − 25%).
Without words that ask for the rest ("taken off", "after", "left", "net of", "itself", ...) the answer is the share
itself (£38,400 × 25%). "£120,000, of which 10% is held back" is a share of the amount before it. Otherwise the
percentage comes from the sentence saying "N% of the <thing>" that shares the most words with the question (with
its document's title); the amount from a sentence with a sum of money that speaks of that thing ("quoted cost":
"quoted £38,400"), in the same document first. The policy runs the product through ``run_python``.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.aggregate import ASKS_QUANTITY, Aggregate, Operand, asks_for_arithmetic
from hopgraph.policies.answer.evidence import Passage, entities, stems
from hopgraph.policies.answer.paragraphs import passage_sentences
from hopgraph.policies.answer.types import CURRENCY_OF_SYMBOL

_SHARE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|per ?cent)\s+of\s+(?:the\s+|its\s+|their\s+|our\s+)?([^,.;:()]{2,40})",
                    re.IGNORECASE)
_OF_WHICH = re.compile(r"\bof which\s+(\d+(?:\.\d+)?)\s*(?:%|per ?cent)", re.IGNORECASE)
_MONEY = re.compile(r"([£€$])\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\d|,\d)|"
                    r"\b(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(EUR|GBP|USD|CHF)\b")
# Words that ask for what is left once the share is taken off.
_REST = re.compile(r"\b(?:taken? off|after|less|minus|net of|left|remaining|remainder|the rest|balance|itself|"
                   r"themselves|ourselves|out of (?:its|our|their) own)\b", re.IGNORECASE)
_MIN_SHARED = 2


def _best_share(question: str, sentences: list[tuple[str, Passage]]) -> tuple[re.Match[str], str, Passage] | None:
    """The percentage the question asks about: of the sentences with one, the one sharing the most words with it."""
    want = stems(question)
    shares = []
    for order, (sentence, passage) in enumerate(sentences):
        for m in _SHARE.finditer(sentence):
            shares.append((len(stems(f"{passage.title} {sentence}") & want), -order, m, sentence, passage))
        which = _OF_WHICH.search(sentence)
        if which and _MONEY.search(sentence[:which.start()]):
            # "£120,000, of which 10% is held back": the share of the amount just before it.
            shares.append((len(stems(f"{passage.title} {sentence}") & want), -order, which, sentence, passage))
    if not shares:
        return None
    shared, _, share, share_sentence, share_passage = max(shares, key=lambda t: (t[0], t[1]))
    return (share, share_sentence, share_passage) if shared >= _MIN_SHARED else None


def share_of_amount(question: str, passages: list[Passage]) -> Aggregate | None:
    """The share (or the rest) of an amount the question asks for (see the module text), or None."""
    if not ASKS_QUANTITY.search(question) or asks_for_arithmetic(question):
        return None
    want = stems(question)
    sentences = [(s, p) for p in passages for s in passage_sentences(p)]
    best = _best_share(question, sentences)
    if best is None:
        return None
    share, share_sentence, share_passage = best
    if not _about_asked(question, share_sentence, share_passage):
        return None
    if share.re is _OF_WHICH:
        before = list(_MONEY.finditer(share_sentence[:share.start()]))[-1]
        return _product(before, share_sentence, share_passage, share, share_sentence, share_passage, question)
    of = stems(share.group(2))
    if not of:
        return None
    amounts = []
    for order, (sentence, passage) in enumerate(sentences):
        if sentence == share_sentence:
            continue
        talks_of = len(stems(sentence) & of)
        for m in _MONEY.finditer(sentence):
            if talks_of:
                same = passage.source == share_passage.source and passage.title == share_passage.title
                amounts.append((same, talks_of, len(stems(sentence) & want), -order, m, sentence, passage))
    if not any(same for same, *_ in amounts):
        # No amount in the share's document speaks of what it is of: one a sentence there picks by name, before
        # one from another document.
        picked = _amount_picked(stems(" ".join(share.group(2).split()[:2])), sentences, share_sentence,
                                share_passage)
        if picked is not None:
            return _product(*picked, share, share_sentence, share_passage, question)
    if not amounts:
        return None
    *_, money, amount_sentence, amount_passage = max(amounts, key=lambda t: t[:4])
    return _product(money, amount_sentence, amount_passage, share, share_sentence, share_passage, question)


def _amount_picked(of: set[str], sentences: list[tuple[str, Passage]], share_sentence: str,
                   share_passage: Passage) -> tuple[re.Match[str], str, Passage] | None:
    """The amount a sentence of the share's document picks by name, when the amounts do not say which one the share
    is of.

    "40% of the accepted quote" over quotes listed by firm ("Kingsmere Tiling Ltd: £46,500", ...) and "agreed to
    accept the Kingsmere quote": the one amount of that document whose sentence holds a name that a sentence saying
    all of "accepted quote" gives."""
    own = [(s, p) for s, p in sentences if p.source == share_passage.source and p.title == share_passage.title]
    for sentence, _ in own:
        if sentence == share_sentence or not of or not of <= stems(sentence) or _MONEY.search(sentence):
            continue
        for name, _pos in entities(sentence, ""):
            first = name.split()[0]
            found = [(m, s, p) for s, p in own if s != sentence and re.search(rf"\b{re.escape(first)}\b", s)
                     for m in _MONEY.finditer(s)]
            if len(found) == 1:
                return found[0]
    return None


# What a question asks the amount of: "of the kennel block", "for the moveable floor" (up to the next little word).
_PAYER = re.compile(r"for (?:our|its|their) own\b", re.IGNORECASE)
_ASKED_THING = re.compile(r"\b(?:of|for|on|towards)\s+(?:the|our|its|their|this|that)\s+"
                          r"((?:[\w'’-]+\s+){0,4}?[\w'’-]+?)(?=\s+(?:in|at|on|for|when|after|before|by|with|to|from|and|or|that|which|does|do|did|is|"
                          r"was|were|are|has|have)\b|[?,.;]|$)", re.IGNORECASE)


def _about_asked(question: str, share_sentence: str, passage: Passage) -> bool:
    """Each thing the question asks the amount of is named by the share's sentence or its document's title: "how much
    did the trust pay for the moveable floor?" is not answered by a share of the retiling quote."""
    have = stems(f"{passage.title} {share_sentence}")
    # "... left for our own equipment reserve to cover": who pays, not what the amount is of.
    return all(not stems(m.group(1)) or stems(m.group(1)) & have for m in _ASKED_THING.finditer(question)
               if not _PAYER.match(m.group(0)))


def _product(money: re.Match[str], amount_sentence: str, amount_passage: Passage, share: re.Match[str],
             share_sentence: str, share_passage: Passage, question: str) -> Aggregate:
    """The amount times the share (or what is left of it), each operand with the sentence it came from."""
    text = money.group(2) or money.group(3)
    currency = CURRENCY_OF_SYMBOL[money.group(1)] if money.group(1) else money.group(4).upper()
    percent = float(share.group(1))
    rest = bool(_REST.search(question))
    factor = (100 - percent) / 100 if rest else percent / 100
    label = f"(100% − {share.group(1)}%)" if rest else f"{share.group(1)}%"
    operands = [Operand(float(text.replace(",", "")), f"{money.group(1) or ''}{text}", amount_sentence,
                        amount_passage),
                Operand(factor, label, share_sentence, share_passage)]
    agg = Aggregate("product", operands, "", unit=currency)
    agg.inputs = list(operands)
    return agg

