"""Write the routine documents of the answer_dev5 set: everyday records of Calderwick County Food Network.

The records share the vocabulary of the real documents (the three warehouses, their staff, forklifts, vans, the
rural delivery round, donations, volunteers) but hold none of the facts that the questions ask about: no parcel
counts, no service dates, no temperature duties, no prices beyond petty cash. The output is fixed by the seed,
so running the script again rewrites exactly the same files.

    python tests/support/answer_dev5/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
WAREHOUSES = HERE / "docs" / "warehouses" / "routine"
FINANCE = HERE / "docs" / "finance" / "routine"

STAFF = {  # staff whose duties are not asked about by any question
    "Carrow Street Warehouse": ["Samir Haddad", "Kofi Asante", "Jared Finch", "Lily Marsh"],
    "Pike Mill Warehouse": ["Noor Rahimi", "Rory Gallen", "Dale Hutchins", "Zainab Adeyemi"],
    "Whinfield Depot": ["Matthias Crane", "Barney Quick", "Connor Hale", "Ffion Rees"],
}
FORKLIFT_USERS = {
    "Carrow Street Warehouse": (["Kofi Asante", "Samir Haddad"], ["CFN-EQ-001", "CFN-EQ-002"]),
    "Pike Mill Warehouse": (["Rory Gallen", "Noor Rahimi"], ["CFN-EQ-003"]),
}
DRIVERS = {
    "Carrow Street Warehouse": ["Jared Finch"],
    "Pike Mill Warehouse": ["Dale Hutchins"],
    "Whinfield Depot": ["Barney Quick", "Connor Hale"],
}
SLUG = {
    "Carrow Street Warehouse": "carrow-street",
    "Pike Mill Warehouse": "pike-mill",
    "Whinfield Depot": "whinfield",
}
SHORT = {
    "Carrow Street Warehouse": "Carrow Street",
    "Pike Mill Warehouse": "Pike Mill",
    "Whinfield Depot": "Whinfield",
}

ALARM_NOTES = [
    "None.",
    "Volunteers told before the test.",
    "Sounder in the goods-in bay quieter than the others; reported to the manager.",
    "Test done before opening.",
    "Call point cover cracked; replaced from stock.",
]
CLEAN_TASKS = [
    "sorting tables wiped and sanitised",
    "goods-in floor swept",
    "distribution hall mopped",
    "kitchen and tea point cleaned",
    "toilets cleaned",
    "crates washed",
    "racking aisles swept",
    "bins emptied and recycling taken out",
]
CLEAN_ISSUES = [
    "none",
    "blue roll running low; more ordered",
    "mop bucket cracked; replaced",
    "recycling bin not collected on Tuesday",
]
DONORS = {
    "Carrow Street Warehouse": [
        "Halverson's supermarket, Hadleigh Moss",
        "St Aidan's Church harvest collection",
        "Hadleigh Moss Rotary Club",
        "Carrow Street Trading Estate staff collection",
    ],
    "Pike Mill Warehouse": [
        "Halverson's supermarket, Ostreby",
        "Ostreby Methodist Church",
        "Riverside Primary School",
        "Ostreby Round Table",
    ],
    "Whinfield Depot": [
        "Brackwater Co-operative store",
        "Brackwater Primary School",
        "Moor Lane farm shop",
        "Brackwater Women's Institute",
    ],
}
DONATION_ITEMS = [
    "tinned soup",
    "pasta",
    "rice",
    "tinned tomatoes",
    "breakfast cereal",
    "UHT milk",
    "tea bags",
    "toiletries",
    "tinned fish",
    "baked beans",
    "long-life juice",
    "nappies",
]
DONATION_NOTES = [
    "All in date.",
    "Two tins dented; set aside.",
    "A few items past best-before; sorted out under the usual rules.",
    "Delivered earlier than booked.",
]
SHIFT_TASKS = [
    "sorting the weekend supermarket collection",
    "date-sorting tins into the racking",
    "making up crates for the next distribution session",
    "unloading a pallet delivery",
    "tidying the ambient store",
    "labelling crates by category",
]
SHIFT_NOTES = [
    "Quiet shift.",
    "Two new volunteers shadowed experienced ones.",
    "Ran out of crates; more brought down from the mezzanine.",
    "Finished early.",
]
FORKLIFT_CHECKS = ["forks", "mast and chains", "tyres", "horn", "lights", "seat belt", "battery or gas level"]
VILLAGES = [
    "Carnby village hall",
    "Lowther Green chapel",
    "Ebdon village hall",
    "Stainmoor institute",
    "Fellside chapel",
    "Upper Brack village hall",
    "Thornby reading room",
    "Hallow Bridge village hall",
    "Kettlesike chapel",
]
ROUND_NOTES = [
    "All drops made.",
    "Road at Stainmoor flooded; went round by the top road.",
    "Carnby hall key holder late; waited ten minutes.",
    "Van fuelled at Brackwater on the way back.",
]
COLLECTION_STORES = {
    "Carrow Street Warehouse": ["Halverson's, Hadleigh Moss", "Hadleigh Moss market"],
    "Pike Mill Warehouse": ["Halverson's, Ostreby", "Ostreby bakery"],
    "Whinfield Depot": ["Brackwater Co-operative", "Moor Lane farm shop"],
}
COLLECTION_NOTES = [
    "Mostly bread and fresh veg.",
    "Chilled items put away as soon as we got back.",
    "Small collection today.",
    "Store asked us to come earlier next week.",
]
PETTY_ITEMS = [
    ("milk and tea", 3.20, 7.50),
    ("batteries", 4.50, 9.99),
    ("postage", 5.40, 14.20),
    ("parcel tape", 3.99, 8.50),
    ("cleaning cloths", 2.10, 5.60),
    ("marker pens", 2.49, 6.00),
    ("biscuits for the volunteers", 2.49, 6.20),
    ("bin bags", 2.75, 6.80),
]


def day(rng: random.Random, start: date = date(2026, 1, 5), end: date = date(2026, 9, 30)) -> date:
    """A weekday between start and end (all three warehouses are open on weekdays)."""
    while True:
        d = start + timedelta(days=rng.randrange((end - start).days + 1))
        if d.weekday() < 5:
            return d


def long_date(d: date) -> str:
    return f"{d.day} {d.strftime('%B %Y')}"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def fire_alarm(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    text = (
        f"WEEKLY FIRE ALARM TEST\nWarehouse: {site}\nDate: {long_date(d)}\n"
        f"Call point tested: {rng.randint(1, 8)}\nSounders heard in all areas: yes\n"
        f"Tested by: {rng.choice(STAFF[site])}\nComments: {rng.choice(ALARM_NOTES)}\n"
    )
    return f"{d.isoformat()}-fire-alarm-test-{SLUG[site]}-{n:03d}.txt", text


def cleaning(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    d -= timedelta(days=d.weekday())
    text = (
        f"Cleaning checklist - {site} - week beginning {long_date(d)}\n"
        + "".join(f"  [done] {t}\n" for t in rng.sample(CLEAN_TASKS, 5))
        + f"Checked by: {rng.choice(STAFF[site])}\nIssues: {rng.choice(CLEAN_ISSUES)}\n"
    )
    return f"{d.isoformat()}-cleaning-{SLUG[site]}-{n:03d}.txt", text


def donation(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    items = rng.sample(DONATION_ITEMS, 4)
    text = "\n".join(
        [
            f"# Donation received: {SHORT[site]}, {long_date(d)}",
            "",
            f"- **From:** {rng.choice(DONORS[site])}",
            f"- **Crates:** {rng.randint(2, 14)}",
            f"- **Main items:** {', '.join(items)}",
            f"- **Checked in by:** {rng.choice(STAFF[site])}",
            "",
            rng.choice(DONATION_NOTES),
        ]
    )
    return f"{d.isoformat()}-donation-{SLUG[site]}-{n:03d}.md", text


def volunteer_shift(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    text = "\n".join(
        [
            f"# Volunteer shift log, {SHORT[site]}",
            "",
            f"{long_date(d)}, {rng.choice(['morning', 'afternoon'])} shift.",
            "",
            f"Volunteers signed in: {rng.randint(4, 16)}. Main job: {rng.choice(SHIFT_TASKS)}.",
            "",
            f"Signed off by {rng.choice(STAFF[site])}. {rng.choice(SHIFT_NOTES)}",
        ]
    )
    return f"{d.isoformat()}-volunteer-shift-{SLUG[site]}-{n:03d}.md", text


def forklift_check(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(FORKLIFT_USERS))
    users, trucks = FORKLIFT_USERS[site]
    d = day(rng)
    lines = [
        "FORKLIFT PRE-USE CHECK",
        f"Warehouse: {site}",
        f"Truck: {rng.choice(trucks)}",
        f"Date: {long_date(d)}",
        f"Driver: {rng.choice(users)}",
    ]
    lines += [f"  {c:<22} OK" for c in FORKLIFT_CHECKS]
    lines += ["Fit for use: yes", "Notes: " + rng.choice(["None.", "Seat a little loose; tightened.", "Horn quiet."])]
    return f"{d.isoformat()}-forklift-check-{SLUG[site]}-{n:03d}.txt", "\n".join(lines)


def delivery_round(rng: random.Random, n: int) -> tuple[str, str]:
    site = "Whinfield Depot"
    d = day(rng)
    while d.weekday() not in (1, 3):  # the round runs on Tuesdays and Thursdays
        d += timedelta(days=1)
    stops = rng.sample(VILLAGES, rng.randint(4, 5))
    text = (
        f"RURAL ROUND SHEET\nDepot: Whinfield\nDate: {long_date(d)}\nVan: MX22 TBL\n"
        f"Driver: {rng.choice(DRIVERS[site])}\nStops:\n"
        + "".join(f"  {i}. {s}\n" for i, s in enumerate(stops, 1))
        + f"Van mileage for the round: {rng.randint(38, 71)}\nNotes: {rng.choice(ROUND_NOTES)}\n"
    )
    return f"{d.isoformat()}-rural-round-whinfield-{n:03d}.txt", text


def collection(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    text = (
        f"SUPERMARKET COLLECTION\nWarehouse: {site}\nDate: {long_date(d)}\n"
        f"Collected from: {rng.choice(COLLECTION_STORES[site])}\nCrates: {rng.randint(3, 12)}\n"
        f"Driver: {rng.choice(DRIVERS[site])}\nNotes: {rng.choice(COLLECTION_NOTES)}\n"
    )
    return f"{d.isoformat()}-collection-{SLUG[site]}-{n:03d}.txt", text


def partner_visit(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(STAFF))
    d = day(rng)
    who = rng.choice(
        [
            "a family support worker from the local primary school",
            "two volunteers from a church food pantry",
            "a housing officer",
            "a student on a social work placement",
            "a councillor",
        ]
    )
    text = "\n".join(
        [
            f"# Visit to {SHORT[site]}, {long_date(d)}",
            "",
            f"Visitor: {who}.",
            "",
            f"Shown round by {rng.choice(STAFF[site])}. "
            + rng.choice(
                [
                    "They watched a distribution session and asked about volunteering.",
                    "They were interested in how donations are sorted.",
                    "They took leaflets for their colleagues.",
                    "They asked about the rural round.",
                ]
            ),
        ]
    )
    return f"{d.isoformat()}-visit-{SLUG[site]}-{n:03d}.md", text


def petty_cash(rng: random.Random, n: int, site: str, month: int) -> tuple[str, str]:
    d = date(2026, month, 28)
    rows = rng.sample(PETTY_ITEMS, rng.randint(2, 4))
    spent = [(name, round(rng.uniform(lo, hi), 2)) for name, lo, hi in rows]
    total = round(sum(a for _, a in spent), 2)
    body = "".join(f"  {name:<30} {a:>7.2f}\n" for name, a in spent)
    text = (
        f"PETTY CASH RECONCILIATION\nWarehouse: {site}\nMonth: {d.strftime('%B %Y')}\nFloat: 75.00\n\n"
        f"Spent:\n{body}  {'Total spent':<30} {total:>7.2f}\n\nCash in tin: {75 - total:.2f}\n"
        f"Receipts attached: yes\nChecked by: {rng.choice(STAFF[site])}\n"
    )
    return f"{d.isoformat()}-petty-cash-{SLUG[site]}-{n:03d}.txt", text


def main() -> None:
    rng = random.Random(20261020)
    makers = [
        fire_alarm,
        cleaning,
        donation,
        volunteer_shift,
        forklift_check,
        delivery_round,
        collection,
        partner_visit,
    ]
    for n in range(82):
        name, text = makers[n % len(makers)](rng, n + 1)
        write(WAREHOUSES / name, text)
    n = 82
    for month in range(4, 10):
        for site in STAFF:
            n += 1
            name, text = petty_cash(rng, n, site, month)
            write(FINANCE / name, text)


if __name__ == "__main__":
    main()
