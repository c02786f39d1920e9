"""Small text helpers for the offline policy: terms, sentences, entity spans and whole-word phrase search."""

from __future__ import annotations

import functools
import re
import unicodedata


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)
# A sentence may open with Markdown emphasis ("... in August. **Action:** Lucia Brandt to ...").
_SENT = re.compile(r"(?<=[.!?;])\s+(?=[*_]{0,2}[A-Z0-9\"'(])")
_QUOTED = re.compile(r"[\"“]([^\"”]{2,80})[\"”]")
# A run of capitalized words (or numbers inside them), allowing short lowercase joiners.
_SPAN_TOKEN = re.compile(r"[\w][\w'’.\-&]*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")

STOPWORDS = _wordset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each either few for from further had has have having he
her here hers herself him himself his how i if in into is it its itself just me more most my myself neither no
nor not now of off on once only or other our ours out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up very was we were
what when where which while who whom whose why will with would you your yours known named called located one
two many much first second third last name kind type year years
""")

# Capitalized words that start sentences or questions but name nothing.
_NOT_NAMES = _wordset("""
the a an in on at of for and or but he she it they his her its their this that these those there which who
what when where why how is was were are be by from with as to after before during since while although however
if each every unless whether
also both either neither some many most one two three four five six seven eight nine ten eleven twelve
first second third
january february march april may june july august september october november december monday tuesday wednesday
thursday friday saturday sunday
""")

# Single capitalized words that rarely name a document of their own: nationalities, languages, labels.
GENERIC_NAMES = _wordset("""
american british english french german italian spanish portuguese dutch russian chinese japanese korean indian
canadian australian irish scottish welsh european african asian latin greek roman christian catholic
protestant jewish muslim islamic arab arabic persian turkish polish swedish norwegian danish finnish mexican
brazilian argentine egyptian hindi sanskrit urdu tamil telugu bengali western eastern northern southern north
south east west note part chapter section figure table see also however
""")

_JOINERS = frozenset({"of", "the", "de", "la", "le", "du", "von", "van", "der", "den", "di", "da", "del", "and", "&",
                      "for", "on", "upon", "in", "y", "bin", "al"})


@functools.lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """Lowercase without accents, so Akinoshū matches Akinoshu."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@functools.lru_cache(maxsize=1 << 16)
def _terms(text: str) -> tuple[str, ...]:
    return tuple(w for w in words(text) if w not in STOPWORDS and len(w) > 1)


def drop_possessive(text: str) -> str:
    """A possessive names its owner: "Love's" -> "Love", "Ezer Weizman's" -> "Ezer Weizman"."""
    return _POSSESSIVE.sub("", text)


def terms(text: str) -> list[str]:
    """Content words: folded, without stopwords and one-letter tokens."""
    return list(_terms(text))


def sentences(text: str) -> list[str]:
    return [s for s in _SENT.split(text) if s.strip()]


def base_title(title: str) -> str:
    """A title without its disambiguation: 'Adolescence #1' and 'Adolescence (book)' -> 'Adolescence'."""
    title = re.sub(r"\s*#\d+$", "", title.strip())
    title = re.sub(r"\s*\([^)]*\)$", "", title)
    return title.strip()


def _is_cap(token: str) -> bool:
    return token[:1].isupper() or token[:1].isdigit()


