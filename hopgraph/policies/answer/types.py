"""What kind of answer a question asks for, and whether a sentence holds one.

Kinds: a person, a date, an amount, a place, a named thing, a yes/no, a cause. A sentence "holds" the kind
when it carries something of that kind that the question does not already say: a name the question lacks,
a date, a number, a causal link. A sentence that only restates the question holds nothing.
"""

from __future__ import annotations

import re

from hopgraph.policies.answer.evidence import entities, name_like, scene_last, stems
from hopgraph.policies.text import fold

PERSON = "person"
DATE = "date"
AMOUNT = "amount"
PLACE = "place"
THING = "thing"
YESNO = "yes/no"
CAUSE = "cause"

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DATE = re.compile(rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\b|(?:{_MONTHS})\s+\d{{1,2}}\b|"
                   rf"(?:1[0-9]|20)\d\d\b|\d{{4}}-\d\d-\d\d\b|(?:{_MONTHS})\b|\d{{1,2}}(?:st|nd|rd|th)[- ]century\b|"
                   rf"\d{{2,4}}s\b)", re.IGNORECASE)
_NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                 "fifty|hundred|thousand|million|billion|half|dozen")
_AMOUNT = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.IGNORECASE)
_UNITS_OF_TIME = r"(?:second|sec|minute|min|hour|hr|day|week|fortnight|month|quarter|year|decade)s?"
_FREQUENCY = re.compile(rf"\b(?:every|each|per|a|an)\s+(?:(?:\d[\d.,]*|other|{_NUMBER_WORDS}|few|couple of)\s+)?"
                        rf"{_UNITS_OF_TIME}\b|\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|"
                        r"annually|once|twice)\b|\b\w+\s+times\b|"
                        # "every Monday", "each morning", "every other weekend", "on Tuesdays"
                        r"\b(?:every|each)\s+(?:other\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                        r"weekday|weekend|morning|afternoon|evening|night|shift|term)s?\b|"
                        r"\bon\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays)\b",
                        re.IGNORECASE)
_LENGTH = re.compile(rf"(?:\d|\b(?:{_NUMBER_WORDS}|a|an|half an?)\b)[\d.,]*\s*(?:-\s*)?(?:{_UNITS_OF_TIME}|"
                     r"(?:milli|centi|kilo)?met(?:er|re)s?|mm|cm|km|m|miles?|feet|foot|ft|inch(?:es)?|yards?)\b",
                     re.IGNORECASE)
_CLOCK = re.compile(r"\b\d{1,2}[:.]\d\d\b|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)|\b(?:noon|midday|midnight)\b",
                    re.IGNORECASE)
_CAUSE = re.compile(r"\b(?:because|due to|caused|causes|cause was|root cause|traced|owing to|result of|"
                    r"as a result|led to|leads to|reason|after|since|so|failed|failure|broke|expired|outdated)\b",
                    re.IGNORECASE)
_WH = ("who", "whom", "whose", "when", "where", "why", "what", "which", "how")
_AUX = ("is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had", "will", "would",
        "should", "shall", "may", "might", "must")
_PLACE_NOUNS = ("city", "country", "state", "town", "county", "region", "province", "village", "continent",
                "island", "site", "location", "place", "capital", "district", "area", "river", "where")
PERSON_NOUNS = ("person", "man", "woman", "actor", "actress", "author", "writer", "director", "singer", "player",
                "founder", "president", "leader", "engineer", "manager", "owner", "head", "king", "queen",
                "composer", "artist", "producer", "musician", "politician", "coach", "wife", "husband",
                "father", "mother", "son", "daughter", "brother", "sister", "member",
                # Staff named by their job ("which lifeguard ...", "which nurse ..."): a person too.
                "lifeguard", "nurse", "vet", "doctor", "surgeon", "driver", "receptionist", "instructor",
                "supervisor", "technician", "officer", "employee", "colleague", "attendant", "coordinator",
                "administrator", "assistant", "volunteer", "locum", "cleaner", "caretaker", "teacher",
                "lawyer", "solicitor", "accountant", "auditor", "clerk", "secretary", "chair", "signatory",
                "inspector", "surveyor", "architect", "paramedic", "pharmacist", "midwife", "porter", "chef",
                "tutor", "lecturer", "librarian", "mechanic", "electrician", "plumber", "warden", "ranger")
