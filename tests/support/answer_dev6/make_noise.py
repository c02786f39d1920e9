"""Write the everyday records of the answer_dev6 set (Harrowdene Pools Trust).

These are the small records a pool operator piles up: emergency lighting checks, changing room inspections,
lost property, first aid box checks, locker audits, customer comment cards, laundry deliveries, minibus
walk-round checks and the monthly vending machine cash collections. They name the same three pools and some
of the same staff as the real documents, but none of them holds a fact that a question asks about: no water
tests, no rotas, no lesson or lane bookings, no service dates, no invoices, no attendance or cost figures.

The output depends only on the fixed seed, so a second run rewrites the same files:

    python tests/support/answer_dev6/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "docs"
OPS_OUT = ROOT / "operations" / "routine"
FIN_OUT = ROOT / "finance" / "routine"

POOLS = ("Marlstone Aquatic Centre", "Hollins Lane Pool", "Cray Bridge Pool")
TAG = {"Marlstone Aquatic Centre": "marlstone", "Hollins Lane Pool": "hollins-lane", "Cray Bridge Pool": "cray-bridge"}

# Staff whose duties no question asks about.
CREW = {
    "Marlstone Aquatic Centre": ("Rhys Cantrell", "Amara Nwosu", "Hannah Pickering", "Joel Ferreira", "Beatrix Lund"),
    "Hollins Lane Pool": ("Jordan Metcalfe", "Ruby Asamoah", "Lewis Arkwright"),
    "Cray Bridge Pool": ("Ellie Sandford", "Theo Brannigan", "Owen Tierney"),
}
AREAS = {
    "Marlstone Aquatic Centre": ("changing village", "spectator gallery", "café", "learner pool hall", "main stairs"),
    "Hollins Lane Pool": ("men's changing room", "women's changing room", "sauna corridor", "fitness suite", "foyer"),
    "Cray Bridge Pool": ("village changing room", "hydrotherapy changing room", "foyer", "poolside store"),
}
LOST_ITEMS = (
    "black swimming goggles",
    "blue towel with a dolphin print",
    "child's left trainer",
    "padlock with key",
    "reading glasses in a brown case",
    "water bottle",
    "pink hair bobble set",
    "grey hoodie, age 9-10",
    "car key on a red fob",
    "swimming cap, white",
)
FIRST_AID_ITEMS = ("plasters", "sterile dressings", "eye wash pods", "foil blankets", "gloves", "triangular bandages")
COMMENTS = (
    ("The changing rooms were spotless this morning.", "Thank you, passed on to the cleaning team."),
    ("Water felt a bit cold in the early session.", "Temperature checked and within our normal range."),
    ("Could the café open earlier on Saturdays?", "Noted for the next café review."),
    ("Hairdryers in the women's changing room are slow.", "Reported for repair."),
    ("Lovely friendly welcome at reception.", "Thank you, shared with the team."),
    ("The lockers keep eating my pound coins.", "Lockers checked; two coin mechanisms cleaned."),
    ("More lane swimming in the evenings please.", "Passed to the Pool Manager."),
)
LAUNDRY_NOTES = (
    "All bags collected.",
    "Two bags short on return; driver to bring them next visit.",
    "Delivered before opening.",
    "One bag of stained towels sent for re-wash.",
)
MINIBUS_CHECKS = ("tyres", "lights", "indicators", "wipers and washers", "mirrors", "seat belts", "first aid kit")
VENDING = ("snack machine", "drinks machine", "goggles and caps machine")


def workday(rng: random.Random, first: date, last: date) -> date:
    """A Monday-to-Friday date between first and last inclusive."""
    while True:
        d = first + timedelta(days=rng.randrange((last - first).days + 1))
        if d.weekday() < 5:
            return d


def when(rng: random.Random) -> date:
    return workday(rng, date(2026, 1, 5), date(2026, 9, 30))


def nice(d: date) -> str:
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B %Y')}"


def emergency_lighting(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    fittings = rng.randint(18, 46)
    fault = rng.choice(["none", "one fitting in the plant room corridor slow to light; reported",
                        "exit sign by the fire door flickering; lamp replaced"])
    body = (f"EMERGENCY LIGHTING MONTHLY FLICK TEST\n{pool}\n{nice(d)}\n"
            f"Fittings tested: {fittings}\nAll lit for the test period: yes\nFaults: {fault}\n"
            f"Tested by: {rng.choice(CREW[pool])}\n")
    return f"emergency-lighting-{TAG[pool]}", body, d


def changing_check(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    hours = sorted(rng.sample(range(8, 20), 4))
    lines = [f"CHANGING AREA INSPECTION LOG - {pool} - {nice(d)}", ""]
    for h in hours:
        lines.append(f"{h:02d}:00  {rng.choice(AREAS[pool]):<28} floors dry, bins ok   {rng.choice(CREW[pool])}")
    return f"changing-inspection-{TAG[pool]}", "\n".join(lines), d


def lost_property(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    found = rng.sample(LOST_ITEMS, 3)
    body = "\n".join([
        f"# Lost property handed in: {pool}",
        "",
        f"Week ending {nice(d)}.",
        "",
        *[f"- {item}, found in the {rng.choice(AREAS[pool])}" for item in found],
        "",
        f"Logged by {rng.choice(CREW[pool])}. Unclaimed items go to charity after 30 days.",
    ])
    return f"lost-property-{TAG[pool]}", body, d


def first_aid_box(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    topped = rng.sample(FIRST_AID_ITEMS, rng.randint(1, 3))
    box = rng.choice(['reception', 'poolside', 'staff room'])
    body = (f"FIRST AID BOX CHECK\nPool: {pool}\nDate: {nice(d)}\nBox: {box}\n"
            f"Seal intact: yes\nTopped up: {', '.join(topped)}\nChecked by: {rng.choice(CREW[pool])}\n")
    return f"first-aid-box-{TAG[pool]}", body, d


def locker_audit(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    total = {"Marlstone Aquatic Centre": 220, "Hollins Lane Pool": 96, "Cray Bridge Pool": 72}[pool]
    broken = rng.randint(0, 4)
    body = "\n".join([
        f"# Locker audit, {pool}",
        "",
        f"{nice(d)}. Lockers checked: {total}. Out of use: {broken}. Keys missing: {rng.randint(0, 3)}.",
        "",
        f"Done by {rng.choice(CREW[pool])}. Out-of-use lockers taped and reported.",
    ])
    return f"locker-audit-{TAG[pool]}", body, d


def comment_card(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    said, reply = rng.choice(COMMENTS)
    body = "\n".join([
        f"# Customer comment card, {pool}",
        "",
        f"Received {nice(d)}.",
        "",
        f"> {said}",
        "",
        f"Reply: {reply} ({rng.choice(CREW[pool])})",
    ])
    return f"comment-card-{TAG[pool]}", body, d


def laundry(rng: random.Random) -> tuple[str, str, date]:
    pool = rng.choice(POOLS)
    d = when(rng)
    body = (f"LAUNDRY DELIVERY NOTE - Brookside Linen Services\nDelivered to: {pool}\nDate: {nice(d)}\n"
            f"Bags out: {rng.randint(4, 14)}\nBags back: clean towels and poolside mats\n"
            f"Signed for by: {rng.choice(CREW[pool])}\nNotes: {rng.choice(LAUNDRY_NOTES)}\n")
    return f"laundry-{TAG[pool]}", body, d


def minibus_check(rng: random.Random) -> tuple[str, str, date]:
    d = workday(rng, date(2026, 1, 5), date(2026, 8, 28))  # September left out: the bus was off the road
    odo = 41000 + (d - date(2026, 1, 1)).days * 37 + rng.randint(0, 30)
    lines = ["MINIBUS WALK-ROUND CHECK", "Vehicle: 16-seat minibus, Cray Bridge", f"Date: {nice(d)}",
             "Driver: Dennis Pye", f"Odometer: {odo}"]
    lines += [f"  {c:<20} ok" for c in MINIBUS_CHECKS]
    lines.append("Defects: " + rng.choice(["none", "washer bottle topped up", "rear step muddy; cleaned"]))
    return "minibus-check-cray-bridge", "\n".join(lines), d


def vending(rng: random.Random, pool: str, month: int) -> tuple[str, str, date]:
    d = date(2026, month, 1) + timedelta(days=27)
    lines = [f"VENDING CASH COLLECTION\nPool: {pool}\nMonth: {d.strftime('%B %Y')}\n"]
    total = 0.0
    for machine in VENDING:
        amount = round(rng.uniform(35, 190), 2)
        total += amount
        lines.append(f"  {machine:<26} {amount:>8.2f}")
    lines.append(f"  {'Banked':<26} {total:>8.2f}")
    lines.append(f"\nCounted by: {rng.choice(CREW[pool])} with a second person present")
    return f"vending-cash-{TAG[pool]}", "\n".join(lines), d


def save(folder: Path, stem: str, body: str, d: date, n: int, suffix: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{d.isoformat()}-{stem}-{n:03d}{suffix}").write_text(body.rstrip() + "\n", encoding="utf-8")


def main() -> None:
    rng = random.Random(60617)
    kinds = (
        (emergency_lighting, ".txt"),
        (changing_check, ".txt"),
        (lost_property, ".md"),
        (first_aid_box, ".txt"),
        (locker_audit, ".md"),
        (comment_card, ".md"),
        (laundry, ".txt"),
        (minibus_check, ".txt"),
    )
    n = 0
    for i in range(82):
        make, suffix = kinds[i % len(kinds)]
        stem, body, d = make(rng)
        n += 1
        save(OPS_OUT, stem, body, d, n, suffix)
    for month in range(4, 10):
        for pool in POOLS:
            stem, body, d = vending(rng, pool, month)
            n += 1
            save(FIN_OUT, stem, body, d, n, ".txt")


if __name__ == "__main__":
    main()