def _starts_sentence(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence, a line, a heading, a list item or a table cell."""
    i = start
    while i > 0 and text[i - 1] in " \t#*>|-\u2022":  # walk back over spaces and markup, without copying the text
        i -= 1
    return i == 0 or text[i - 1] in ".!?:;\n\"("


@functools.lru_cache(maxsize=256)
def _lowercase_words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text) if w.islower())


def _common_word(word: str, text: str, start: int, end: int) -> bool:
    """A single capitalized word that is a field label ("Status: closed") or a common word capitalized only
    because it opens a sentence or a line: a stopword ("Until the fix shipped") or a word the text writes
    in lowercase elsewhere ("Delay penalties ... the delay")."""
    if word.isalpha() and text[end:end + 1] == ":":
        return True
    if not word[:1].isupper() or not _starts_sentence(text, start):
        return False
    lower = word.lower()
    return lower in STOPWORDS or lower in _lowercase_words(text)


def entity_spans(text: str) -> list[tuple[str, int]]:
    """Names in the text, as (span, character offset), in order of appearance.

    A name is a run of capitalized words, possibly joined by short lowercase words
    ("University of Copenhagen"), or a quoted phrase.
    """
    found: list[tuple[str, int]] = []
    tokens = list(_SPAN_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        tok = tokens[i].group().rstrip(".")
        if not _is_cap(tok) or tok.lower() in _NOT_NAMES or tok.isdigit():
            i += 1
            continue
        j = i + 1
        end = i
        while j < len(tokens):
            nxt = tokens[j].group().rstrip(".")
            gap = text[tokens[j - 1].end():tokens[j].start()]
            # A comma, or an ampersand ("Harrow & Fell Booksellers"), before a capitalized word stays in a name.
            joined = gap.strip() in (",", "&")
            if gap.strip() not in ("", ",", "&") or (joined and not nxt[:1].isupper()) or "\n" in gap:
                break  # a name does not run across punctuation or a line break (headings, table cells)
            prev = tokens[j - 1].group()
            if prev.endswith(".") and len(prev) > 3 and "." not in prev[:-1]:
                break  # a sentence ended ("... Association. Hank Snow ...")
            if _is_cap(nxt) and nxt.lower() not in _NOT_NAMES:
                end = j
                j += 1
            elif nxt.lower() in _JOINERS and j + 1 < len(tokens) and _is_cap(tokens[j + 1].group()):
                j += 1
            else:
                break
        span = text[tokens[i].start():tokens[end].end()].rstrip(".,")
        if end > i or not _common_word(tok, text, tokens[i].start(), tokens[i].end()):
            found.append((span, tokens[i].start()))
        i = end + 1
    for m in _QUOTED.finditer(text):
        span = m.group(1).strip()
        if span and len(span.split()) <= 8:
            found.append((span, m.start(1)))
    found.sort(key=lambda x: x[1])
    return found


@functools.lru_cache(maxsize=1 << 16)
def norm(text: str) -> str:
    """Folded, with runs of whitespace made single spaces."""
    return " ".join(fold(text).split())


def find_phrase(text: str, phrase: str) -> int:
    """Offset of the first whole-word occurrence, or -1."""
    i = text.find(phrase)
    while i >= 0:
        before = text[i - 1] if i > 0 else " "
        after = text[i + len(phrase)] if i + len(phrase) < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            return i
        i = text.find(phrase, i + 1)
    return -1


def name_head(name: str) -> str:
    """A folded name without what follows its first comma or a joining "in", "at" or "on":
    "west chicago, illinois" and "west chicago in illinois" -> "west chicago"."""
    name = name.split(",", 1)[0]
    for joiner in (" in ", " at ", " on "):
        name = name.split(joiner, 1)[0]
    return name.strip()


_PART_SPLIT = re.compile(r",\s+|\s+(?:in|and|at)\s+|\s*&\s*")


def name_parts(name: str) -> list[str]:
    """The names a compound name lists, after the whole: "Limpopo River in Gwanda District, Zimbabwe" -> the
    whole, "Limpopo River", "Gwanda District", "Zimbabwe". "of" joins one name ("University of Vienna"), so
    it does not split; parts that start lowercase, are shorter than three letters or are generic labels
    ("American") are dropped."""
    parts = [p.strip(" .") for p in _PART_SPLIT.split(name)]
    found = [name]
    for p in parts:
        if len(p) > 2 and p[:1].isupper() and p not in found and fold(p) not in GENERIC_NAMES:
            found.append(p)
    return found