_AMOUNT_HEADS = ("how much", "how many", "how long", "how quickly", "how soon", "how old", "how far", "how big",
                 "how large", "how high", "what temperature",
                 "how tall", "how often", "what percentage", "what amount", "what value", "what price",
                 "what number", "what is the value", "what was the value", "what is the total", "what total",
                 # A measure: "how warm did the store get", "how heavy is the pallet".
                 "how warm", "how cold", "how hot", "how heavy", "how wide", "how deep", "how fast", "how low")


def asked_kind(part: str) -> str:
    """The kind of answer one part of a question asks for."""
    q = " ".join(fold(scene_last(part)).replace("?", " ").split())
    first = q.split(" ", 1)[0] if q else ""
    if re.search(r"\b(?:by|with|to|for|from)\s+(?:who|whom)\s*$", q):
        return PERSON  # "... which was written by who?": the last question word asks
    if first not in _WH and first not in _AUX:
        # "... founded by who?", "Kate Ramsay ... created by whom": the first question word decides.
        inner = re.search(rf"\b({'|'.join(_WH)})\b", q)
        first = inner.group(1) if inner else first
    # (A question after a statement asks with its own first word: "The cert expired. Why didn't it renew?")
    if first == "why" or re.search(r"\b(?:what|which)\s+(?:caused|causes|led to|was the cause|is the cause|"
                                   r"was the reason|is the reason)\b|\bcause of\b|\breason for\b", q):
        return CAUSE
    if (any(q.startswith(h) or f" {h} " in f" {q} " for h in _AMOUNT_HEADS) or _ASKS_MONEY.search(q)
            or _ASKS_RATE.search(q) or _ASKS_PERIOD.search(q) or _ASKS_CAP.search(q)):
        return AMOUNT  # "how much ...", and "what did we pay for ...", "what will it cost"
    if first == "when" or re.search(r"\b(?:what|which|in what)\s+(?:year|date|day|month|decade|century)\b|"
                                    r"\bby when\b|\bwhat time\b", q):
        return DATE
    if first == "where" and _RECORDED.search(q):
        return THING  # "where do the binned items get written down?": a record (the waste sheet), not a place
    if first == "where" or re.search(rf"\b(?:what|which|in which|in what)\s+(?:\w+\s+)?(?:{'|'.join(_PLACE_NOUNS)})\b",
                                     q):
        return PLACE
    if first in ("who", "whom", "whose") or _NAME_OF_PERSON.search(q) or re.search(
            # "which of the firmware engineers ...": one of a group of people.
            rf"\b(?:what|which)\s+(?:of\s+(?:the|our|your|their|these|those)\s+)?(?:\w+\s+)?"
            rf"(?:{'|'.join(PERSON_NOUNS)})s?\b", q):
        return PERSON
    if first in _AUX and " or " not in q:
        return YESNO
    return THING


# A calendar date written out ("2 June 2026", "June 2, 2026", "June 2026", "2026-06-02"): no amount. (A bare year
# stays: "1500" may count people.)
_CALENDAR_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\b(?:,?\s+\d{{4}}\b)?|"
                            rf"\b(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}}\b)?|"
                            rf"\b(?:{_MONTHS})\s+\d{{4}}\b|\b\d{{4}}-\d\d-\d\d\b", re.IGNORECASE)


# "How much does X cost", "how much do we pay / owe / charge ...": the answer is a sum of money.
_ASKS_MONEY = re.compile(r"(?:\bhow much\b.*|\bwhat (?:did|do|does|will|would) (?:[\w'’-]+ ){1,8}?)"
                         r"\b(?:cost|costs|costed|pay|paid|pays|owe|owed|charge|charged|charges|"
                         r"spend|spent|price|fee|fees|earn|earned)\b")
# Written into a record: "where is it written down / recorded / logged?".
_RECORDED = re.compile(r"\b(?:written(?: down)?|write (?:it|them) down|recorded|logged|noted(?: down)?|entered|"
                       r"filed|signed off)\b")
# "What's the hourly rate ...?", "what is the fee for ...": an amount.
_ASKS_RATE = re.compile(r"\bwhat(?:'s|’s| is| was| are| were| would be| will be)? (?:the |our |their |its )?"
                        r"(?:[\w-]+ )?(?:rate|price|fee|charge|wage|salary)s?\b")
# "What's their liability capped at?", "is there a ceiling on it": the most something may come to, an amount.
_ASKS_CAP = re.compile(r"\b(?:capped|limited)\s+(?:at|to)\b|\b(?:cap|ceiling|upper limit)\s+on\b")
# "What's the finance director's name?", "the name of the site manager": a person.
_NAME_OF_PERSON = re.compile(rf"\b(?:{'|'.join(PERSON_NOUNS)})(?:'s|’s|s') names?\b|"
                             rf"\bnames? of (?:the|our|their|its|your) (?:[\w-]+ )?(?:{'|'.join(PERSON_NOUNS)})\b")
