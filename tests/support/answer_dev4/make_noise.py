"""Write the routine documents of the answer_dev4 set: everyday records of Harrowfield Community Leisure Trust.

The records share the vocabulary of the real documents (the three centres, lifeguards, receptionists, pool water
tests, the pitches at Sedgewick, chemical deliveries) but hold none of the facts that the questions ask about.
The output is fixed by the seed, so running the script again rewrites exactly the same files.

    python tests/support/answer_dev4/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CENTRES = HERE / "docs" / "centres" / "routine"
FINANCE = HERE / "docs" / "finance" / "routine"

STAFF = {
    "Millbeck Leisure Centre": [
        "Declan Fairweather",
        "Keziah Olumide",
        "Isla Drummond",
        "Rhys Kettering",
        "Jonah Pickersgill",
        "Lydia Marchetti",
        "Clement Osei",
    ],
    "Quarry Lane Pool & Fitness": [
        "Fern Castellano",
        "Chloe Ambrose",
        "Tariq Mahmood",
        "Niamh Gallagher",
        "Ravi Chandran",
        "Yvette Scully",
    ],
    "Sedgewick Sports Hub": [
        "Euan Blackwood",
        "Kieran Stobbs",
        "Dylan Ferro",
        "Megan Tolley",
        "Freya Ottaway",
        "Joss Peyton",
    ],
}
POOLSIDE = {  # staff who take water samples
    "Millbeck Leisure Centre": ["Isla Drummond", "Rhys Kettering", "Declan Fairweather"],
    "Quarry Lane Pool & Fitness": ["Chloe Ambrose", "Tariq Mahmood"],
    "Sedgewick Sports Hub": ["Kieran Stobbs", "Euan Blackwood"],
}
POOL = {
    "Millbeck Leisure Centre": "Main pool",
    "Quarry Lane Pool & Fitness": "Pool",
    "Sedgewick Sports Hub": "Teaching pool",
}
SLUG = {
    "Millbeck Leisure Centre": "millbeck",
    "Quarry Lane Pool & Fitness": "quarry-lane",
    "Sedgewick Sports Hub": "sedgewick",
}
SHORT = {
    "Millbeck Leisure Centre": "Millbeck",
    "Quarry Lane Pool & Fitness": "Quarry Lane",
    "Sedgewick Sports Hub": "Sedgewick",
}

ALARM_NOTES = [
    "None.",
    "Gym users warned over the PA before the test.",
    "Sounder in the sports hall store quieter than the others; reported to the duty manager.",
    "Test done before opening.",
    "Magnetic door holder on the changing village door slow to release; retested and fine.",
]
WATER_NOTES = [
    "All readings within range.",
    "Water slightly cloudy after the busy lunchtime session; cleared by the next test.",
    "Test kit reagents replaced.",
    "Reading taken late because of a swimming club booking; noted in the pool log.",
    "Temperature a little low first thing; back to normal by midday.",
]
CLEAN_TASKS = [
    "changing village floors scrubbed",
    "shower heads descaled",
    "lockers wiped and checked",
    "poolside drainage channels cleared",
    "gym equipment wiped down",
    "studio floor mopped",
    "reception desk and card readers cleaned",
    "toilets deep cleaned",
    "café tables and high chairs cleaned",
]
CLEAN_ISSUES = [
    "none",
    "two lockers with broken keys; keys ordered",
    "mop heads worn out; new ones ordered",
    "soap dispenser in the family change empty on Thursday",
]
COMMENTS = [
    ("Compliment", "The lifeguards were friendly and kept an eye on my son.", "Thanked the customer."),
    ("Compliment", "The new spin classes are brilliant.", "Passed on to the instructor."),
    ("Suggestion", "Could there be more adult-only lane sessions in the evening?", "Passed to the centre manager."),
    ("Suggestion", "Please put a clock on the gym wall.", "Logged for the next maintenance list."),
    ("Complaint", "The showers were cold after the 7am session.", "Apologised; the thermostat was reset."),
    ("Complaint", "The car park was full on Saturday morning.", "Explained the busy times and apologised."),
    ("Compliment", "Reception were very patient with my mum.", "Passed on to the reception team."),
    ("Complaint", "The changing rooms were untidy after the school session.", "Apologised; checks increased."),
]
PITCH_COMMENTS = [
    ("Compliment", "The 3G pitch was in great condition for our league match.", "Thanked the club."),
    ("Suggestion", "Could the pitch be booked in 30-minute slots?", "Passed to the centre manager."),
    ("Complaint", "Our booking overlapped with another team's.", "Apologised; the booking was corrected."),
]
DELIVERY_ITEMS = [
    "sodium hypochlorite",
    "pH reducer",
    "test kit reagents",
    "paper towels",
    "hand soap",
    "locker keys",
    "café cups and lids",
    "floor cleaner",
    "first aid kit refills",
    "swimming lesson badges",
]
DELIVERY_NOTES = [
    "All correct.",
    "One drum dented; contents fine.",
    "Two items on back order.",
    "Arrived after lunch instead of the morning.",
]
LOST_ITEMS = [
    "pair of goggles",
    "blue towel",
    "child's swimming costume",
    "water bottle",
    "padlock and key",
    "reading glasses",
    "gym gloves",
    "football boots",
    "hair brush",
]
LOST_PLACES = [
    "in the changing village",
    "on poolside",
    "in the gym",
    "at reception",
    "in the car park",
    "in the sports hall",
]
PITCH_CHECKS = [
    "Surface brushed and infill level checked",
    "Goals anchored and nets intact",
    "Perimeter fence and gates checked",
    "Litter picked from the pitch and spectator path",
    "Changing pavilion unlocked and cleaned",
    "Line markings visible",
]
PITCH_NOTES = [
    "Nothing to report.",
    "Leaves on the surface after the wind; brushed off.",
    "One gate hinge stiff; oiled.",
    "Surface wet after rain but playable.",
]
CLASSES = [
    ("Aqua aerobics", 8, 24),
    ("Spin", 6, 16),
    ("Pilates", 5, 14),
    ("Circuits", 6, 18),
    ("Yoga", 5, 15),
]
NO_SPIN = "Sedgewick Sports Hub"  # no cycling studio there
INSTRUCTORS = {
    "Millbeck Leisure Centre": ["Lydia Marchetti"],
    "Quarry Lane Pool & Fitness": ["Ravi Chandran"],
    "Sedgewick Sports Hub": ["Freya Ottaway"],
}
PETTY_ITEMS = [
    ("milk and tea", 3.20, 7.50),
    ("batteries", 4.50, 9.99),
    ("postage", 5.40, 14.20),
    ("whistle lanyards", 3.99, 8.50),
    ("cleaning cloths", 2.10, 5.60),
    ("light bulbs", 4.99, 11.00),
    ("stickers for lesson certificates", 2.50, 6.00),
    ("biscuits for the team", 2.49, 6.20),
]


def day(rng: random.Random, start: date = date(2026, 1, 5), end: date = date(2026, 9, 30)) -> date:
    """A date between start and end (all three centres open every day in that period)."""
    return start + timedelta(days=rng.randrange((end - start).days + 1))


def long_date(d: date) -> str:
    return f"{d.day} {d.strftime('%B %Y')}"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def fire_alarm(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    text = (
        f"WEEKLY FIRE ALARM TEST\nCentre: {centre}\nDate: {long_date(d)}\n"
        f"Call point tested: {rng.randint(1, 12)}\nSounders heard in all areas: yes\n"
        f"Tested by: {rng.choice(STAFF[centre])}\nComments: {rng.choice(ALARM_NOTES)}\n"
    )
    return f"{d.isoformat()}-fire-alarm-test-{SLUG[centre]}-{n:03d}.txt", text


def water_log(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    rows = []
    for hour in ["07:00", "09:00", "11:00", "13:00", "15:00", "17:00"]:
        chlorine = round(rng.uniform(1.3, 2.4), 1)
        ph = round(rng.uniform(7.3, 7.5), 1)
        temp = round(rng.uniform(28.5, 30.0), 1)
        rows.append(f"| {hour} | {chlorine} | {ph} | {temp} | {rng.choice(POOLSIDE[centre]).split()[0]} |")
    text = "\n".join(
        [
            f"# Pool water tests: {SHORT[centre]}, {POOL[centre].lower()}, {long_date(d)}",
            "",
            "| Time | Free chlorine (mg/l) | pH | Water (C) | Tested by |",
            "|---|---|---|---|---|",
            *rows,
            "",
            rng.choice(WATER_NOTES),
        ]
    )
    return f"{d.isoformat()}-water-tests-{SLUG[centre]}-{n:03d}.md", text


def cleaning(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    d -= timedelta(days=d.weekday())
    tasks = [t for t in CLEAN_TASKS if "café" not in t or centre == "Millbeck Leisure Centre"]
    tasks = [t for t in tasks if "studio" not in t or centre != "Sedgewick Sports Hub"]
    text = (
        f"Cleaning checklist - {centre} - week beginning {long_date(d)}\n"
        + "".join(f"  [done] {t}\n" for t in rng.sample(tasks, 5))
        + f"Checked by: {rng.choice(STAFF[centre])}\nIssues: {rng.choice(CLEAN_ISSUES)}\n"
    )
    return f"{d.isoformat()}-cleaning-{SLUG[centre]}-{n:03d}.txt", text


def customer_comment(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    pool = COMMENTS + PITCH_COMMENTS if centre == "Sedgewick Sports Hub" else COMMENTS
    kind, said, reply = rng.choice(pool)
    text = "\n".join(
        [
            f"# Customer comment ({kind.lower()}), {centre}",
            "",
            f"Received {long_date(d)} {rng.choice(['by email', 'at reception', 'on a comment card', 'by phone'])}.",
            "",
            f"> {said}",
            "",
            f"Response: {reply}",
            "",
            f"Logged by {rng.choice(STAFF[centre])}.",
        ]
    )
    return f"{d.isoformat()}-customer-comment-{SLUG[centre]}-{n:03d}.md", text


def delivery(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    items = rng.sample(DELIVERY_ITEMS, 3)
    text = (
        f"DELIVERY NOTE\nFrom: Castlegate Leisure Supplies\nTo: {centre}\nDate: {long_date(d)}\n"
        f"Packages: {rng.randint(2, 16)}\nMain items: {', '.join(items)}\n"
        f"Checked in by: {rng.choice(STAFF[centre])}\nNotes: {rng.choice(DELIVERY_NOTES)}\n"
    )
    return f"{d.isoformat()}-delivery-{SLUG[centre]}-{n:03d}.txt", text


def lost_property(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    places = [p for p in LOST_PLACES if p != "in the sports hall" or centre != "Quarry Lane Pool & Fitness"]
    outcome = rng.choice(
        ["Collected the same day.", "Collected a week later.", "Not collected after four weeks; given to charity."]
    )
    text = (
        f"Lost property - {centre}\nFound: {long_date(d)}\nItem: {rng.choice(LOST_ITEMS)}\n"
        f"Where: {rng.choice(places)}\nLogged by: {rng.choice(STAFF[centre])}\nOutcome: {outcome}\n"
    )
    return f"{d.isoformat()}-lost-property-{SLUG[centre]}-{n:03d}.txt", text


def class_register(rng: random.Random, n: int) -> tuple[str, str]:
    centre = rng.choice(list(STAFF))
    d = day(rng)
    name, lo, hi = rng.choice([c for c in CLASSES if c[0] != "Spin" or centre != NO_SPIN])
    booked = rng.randint(lo, hi)
    attended = booked - rng.randint(0, 3)
    text = "\n".join(
        [
            f"# {name}, {SHORT[centre]}",
            "",
            f"{long_date(d)}, {rng.choice(['morning', 'lunchtime', 'evening'])}.",
            "",
            f"Booked: {booked}. Attended: {attended}.",
            "",
            f"Led by {rng.choice(INSTRUCTORS[centre])}. "
            + rng.choice(
                [
                    "Two newcomers asked about membership.",
                    "Ran to time.",
                    "Music system cut out briefly; carried on without it.",
                    "Quieter than usual.",
                ]
            ),
        ]
    )
    return f"{d.isoformat()}-class-register-{SLUG[centre]}-{n:03d}.md", text


def pitch_check(rng: random.Random, n: int) -> tuple[str, str]:
    centre = "Sedgewick Sports Hub"
    d = day(rng)
    lines = [f"# 3G pitch check, Sedgewick, {long_date(d)}", "", f"Done by {rng.choice(STAFF[centre])}.", ""]
    lines += [f"- [x] {c}" for c in rng.sample(PITCH_CHECKS, 4)]
    lines += ["", "Notes: " + rng.choice(PITCH_NOTES)]
    return f"{d.isoformat()}-pitch-check-sedgewick-{n:03d}.md", "\n".join(lines)


def petty_cash(rng: random.Random, n: int, centre: str, month: int) -> tuple[str, str]:
    d = date(2026, month, 28)
    rows = rng.sample(PETTY_ITEMS, rng.randint(2, 4))
    spent = [(name, round(rng.uniform(lo, hi), 2)) for name, lo, hi in rows]
    total = round(sum(a for _, a in spent), 2)
    body = "".join(f"  {name:<34} {a:>7.2f}\n" for name, a in spent)
    text = (
        f"PETTY CASH RECONCILIATION\nCentre: {centre}\nMonth: {d.strftime('%B %Y')}\nFloat: 100.00\n\nSpent:\n{body}"
        f"  {'Total spent':<34} {total:>7.2f}\n\nCash in tin: {100 - total:.2f}\nReceipts attached: yes\n"
        f"Checked by: {rng.choice(STAFF[centre])}\n"
    )
    return f"{d.isoformat()}-petty-cash-{SLUG[centre]}-{n:03d}.txt", text


def main() -> None:
    rng = random.Random(20261021)
    makers = [
        fire_alarm,
        water_log,
        cleaning,
        customer_comment,
        delivery,
        lost_property,
        class_register,
        pitch_check,
    ]
    for n in range(82):
        name, text = makers[n % len(makers)](rng, n + 1)
        write(CENTRES / name, text)
    n = 82
    for month in range(4, 10):
        for centre in STAFF:
            n += 1
            name, text = petty_cash(rng, n, centre, month)
            write(FINANCE / name, text)


if __name__ == "__main__":
    main()
