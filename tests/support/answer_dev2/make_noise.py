"""Write the routine documents of the answer_dev2 set: short day-to-day records of Corrow Valley Libraries.

They use the same words as the real documents (branches, kiosks, the depot, the mobile library, crates, volunteers)
but carry none of the facts the questions ask about. Deterministic: running it again rewrites the same files.

    python tests/support/answer_dev2/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVICE = HERE / "docs" / "service" / "routine"
FINANCE = HERE / "docs" / "finance" / "routine"

BRANCHES = {
    "Central Library": ["Marcus Oyelaran", "Petra Vance", "Carys Mallory"],
    "Priory Library": ["Noah Brennick", "Aoife Delaney"],
    "Brookside Library": ["Maisie Trelawney", "Zofia Marek"],
    "Tanners Library": ["Owen Lusk", "Patrick Nolan"],
}
SLUG = {
    "Central Library": "central",
    "Priory Library": "priory",
    "Brookside Library": "brookside",
    "Tanners Library": "tanners",
}
DEPOT_STAFF = ["Gareth Bowen", "Dilys Probert"]

OPENING_NOTES = [
    "Leaflet rack by the door refilled.",
    "Toilet roll holder in the accessible toilet is loose; reported to the caretaker.",
    "Receipt roll in the kiosk replaced before opening.",
    "Lift tested, working normally.",
    "One public PC slow to start; restarted and fine.",
    "Outside bin overflowing after the weekend; council waste team told.",
    "Noticeboard tidied and out-of-date posters removed.",
    "Bike rack has an abandoned bike; label attached asking the owner to move it.",
    "All fine, nothing to report.",
    "Children's area rug vacuumed again after yesterday's craft session.",
]
EVENTS = [
    ("Rhyme time", 8, 34),
    ("Lego club", 6, 22),
    ("Knit and natter", 4, 15),
    ("Reading group", 5, 12),
    ("Code club", 4, 14),
    ("Family history drop-in", 3, 11),
    ("Baby bounce", 9, 30),
    ("Chess club", 4, 10),
    ("Author talk", 18, 46),
    ("Job club", 2, 9),
]
EVENT_NOTES = [
    "Good mix of regulars and new faces.",
    "Two families asked about joining the library; forms given.",
    "Ran ten minutes over because of the craft activity.",
    "Quieter than usual, probably the weather.",
    "Several people asked for the session to move to a later time.",
    "New volunteer helped for the first time and did well.",
    "Ran out of glue sticks; more requested from the depot.",
]
LOST_ITEMS = [
    "black umbrella",
    "reading glasses in a red case",
    "child's blue cardigan",
    "single leather glove",
    "water bottle with stickers",
    "house keys on a football key ring",
    "library book from another authority",
    "scarf (grey, knitted)",
    "pencil case",
    "phone charger left in a PC desk socket",
    "toddler's shoe",
]
COMMENTS = [
    (
        "Compliment",
        "Staff were really patient helping my father print his boarding pass.",
        "Thanked the customer and passed the comment to the team.",
    ),
    (
        "Suggestion",
        "Could you open earlier on Saturdays?",
        "Explained the current hours and added the suggestion to the opening hours log.",
    ),
    (
        "Complaint",
        "The children's area was noisy during the reading group.",
        "Apologised; the reading group will use the meeting room where it is free.",
    ),
    (
        "Suggestion",
        "Please get more graphic novels for teenagers.",
        "Passed to the stock team with the titles the customer listed.",
    ),
    ("Compliment", "The rhyme time leader is wonderful, my daughter loves it.", "Passed on to the session leader."),
    ("Complaint", "Printer ran out of toner while I was printing.", "Refunded 40p and replaced the toner cartridge."),
    ("Suggestion", "A water fountain would be nice in summer.", "Logged for the next building review."),
    ("Compliment", "Thank you for the large-print westerns, my husband is delighted.", "Thanked the customer."),
]
VILLAGES = [
    "Hatch Green",
    "Long Ashby",
    "Marston Parva",
    "Colby End",
    "Westerleigh",
    "Oldcastle Cross",
    "Fairmile",
    "Brantwood",
    "Stoke Orchard",
    "Little Hendon",
]
STOP_REASONS = [
    "the village fete is using the hall car park",
    "roadworks on the approach road",
    "the school is holding its sports day on the green",
    "resurfacing of the lay-by",
    "a funeral at the church next to the stop",
]
CLEAN_TASKS = [
    "floors mopped",
    "toilets cleaned and restocked",
    "PC keyboards wiped",
    "bins emptied",
    "kiosk screens wiped",
    "door glass cleaned",
    "children's toys washed",
    "staff kitchen cleaned",
]
VOLUNTEER_TASKS = [
    "shelving returns",
    "tidying the children's area",
    "helping at the computer drop-in",
    "repairing book jackets",
    "sorting donated jigsaws",
    "preparing craft packs",
]
PETTY_ITEMS = [
    ("milk and tea", 3.20, 6.80),
    ("batteries", 4.50, 9.99),
    ("stamps", 6.80, 13.60),
    ("craft glue and card", 5.25, 14.40),
    ("cleaning cloths", 2.10, 5.60),
    ("light bulbs for display case", 7.99, 12.50),
    ("parking for training day", 3.00, 8.00),
    ("biscuits for volunteers", 2.49, 6.20),
]


CLOSED = {  # weekday numbers (Monday 0) on which a branch is shut
    "Central Library": set(),
    "Priory Library": {3, 6},
    "Brookside Library": {6},
    "Tanners Library": {0, 6},
}


ALARM_COMMENTS = [
    "None.",
    "Sounder in the staff toilet a little quiet; keep an eye on it.",
    "Customers warned before the test.",
    "Test done before opening.",
]
DELIVERY_NOTES = [
    "All correct.",
    "One crate lid cracked; replaced.",
    "Two reservations missing from the list; depot told.",
    "Delivered late because of traffic.",
]
CLEANING_ISSUES = [
    "none",
    "mop bucket left in the store cupboard",
    "paper towels ran out on Friday",
    "window sills missed",
]


def days(rng: random.Random, start: date, end: date, branch: str = "Central Library") -> date:
    """A day between start and end on which the branch is open."""
    while True:
        d = start + timedelta(days=rng.randrange((end - start).days + 1))
        if d.weekday() not in CLOSED.get(branch, {5, 6}):
            return d


def long_date(d: date) -> str:
    return f"{d.day} {d.strftime('%B %Y')}"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def opening_check(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    who = rng.choice(BRANCHES[branch])
    checks = [
        "Doors and shutters",
        "Lights and heating",
        "Kiosk started",
        "Public PCs on",
        "Fire exits clear",
        "Toilets checked",
        "Returns box emptied",
    ]
    lines = [
        f"# Opening check: {branch}, {long_date(d)}",
        "",
        f"Done by {who} at {rng.choice(['8:40', '8:45', '9:10', '9:20', '9:35'])}.",
        "",
    ]
    lines += [f"- [x] {c}" for c in checks]
    lines += ["", "Notes: " + rng.choice(OPENING_NOTES)]
    return f"{d.isoformat()}-opening-check-{SLUG[branch]}-{n:03d}.md", "\n".join(lines)


def alarm_test(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    point = rng.randint(1, 9)
    who = rng.choice(BRANCHES[branch])
    text = (
        f"WEEKLY FIRE ALARM TEST\nSite: {branch}\nDate: {long_date(d)}\nCall point tested: {point}\n"
        f"Sounders heard in all areas: yes\nDoor releases worked: yes\nAlarm company informed before and after: yes\n"
        f"Tested by: {who}\nComments: {rng.choice(ALARM_COMMENTS)}\n"
    )
    return f"{d.isoformat()}-fire-alarm-test-{SLUG[branch]}-{n:03d}.txt", text


def event_record(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    name, lo, hi = rng.choice(EVENTS)
    adults, children = rng.randint(lo // 2, hi // 2), rng.randint(0, hi // 2)
    lines = [
        f"# {name} at {branch}",
        "",
        f"**Date:** {long_date(d)}",
        f"**Led by:** {rng.choice(BRANCHES[branch])}",
        "",
        "| Adults | Children |",
        "|---|---|",
        f"| {adults} | {children} |",
        "",
        rng.choice(EVENT_NOTES),
    ]
    return f"{d.isoformat()}-event-{SLUG[branch]}-{n:03d}.md", "\n".join(lines)


def lost_property(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    item = rng.choice(LOST_ITEMS)
    where = rng.choice(
        [
            "by the kiosk",
            "in the children's area",
            "at a public PC",
            "in the toilets",
            "on a study table",
            "in the returns box",
        ]
    )
    claimed = rng.choice(
        [
            "Claimed the same day.",
            "Not claimed; kept for four weeks then sent to charity.",
            "Claimed two days later.",
            "Handed to the police front desk.",
        ]
    )
    text = (
        f"Lost property record - {branch}\nFound: {long_date(d)}\nItem: {item}\nWhere: {where}\n"
        f"Logged by: {rng.choice(BRANCHES[branch])}\nOutcome: {claimed}\n"
    )
    return f"{d.isoformat()}-lost-property-{SLUG[branch]}-{n:03d}.txt", text


def comment(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    kind, said, reply = rng.choice(COMMENTS)
    text = "\n".join(
        [
            f"# Customer comment ({kind.lower()}), {branch}",
            "",
            f"Received {long_date(d)} on a comment card.",
            "",
            f"> {said}",
            "",
            f"Response: {reply}",
            "",
            f"Recorded by {rng.choice(BRANCHES[branch])}.",
        ]
    )
    return f"{d.isoformat()}-customer-comment-{SLUG[branch]}-{n:03d}.md", text


def crate_delivery(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    crates = rng.randint(3, 9)
    new = rng.randint(1, crates - 1)
    text = (
        f"STOCK DELIVERY NOTE\nFrom: Coldharbour Depot\nTo: {branch}\nDate: {long_date(d)}\n"
        f"Crates: {crates} ({new} of new stock, {crates - new} of reservations and transfers)\n"
        f"Packed by: {rng.choice(DEPOT_STAFF)}\nReceived by: {rng.choice(BRANCHES[branch])}\n"
        f"Empty crates returned: {rng.randint(2, 8)}\n"
        f"Notes: {rng.choice(DELIVERY_NOTES)}\n"
    )
    return f"{d.isoformat()}-stock-delivery-{SLUG[branch]}-{n:03d}.txt", text


def mobile_notice(rng: random.Random, n: int) -> tuple[str, str]:
    d = days(rng, date(2026, 2, 2), date(2026, 10, 30), "depot")
    village = rng.choice(VILLAGES)
    moved = rng.choice(
        ["the church gate", "the village shop", "the bus shelter opposite the school", "the chapel car park"]
    )
    text = "\n".join(
        [
            f"# Mobile library notice: {village}",
            "",
            f"On {long_date(d)} the mobile library will stop at {moved} instead of its usual place, because "
            f"{rng.choice(STOP_REASONS)}.",
            "",
            "Times are unchanged. Returns can also be left at any branch.",
            "",
            "Posted by the depot office.",
        ]
    )
    return f"{d.isoformat()}-mobile-notice-{n:03d}.md", text


def cleaning(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    d -= timedelta(days=d.weekday())
    done = rng.sample(CLEAN_TASKS, 5)
    text = (
        f"Cleaning checklist - {branch} - week beginning {long_date(d)}\n"
        + "".join(f"  [done] {t}\n" for t in done)
        + f"Contractor: Greenway Cleaning\nChecked by: {rng.choice(BRANCHES[branch])}\n"
        + f"Issues: {rng.choice(CLEANING_ISSUES)}\n"
    )
    return f"{d.isoformat()}-cleaning-{SLUG[branch]}-{n:03d}.txt", text


def volunteer_log(rng: random.Random, n: int) -> tuple[str, str]:
    branch = rng.choice(list(BRANCHES))
    d = days(rng, date(2026, 1, 6), date(2026, 10, 30), branch)
    count = rng.randint(1, 4)
    text = "\n".join(
        [
            f"# Volunteer session, {branch}",
            "",
            f"{long_date(d)}, {rng.choice(['morning', 'afternoon'])}.",
            "",
            (
                f"{count} volunteers in, {rng.randint(2, 4)} hours each."
                if count > 1
                else f"One volunteer in for {rng.randint(2, 4)} hours."
            ),
            "",
            "Tasks:",
            *[f"- {t}" for t in rng.sample(VOLUNTEER_TASKS, 2)],
            "",
            f"Supervised by {rng.choice(BRANCHES[branch])}.",
        ]
    )
    return f"{d.isoformat()}-volunteers-{SLUG[branch]}-{n:03d}.md", text


def petty_cash(rng: random.Random, n: int, branch: str, month: int) -> tuple[str, str]:
    d = date(2026, month, 28)
    rows = rng.sample(PETTY_ITEMS, rng.randint(2, 4))
    spent = [(name, round(rng.uniform(lo, hi), 2)) for name, lo, hi in rows]
    total = round(sum(a for _, a in spent), 2)
    body = "".join(f"  {name:<32} {a:>7.2f}\n" for name, a in spent)
    text = (
        f"PETTY CASH RECONCILIATION\nSite: {branch}\nMonth: {d.strftime('%B %Y')}\nFloat: 100.00\n\nSpent:\n{body}"
        f"  {'Total spent':<32} {total:>7.2f}\n\nCash in tin: {100 - total:.2f}\nReceipts attached: yes\n"
        f"Checked by: {rng.choice(BRANCHES[branch])}\n"
    )
    return f"{d.isoformat()}-petty-cash-{SLUG[branch]}-{n:03d}.txt", text


def main() -> None:
    rng = random.Random(20260901)
    makers = [
        opening_check,
        alarm_test,
        event_record,
        lost_property,
        comment,
        crate_delivery,
        mobile_notice,
        cleaning,
        volunteer_log,
    ]
    for n in range(100):
        name, text = makers[n % len(makers)](rng, n + 1)
        write(SERVICE / name, text)
    n = 100
    for month in range(4, 9):
        for branch in BRANCHES:
            n += 1
            name, text = petty_cash(rng, n, branch, month)
            write(FINANCE / name, text)


if __name__ == "__main__":
    main()