# Two figures that bound a range: "between 2 and 8", "2-8 °C", "from 10 to 20".
_RANGE = re.compile(r"\bbetween\s+[-+]?\d[\d.,]*\s*\S*\s+and\s+[-+]?\d|(?<![\w-])[-+]?\d[\d.,]*\s*(?:°\s*C?\s*)?"
                    r"(?:-|–|to)\s*[-+]?\d[\d.,]*(?![\w-])", re.IGNORECASE)
# "What's the warranty period ...?", "what is the notice period": a length of time.
_ASKS_PERIOD = re.compile(r"\bwhat(?:'s|’s| is| was| are| were| would be| will be)? (?:the |our |their |its )?"
                          r"[\w-]+ (?:period|term)\b(?!s)")
# A sum of money given as a share of another: "1 percent of the order value", "10% of the monthly fee".
_SHARE_OF_MONEY = re.compile(r"\d[\d.,]*\s*(?:%|percent\b|per cent\b)\s*of\s+(?:the\s+|that\s+|its\s+|their\s+)?"
                             r"(?:[\w'’-]+\s+){0,2}(?:value|price|fees?|amount|cost|invoice|bill|total|sum|charges?)\b",
                             re.IGNORECASE)
# Buying or putting something in, and keeping it going: a price paid for the one is not the other.
_ACQUIRED = re.compile(r"\b(?:bought|buy|buying|purchased?|purchasing|acquired?|installed|installation|put in|fitted|"
                       r"new|supplied new|brand new)\b")
_UPKEEP = re.compile(r"\b(?:servic(?:e|es|ed|ing)|repairs?|repaired|maintenance|maintained|examination|inspection|"
                     r"inspected|call[- ]out|recalibrat\w*|calibrat\w*|check(?:ed|s)?|overhaul(?:ed)?)\b",
                     re.IGNORECASE)
# A cell of a table row spelled "Column: value; ..." that is a bare number ("energy: 9420": a table's money
# columns need not say they are money).
_TABLE_ROW = re.compile(r"(?:^|;\s*)[^:;]{1,40}:\s*[£€$]?\d[\d,.]*\s*(?:;|$)")
# A sum of money in a sentence or a table row: a currency sign or code, pence, or a money column ("amount_gbp: 865").
_MONEY = re.compile(r"[£€$]\s?\d|\d\s?p\b|\b(?:EUR|GBP|USD|CHF|pounds?|euros?|dollars?|pence)\b|"
                    r"\b(?:amount|cost|price|fee|value|total|spend|budget|gbp|eur|usd)[\w ]{0,20}:\s*[\d£€$]",
                    re.IGNORECASE)


def _new_numbers(sentence: str, question: str, dates: bool = True) -> bool:
    """The sentence has a number the question lacks; ``dates``: one inside a calendar date counts too."""
    q = fold(question)
    if not dates:
        sentence = _CALENDAR_DATE.sub(" ", sentence)
    sentence = _CODE_TOKEN.sub(" ", sentence)  # "INC-2026-029", "PO-4494": names, not figures
    for m in re.finditer(rf"\d[\d,.]*|\b(?:{_NUMBER_WORDS})\b", sentence, re.IGNORECASE):
        if fold(m.group()).strip(".,") not in q:
            return True
    return False


_ASKS_DAY = re.compile(r"\b(?:what|which|the exact)\s+date\b")
_DAY_DATE = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b|"
                       rf"\b(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
                       r"\b\d{4}-\d\d-\d\d\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b", re.IGNORECASE)
_CODE_TOKEN = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z0-9]+)*-\d[\w.-]*")
_IN_CODE = re.compile(r"-\d{4}-|[A-Z]+-\d{4}\b")
_UNTIL = re.compile(r"\b(?:until|till)\b", re.IGNORECASE)
_LOOKS_AHEAD = re.compile(r"\bwhen (?:will|shall|(?:is|are) (?:[\w'’-]+ ){1,8}?(?:due|expected|going|set|planned))\b")
_SINCE = re.compile(rf"\bsince\s+(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:(?:{_MONTHS}),?\s+)?$",
                    re.IGNORECASE)


# The currency a money sign stands for.
CURRENCY_OF_SYMBOL = {"£": "GBP", "€": "EUR", "$": "USD"}


