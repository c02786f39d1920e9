"""Write the routine documents of the answer_dev3 set: everyday records of Brackenmoor Veterinary Group.

The records share the vocabulary of the real documents (the three clinics, nurses, receptionists, the yard, the
dispensary, wholesaler deliveries) but hold none of the facts that the questions ask about. The output is fixed
by the seed, so running the script again rewrites exactly the same files.

    python tests/support/answer_dev3/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLINICS = HERE / "docs" / "clinics" / "routine"
FINANCE = HERE / "docs" / "finance" / "routine"

STAFF = {
    "Kestrel Road Surgery": [
        "Bethan Crewe",
        "Joanna Pike",
        "Sunita Varma",
        "Callum Hirst",
        "Wendy Ashdown",
        "Milo Fairbank",
    ],
    "Orchard Vale Clinic": [
        "Nadia Kowalczyk",
        "Leah Thornbury",
        "Jasper Quaye",
        "Marisol Egan",
        "Tilly Okafor",
        "Rosa Delgado",
        "Ffion Maddox",
        "Kit Barraclough",
    ],
    "Stonegate Farm & Equine": ["Martha Geddes", "Samir Haddad", "Owain Tresidder", "Grace Mwangi", "Beatrix Holm"],
}
SMALL_ANIMAL = ["Kestrel Road Surgery", "Orchard Vale Clinic"]
SLUG = {
    "Kestrel Road Surgery": "kestrel-road",
    "Orchard Vale Clinic": "orchard-vale",
    "Stonegate Farm & Equine": "stonegate",
}
CLOSED = {  # weekday numbers (Monday 0) on which the clinic is shut
    "Kestrel Road Surgery": {6},
    "Orchard Vale Clinic": set(),
    "Stonegate Farm & Equine": {6},
}

ALARM_NOTES = [
    "None.",
    "Clients in the waiting room warned before the test.",
    "Sounder in the kennel corridor quieter than the others; keep an eye on it.",
    "Test done before opening.",
    "Door holder on the dispensary door slow to release; retested and fine.",
]
FRIDGE_NOTES = [
    "All readings within 2 to 8 degrees.",
    "Door left ajar briefly during a delivery; reading back in range within the hour.",
    "Thermometer battery changed.",
    "Fridge defrosted and cleaned at the end of the week.",
    "Stock rotated, short-dated vaccines moved to the front.",
]
CLEAN_TASKS = [
    "kennels disinfected",
    "consult room tables wiped between patients",
    "waiting room floor mopped",
    "prep room surfaces cleaned",
    "cat ward litter trays changed",
    "bins and clinical waste bags emptied",
    "staff kitchen cleaned",
    "scales and weighing platform cleaned",
    "dog ward bedding washed",
]
CLEAN_ISSUES = [
    "none",
    "mop head worn out; new ones ordered",
    "laundry backed up after a busy weekend",
    "disinfectant dispenser in the cat ward empty on Thursday",
]
COMMENTS = [
    ("Compliment", "The nurse was so gentle with our old cat.", "Thanked the client and passed it to the nurse."),
    ("Compliment", "Reception squeezed us in on a busy morning, thank you.", "Passed on to the reception team."),
    (
        "Suggestion",
        "Could you have a separate waiting area for cats?",
        "Explained the cat-only seating corner; idea logged.",
    ),
    ("Suggestion", "Online booking for nurse clinics would help.", "Passed to the group office."),
    ("Complaint", "We waited 25 minutes past our appointment time.", "Apologised; an emergency had come in."),
    ("Complaint", "The car park was full when we arrived.", "Explained the parking arrangements and apologised."),
    ("Compliment", "Thank you for the card after we lost our dog.", "Thanked the client."),
    (
        "Suggestion",
        "Please sell a wider range of dental chews.",
        "Passed to the senior receptionist for the next order.",
    ),
]
FARM_COMMENTS = [
    ("Compliment", "Quick response to a calving at night, thank you.", "Thanked the client and told the vet."),
    ("Suggestion", "Text reminders for flock health plan visits would help.", "Passed to the group office."),
    ("Complaint", "The visit was later than the time we were given.", "Apologised; the previous call ran over."),
]
DELIVERY_ITEMS = [
    "syringes and needles",
    "surgical gloves",
    "cat litter",
    "wound dressings",
    "prescription diets",
    "flea and worm treatments",
    "suture material",
    "bandage rolls",
    "kennel bedding",
    "hand disinfectant",
]
FARM_DELIVERY_ITEMS = [
    "calving gloves",
    "ear tags applicator pins",
    "hoof knives",
    "arm-length gloves",
    "lubricant",
    "disposable overtrousers",
    "mineral drenches",
]
DELIVERY_NOTES = [
    "All correct.",
    "One box damaged; contents fine.",
    "Two items on back order.",
    "Arrived after lunch instead of the morning.",
]
LOST_ITEMS = [
    "blue dog lead",
    "umbrella",
    "cat carrier blanket",
    "reading glasses",
    "child's glove",
    "car keys on a paw-print key ring",
    "water bottle",
    "dog ball launcher",
    "scarf",
]
NURSE_CLINICS = [
    ("Weight clinic", 4, 9),
    ("Puppy party", 3, 7),
    ("Nail clipping clinic", 5, 12),
    ("Senior pet check", 3, 8),
    ("Dental check clinic", 4, 10),
    ("Post-operative checks", 5, 11),
]
YARD_CHECKS = [
    "Lower yard gate closes and latches",
    "Examination barn floor swept",
    "Wash-down hose working",
    "Hay and straw store tidy",
    "Dispensary fridge reading recorded",
    "Footbath at the yard entrance refilled",
]
YARD_NOTES = [
    "Nothing to report.",
    "Gutter over the barn door blocked with leaves; cleared.",
    "Yard light by the horsebox bay flickering; electrician booked.",
    "Muddy after rain; grit put down by the gate.",
]
PETTY_ITEMS = [
    ("milk and tea", 3.20, 7.50),
    ("batteries", 4.50, 9.99),
    ("postage", 5.40, 14.20),
    ("treats for nervous patients", 3.99, 8.50),
    ("cleaning cloths", 2.10, 5.60),
    ("light bulbs", 4.99, 11.00),
    ("parking for training day", 3.00, 8.00),
    ("biscuits for the team", 2.49, 6.20),
]


def day(rng: random.Random, clinic: str, start: date = date(2026, 1, 5), end: date = date(2026, 9, 30)) -> date:
    """A date between start and end on which the clinic is open."""
    while True:
        d = start + timedelta(days=rng.randrange((end - start).days + 1))
        if d.weekday() not in CLOSED[clinic]:
            return d


def long_date(d: date) -> str:
    return f"{d.day} {d.strftime('%B %Y')}"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def fire_alarm(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(list(STAFF))
    d = day(rng, clinic)
    text = (
        f"WEEKLY FIRE ALARM TEST\nClinic: {clinic}\nDate: {long_date(d)}\n"
        f"Call point tested: {rng.randint(1, 8)}\nSounders heard in all areas: yes\n"
        f"Tested by: {rng.choice(STAFF[clinic])}\nComments: {rng.choice(ALARM_NOTES)}\n"
    )
    return f"{d.isoformat()}-fire-alarm-test-{SLUG[clinic]}-{n:03d}.txt", text


def fridge_log(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(list(STAFF))
    d = day(rng, clinic)
    d -= timedelta(days=d.weekday())
    rows = []
    for name in ["Mon", "Tue", "Wed", "Thu", "Fri"]:
        lo = round(rng.uniform(2.6, 4.4), 1)
        hi = round(rng.uniform(5.2, 7.6), 1)
        rows.append(f"| {name} | {lo} | {hi} | {rng.choice(STAFF[clinic]).split()[0]} |")
    text = "\n".join(
        [
            f"# Vaccine fridge log: {clinic}, week beginning {long_date(d)}",
            "",
            "| Day | Min (C) | Max (C) | Checked by |",
            "|---|---|---|---|",
            *rows,
            "",
            rng.choice(FRIDGE_NOTES),
        ]
    )
    return f"{d.isoformat()}-vaccine-fridge-{SLUG[clinic]}-{n:03d}.md", text


def cleaning(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(SMALL_ANIMAL)
    d = day(rng, clinic)
    d -= timedelta(days=d.weekday())
    text = (
        f"Cleaning checklist - {clinic} - week beginning {long_date(d)}\n"
        + "".join(f"  [done] {t}\n" for t in rng.sample(CLEAN_TASKS, 5))
        + f"Checked by: {rng.choice(STAFF[clinic])}\nIssues: {rng.choice(CLEAN_ISSUES)}\n"
    )
    return f"{d.isoformat()}-cleaning-{SLUG[clinic]}-{n:03d}.txt", text


def client_comment(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(list(STAFF))
    d = day(rng, clinic)
    pool = FARM_COMMENTS if clinic == "Stonegate Farm & Equine" else COMMENTS
    kind, said, reply = rng.choice(pool)
    text = "\n".join(
        [
            f"# Client comment ({kind.lower()}), {clinic}",
            "",
            f"Received {long_date(d)} {rng.choice(['by email', 'at reception', 'on a feedback card', 'by phone'])}.",
            "",
            f"> {said}",
            "",
            f"Response: {reply}",
            "",
            f"Logged by {rng.choice(STAFF[clinic])}.",
        ]
    )
    return f"{d.isoformat()}-client-comment-{SLUG[clinic]}-{n:03d}.md", text


def delivery(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(list(STAFF))
    d = day(rng, clinic)
    pool = FARM_DELIVERY_ITEMS if clinic == "Stonegate Farm & Equine" else DELIVERY_ITEMS
    items = rng.sample(pool, 3)
    text = (
        f"DELIVERY NOTE\nFrom: Northfold Veterinary Wholesale\nTo: {clinic}\nDate: {long_date(d)}\n"
        f"Boxes: {rng.randint(2, 14)}\nMain items: {', '.join(items)}\n"
        f"Checked in by: {rng.choice(STAFF[clinic])}\nNotes: {rng.choice(DELIVERY_NOTES)}\n"
    )
    return f"{d.isoformat()}-delivery-{SLUG[clinic]}-{n:03d}.txt", text


def lost_property(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(SMALL_ANIMAL)
    d = day(rng, clinic)
    where = rng.choice(["in the waiting room", "by the scales", "in consult room 1", "in the car park", "at reception"])
    outcome = rng.choice(
        ["Collected the same day.", "Collected two days later.", "Not collected after four weeks; given to charity."]
    )
    text = (
        f"Lost property - {clinic}\nFound: {long_date(d)}\nItem: {rng.choice(LOST_ITEMS)}\nWhere: {where}\n"
        f"Logged by: {rng.choice(STAFF[clinic])}\nOutcome: {outcome}\n"
    )
    return f"{d.isoformat()}-lost-property-{SLUG[clinic]}-{n:03d}.txt", text


def nurse_clinic(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = rng.choice(SMALL_ANIMAL)
    d = day(rng, clinic)
    name, lo, hi = rng.choice(NURSE_CLINICS)
    booked = rng.randint(lo, hi)
    seen = booked - rng.randint(0, 2)
    text = "\n".join(
        [
            f"# {name}, {clinic}",
            "",
            f"{long_date(d)}, {'morning' if d.weekday() >= 5 else rng.choice(['morning', 'afternoon', 'evening'])}.",
            "",
            f"Booked: {booked}. Seen: {seen}.",
            "",
            f"Run by {rng.choice(STAFF[clinic])}. "
            + rng.choice(
                [
                    "Two owners asked about booking a follow-up.",
                    "Ran to time.",
                    "One patient referred to a vet for a lump check.",
                    "Quieter than usual.",
                ]
            ),
        ]
    )
    return f"{d.isoformat()}-nurse-clinic-{SLUG[clinic]}-{n:03d}.md", text


def yard_check(rng: random.Random, n: int) -> tuple[str, str]:
    clinic = "Stonegate Farm & Equine"
    d = day(rng, clinic)
    lines = [f"# Yard check, Stonegate, {long_date(d)}", "", f"Done by {rng.choice(STAFF[clinic])}.", ""]
    lines += [f"- [x] {c}" for c in rng.sample(YARD_CHECKS, 4)]
    lines += ["", "Notes: " + rng.choice(YARD_NOTES)]
    return f"{d.isoformat()}-yard-check-stonegate-{n:03d}.md", "\n".join(lines)


def petty_cash(rng: random.Random, n: int, clinic: str, month: int) -> tuple[str, str]:
    d = date(2026, month, 28)
    rows = rng.sample(PETTY_ITEMS, rng.randint(2, 4))
    spent = [(name, round(rng.uniform(lo, hi), 2)) for name, lo, hi in rows]
    total = round(sum(a for _, a in spent), 2)
    body = "".join(f"  {name:<32} {a:>7.2f}\n" for name, a in spent)
    text = (
        f"PETTY CASH RECONCILIATION\nClinic: {clinic}\nMonth: {d.strftime('%B %Y')}\nFloat: 100.00\n\nSpent:\n{body}"
        f"  {'Total spent':<32} {total:>7.2f}\n\nCash in tin: {100 - total:.2f}\nReceipts attached: yes\n"
        f"Checked by: {rng.choice(STAFF[clinic])}\n"
    )
    return f"{d.isoformat()}-petty-cash-{SLUG[clinic]}-{n:03d}.txt", text


def main() -> None:
    rng = random.Random(20261014)
    makers = [
        fire_alarm,
        fridge_log,
        cleaning,
        client_comment,
        delivery,
        lost_property,
        nurse_clinic,
        yard_check,
    ]
    for n in range(82):
        name, text = makers[n % len(makers)](rng, n + 1)
        write(CLINICS / name, text)
    n = 82
    for month in range(4, 10):
        for clinic in STAFF:
            n += 1
            name, text = petty_cash(rng, n, clinic, month)
            write(FINANCE / name, text)


if __name__ == "__main__":
    main()