def asks_money(question: str) -> bool:
    """The question asks for a sum of money: a cost, a price, a rate, a fee."""
    q = fold(question)
    return bool(_ASKS_MONEY.search(q) or _ASKS_RATE.search(q))


def states_money(sentence: str) -> bool:
    """The sentence gives a sum of money ("£40", "45p", "amount_gbp: 3175.00")."""
    return bool(_MONEY.search(sentence))


# "What number do I ring ...?", "which number should I call": a telephone number, which records call "Phone".
PHONE_ASKED = re.compile(r"\bnumbers?\b.*\b(?:ring|call|phone|dial|text)\b|"
                         r"\b(?:ring|call|phone|dial)\b.*\bnumbers?\b", re.IGNORECASE)
# Seven digits or more, in groups or not: "01632 810 202", "+44 20 7946 0958", "555-0142" (not a date).
_PHONE_NUMBER = re.compile(r"(?<![\w.,])(?!\d{4}-\d\d-\d\d\b)\+?\d[\d ()-]{5,}\d(?![\w.,])")


def _cell_values(sentence: str) -> str:
    """A table row's cells without their column names; any other sentence as it is."""
    cells = [c.partition(":") for c in sentence.split(";")]
    if len(cells) < 2 or not all(sep and name.strip() for name, sep, _ in cells):
        return sentence
    return "; ".join(value.strip() for _, _, value in cells)


# A measure the question asks for by its quality, and the units that say one.
_MEASURES = (
    (re.compile(r"\bhow (?:warm|cold|hot)\b|\bwhat temperature\b"),
     re.compile(r"\d\s*(?:°|º|degrees?\b|deg\b)", re.IGNORECASE)),
    (re.compile(r"\bhow heavy\b|\bwhat (?:weight|mass)\b"),
     re.compile(r"\d\s*(?:kg|kilo(?:gram)?s?|g|grams?|tonnes?|t|lbs?|ounces|oz)\b", re.IGNORECASE)),
    (re.compile(r"\bhow fast\b|\bwhat speed\b"),
     re.compile(r"\d\s*(?:km/h|kph|mph|m/s|knots?|(?:\w+\s+)?(?:per|an|a)\s+(?:hour|second|minute))\b",
                re.IGNORECASE)),
    (re.compile(r"\bhow (?:wide|deep|tall|far)\b"),
     re.compile(r"\d\s*(?:mm|cm|m|km|metres?|meters?|kilomet(?:re|er)s?|feet|foot|ft|inch(?:es)?|miles?|yards?)\b",
                re.IGNORECASE)),
)


def holds_kind(sentence: str, kind: str, question: str) -> bool:
    """The sentence carries an answer of ``kind`` that the question does not already give."""
    if kind == YESNO:
        return True
    if kind == CAUSE:
        return bool(_CAUSE.search(sentence))
    if kind == DATE:
        q = fold(question)
        sentence = _cell_values(sentence)  # "Budget 2026 EUR: 180,000": the year names a column, it dates nothing
        if re.search(r"\bwhat time\b", q):
            return bool(_CLOCK.search(sentence))  # a time of day, not any date
        if _ASKS_DAY.search(q):
            # "On what date ...?": a day of a month, not a year or a budget year ("falls in 2026-27").
            return any(fold(m.group()) not in q for m in _DAY_DATE.finditer(sentence))
        # "When will it reopen?" looks ahead: "closed since 2 March" says when something began, not when it ends.
        ahead = bool(_LOOKS_AHEAD.search(q))
        return any(fold(m.group()) not in q
                   and not (ahead and _SINCE.search(sentence[max(0, m.start() - 24):m.start()]))
                   and not _IN_CODE.match(sentence, max(0, m.start() - 1))  # "INC-2026-019" holds no year
                   for m in _DATE.finditer(sentence))
    if kind == AMOUNT:
        q = fold(question)
        # "How often": a frequency; "how long": a length of time or of something.
        if re.search(r"\bhow often\b", q):
            return bool(_FREQUENCY.search(sentence))
        if PHONE_ASKED.search(q):
            return bool(_PHONE_NUMBER.search(sentence))  # a telephone number, not "Visit 1"
        if re.search(r"\brange\b", q) and not _RANGE.search(sentence):
            return False  # "What temperature range ...?": "between 2 and 8 degrees", not "rose to 9 degrees"
        for asks, unit in _MEASURES:
            if asks.search(q):
                # "How cold must the cylinders be kept?": a temperature, not "within twenty minutes".
                return bool(unit.search(sentence)) and _new_numbers(sentence, question, dates=False)
        if re.search(r"\bhow (?:long|quickly|soon)\b", q) or _ASKS_PERIOD.search(q):
            # "How long should he be kept on the board?": "until the paramedics take over" says how long too.
            return ((bool(_LENGTH.search(sentence)) and _new_numbers(sentence, question))
                    or bool(_UNTIL.search(sentence)))
        if (_ASKS_MONEY.search(q) and not _MONEY.search(sentence) and not _TABLE_ROW.search(sentence)
                and not _SHARE_OF_MONEY.search(sentence)):
            # "how much does parking cost": a sum of money, not a count of spaces (a table row's columns may be
            # money without saying so: "energy: 9420" in a table of costs)
            return False
        if _ASKS_MONEY.search(q) and _ACQUIRED.search(q) and _UPKEEP.search(sentence) and not _ACQUIRED.search(
                fold(sentence)):
            # "How much did we pay for the forklifts when we bought them?": a bill for servicing them is not it.
            return False
        return _new_numbers(sentence, question, dates=False)
    found = entities(sentence, question)
    if kind == PERSON:
        given = _given_names(question)
        return any((name_like(span) or _single_name(sentence, span, pos)) and _personal(sentence, span, pos)
                   and not given & set(span.split()) for span, pos in found)
    if kind == PLACE:
        # A place is said as one: after "in", "at", "from" ..., before ", Region", as a labelled cell
        # ("site: Kestrel Road") or with a word of places ("Mill Lane"); "by singer-songwriter M. Ward" is no place.
        return (any((pos > 0 or name_like(span)) and _placed(sentence, span, pos) for span, pos in found)
                or any(fold(m.group()) not in fold(question) for m in _PLACE_PHRASE.finditer(sentence)))
    # A named thing: a name, a code, or a figure the question lacks.
    return bool(found) or _new_numbers(sentence, question)


def quoted_holds_kind(text: str, kind: str, question: str) -> bool:
    """:func:`holds_kind` of a quoted text, which may carry the sentence before it ("The pastry team is based at
    Eastgate. Omar Haddad leads it."): its last sentence must hold the answer."""
    return holds_kind(text.split(". ")[-1], kind, question)


_WHO_IS = re.compile(r"^\W*(?:and\s+)?who(?:'s|\s+(?:is|was|are|were))\s", re.IGNORECASE)


def _given_names(question: str) -> set[str]:
    """The capitalized words inside a question asking who did something ("who took over from Anjali?"): a name
    holding one of them is the person the question starts from, not the one it asks for. Empty for "who is
    Anjali?", which asks about the person it names."""
    if _WHO_IS.search(question):
        return set()
    words = (re.sub(r"['’]s$", "", w.strip("?,.!;:\"()")) for w in question.split()[1:])
    return {w for w in words if w[:1].isupper() and w.isalpha()}


# Words that make a name an organisation, a place or a work rather than a person.
_NOT_PERSON_WORDS = """
university college school academy institute company corporation corp inc ltd llc plc gmbh ag ab oy sa records
league club association society party church river county city state province airport film album song band team
united national international museum hotel station street road park bridge island mountains lake game series show
festival award awards prize cup championship war battle act bank group studios pictures network channel magazine
newspaper times news agreement services
"""
_NOT_PERSON = frozenset(_NOT_PERSON_WORDS.split())
# The last word of a job title.
_JOB_WORDS = frozenset(PERSON_NOUNS) | {"manager", "managers", "lead", "nurses", "vets", "staff", "clerk", "partner",
                                        "controller", "operative", "receptionist", "secretary", "treasurer",
                                        "director", "chair", "trustee", "librarian", "inspector", "advisor",
                                        "adviser", "planner", "analyst", "buyer", "keeper", "warden"}


_DETERMINER = re.compile(r"\b(?:the|this|that|these|a|an|our|its|their|each|every|any)\s+$", re.IGNORECASE)


def is_job_title(span: str) -> bool:
    """"Senior Pool Attendant", "Deputy Head Nurse": the last word names a job."""
    words = span.split()
    return bool(words) and fold(words[-1]) in _JOB_WORDS


_LOCATIVE_BEFORE = re.compile(r"\b(?:in|at|from|near|to|into|outside|around|across|throughout|within|between|"
                              r"based|located|born|held|headquartered)\s+(?:the\s+)?$|(?:^|;\s*)[\w ]{1,30}:\s*$",
                              re.IGNORECASE)
PLACE_WORDS = frozenset(stems("city town county state street road lane avenue square park centre center hall house "
                               "building station airport port harbour bridge river lake mountain island valley "
                               "district province region country kingdom republic village estate barns farm office "
                               "warehouse depot library clinic surgery school hospital yard wharf quay dock court "
                               "close drive"))


# "Invite the person to the quiet room", "kept in the plant room store": a place inside a building, unnamed.
_PLACE_HEADS = (r"(?:room|area|office|yard|bay|store|storeroom|cupboard|cabinet|hall|entrance|corridor|car park|shed|"
                r"building|safe|locker)s?")
# "to the store room", and without an article when a letter or number says which one ("to cold store A", "in bay 4").
_PLACE_PHRASE = re.compile(rf"\b(?:to|in|into|inside|at|behind|outside|next to)\s+(?:(?:the|a|an|our)\s+"
                           rf"(?:[a-z\-]+\s+){{0,2}}{_PLACE_HEADS}\b|(?:[a-z\-]+\s+){{0,2}}{_PLACE_HEADS}\s+"
                           rf"(?:[A-Z]|\d+)\b)")


def _placed(sentence: str, span: str, pos: int) -> bool:
    """The name stands where a place is said."""
    if _LOCATIVE_BEFORE.search(sentence[max(0, pos - 40):pos]):
        return True
    if re.match(r",\s*[A-Z]", sentence[pos + len(span):]) or sentence[max(0, pos - 2):pos] == ", ":
        return True
    return bool(stems(span) & PLACE_WORDS)


# "based at Eastgate", "works nights in Millbrook": one word after these is a place, not a person.
_AT_PLACE = re.compile(r"\b(?:at|in|near|into|outside)\s+$", re.IGNORECASE)


# A table cell whose column names no one who could be asked "who ...?" ("Status: Paid", "Category: Housings"): its
# one word is a value, not a given name. (Columns that hold people or firms: "Contact: Jonas", "Owner: Priya",
# "Signed by: Helen", "Supplier: Aquadose".)
_NON_PERSON_CELL = re.compile(r"(?:^|;\s*)(?![^:;]*\b(?:contact|owner|name|by|person|lead|holder|staff|manager|"
                              r"signatory|author|approver|assignee|responsible|who|supplier|vendor|company|contractor|"
                              r"carrier|haulier|customer|client|firm|provider)\b)[^:;]{1,40}:\s*$", re.IGNORECASE)


def _single_name(sentence: str, span: str, pos: int) -> bool:
    """One capitalized word inside the sentence that can be a name: not an acronym ("EUR"), not a noun after an
    article ("the Supplier"), not a value of a column that holds no people ("Status: Paid"). (A label, "Lessons: 1
    lifeguard", is no name either: see :func:`_personal`, which every caller asks too.)"""
    return (pos > 0 and span.isalpha() and not span.isupper()
            and not _DETERMINER.search(sentence[max(0, pos - 12):pos])
            and not _AT_PLACE.search(sentence[max(0, pos - 8):pos])
            and not _NON_PERSON_CELL.search(sentence[max(0, pos - 40):pos]))


def is_personal(sentence: str, span: str, pos: int) -> bool:
    """The span at ``pos`` reads as a person's name: a full name or a single given name, not a job or a work."""
    # "every Stock Controller": a determiner makes it a role, whatever its words.
    return ((name_like(span) or _single_name(sentence, span, pos)) and _personal(sentence, span, pos)
            and not _DETERMINER.search(sentence[max(0, pos - 12):pos]))


def _personal(sentence: str, span: str, pos: int) -> bool:
    """The name can be a person's: not quoted (a title) and without an organisation's or a work's word."""
    if pos > 0 and sentence[pos - 1] in "\"“'‘":
        return False
    if " and " in span or " of " in span:
        return False  # "England and Wales", "Bank of England": a pair or a body, not one person's name
    if re.match(r"[^;:.]{0,30}:", sentence[pos + len(span):]):
        return False  # a label, or its first words: "Amount EUR: 31,600", "Due date: 2026-09-05"
    # "Centre Manager", "Deputy Head Nurse": a job title, not a name.
    return not any(fold(w) in _NOT_PERSON for w in span.split()) and not is_job_title(span)


def restates(sentence: str, question: str) -> bool:
    """Nearly every content word of the sentence is already in the question: it answers nothing."""
    got = stems(sentence)
    return bool(got) and len(got - stems(question)) <= max(1, len(got) // 5)
