"""Write the everyday records of the answer_dev7 set (Fellbrook Veterinary Group).

These are the small records a group of vet practices piles up: kennel cleaning logs, weekly fire alarm tests,
items left behind by clients, waiting room checks, client feedback cards, vet bedding laundry deliveries,
daily walk-round checks of the vaccination van and the monthly petty cash counts. They name the same three
practices and some of the same staff as the real documents, but none of them holds a fact that a question
asks about: no equipment services, no invoices, no drug counts, no rotas, no overtime, no mileage, no
caseload or cost figures.

The output depends only on the fixed seed, so a second run rewrites the same files:

    python tests/support/answer_dev7/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "docs"
CLIN_OUT = ROOT / "clinical" / "routine"
FIN_OUT = ROOT / "finance" / "routine"

PRACTICES = ("Kestleford Animal Hospital", "Millbeck Veterinary Surgery", "Pennock Vale Vets")
TAG = {
    "Kestleford Animal Hospital": "kestleford",
    "Millbeck Veterinary Surgery": "millbeck",
    "Pennock Vale Vets": "pennock",
}

# Staff whose duties no question asks about.
CREW = {
    "Kestleford Animal Hospital": ("Sadie Thwaites", "Warren Bickerstaff", "Molly Arden", "Kieran Moss"),
    "Millbeck Veterinary Surgery": ("Gareth Hume", "Maddie Crouch", "Niamh Gallagher"),
    "Pennock Vale Vets": ("Jess Whitlow", "Luca Brambilla", "Zainab Rahman"),
}
KENNELS = {
    "Kestleford Animal Hospital": ("dog ward bank 1", "dog ward bank 2", "cat ward", "isolation", "kennel run"),
    "Millbeck Veterinary Surgery": ("dog kennels", "cat kennels", "stable 1", "stable 2"),
    "Pennock Vale Vets": ("dog kennels", "cat kennels", "hydro drying area"),
}
AREAS = {
    "Kestleford Animal Hospital": ("main waiting room", "cat waiting area", "consult rooms 1-4", "toilets", "car park"),
    "Millbeck Veterinary Surgery": ("waiting room", "consult rooms 1-2", "yard entrance", "toilets"),
    "Pennock Vale Vets": ("waiting room", "consult room", "hydro reception", "toilets"),
}
FIRE_POINTS = ("call point 1, front door", "call point 2, kennels", "call point 3, back corridor",
               "call point 4, staff room")
LEFT_BEHIND = (
    "red extending lead",
    "tartan dog coat, small",
    "cat carrier with a blue blanket",
    "umbrella, black",
    "reading glasses in a green case",
    "child's glove",
    "bag of dog treats",
    "car key on a keyring with a paw charm",
    "horse rug, brown, labelled 'Dusty'",
    "travel water bowl",
)
COMMENTS = (
    ("The nurse who saw my rabbit was so kind and patient.", "Thank you, passed on to the team."),
    ("We waited twenty minutes past our appointment time.",
     "Sorry; an emergency came in. We will keep you informed next time."),
    ("Could you have a separate waiting area for cats?", "Noted for the next refurbishment."),
    ("Car park was full on Saturday morning.", "Passed to the Practice Manager."),
    ("Lovely to get a reminder text for the booster.", "Thank you."),
    ("The water bowl in the waiting room was empty.", "Refilled and added to the opening checklist."),
    ("Very clear explanation of the bill.", "Thank you, shared with client care."),
)
LAUNDRY_NOTES = (
    "All bags collected.",
    "One bag of vetbed short on return; driver to bring it next visit.",
    "Delivered before opening.",
    "Two towels sent back for re-wash.",
)
VAN_CHECKS = ("tyres", "lights", "indicators", "mirrors", "wipers", "table secured", "sink water", "door locks")


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


def kennel_cleaning(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    lines = [f"KENNEL CLEANING LOG - {site} - {nice(d)}", ""]
    for h in sorted(rng.sample(range(7, 19), 4)):
        lines.append(f"{h:02d}:00  {rng.choice(KENNELS[site]):<20} cleaned, disinfected, bedding changed   "
                     f"{rng.choice(CREW[site])}")
    return f"kennel-cleaning-{TAG[site]}", "\n".join(lines), d


def fire_alarm(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    body = (f"WEEKLY FIRE ALARM TEST\n{site}\n{nice(d)}\n"
            f"Point tested: {rng.choice(FIRE_POINTS)}\nSounders heard in all areas: yes\n"
            "Doors released: yes\n"
            f"Faults: {rng.choice(['none', 'none', 'sounder in the store slow to start; reported'])}\n"
            f"Tested by: {rng.choice(CREW[site])}\n")
    return f"fire-alarm-{TAG[site]}", body, d


def left_behind(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    items = rng.sample(LEFT_BEHIND, 3)
    body = "\n".join([
        f"# Items left behind by clients: {site}",
        "",
        f"Week ending {nice(d)}.",
        "",
        *[f"- {item}, found in the {rng.choice(AREAS[site])}" for item in items],
        "",
        f"Logged by {rng.choice(CREW[site])}. Items not claimed after 30 days go to the animal rescue shop.",
    ])
    return f"left-behind-{TAG[site]}", body, d


def waiting_room(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    lines = ["WAITING ROOM AND PUBLIC AREA CHECK", f"Practice: {site}", f"Date: {nice(d)}", ""]
    for area in AREAS[site]:
        lines.append(f"  {area:<22} clean: yes   hazards: {rng.choice(['none', 'none', 'wet floor sign put out'])}")
    lines.append(f"\nChecked by: {rng.choice(CREW[site])}")
    return f"waiting-room-check-{TAG[site]}", "\n".join(lines), d


def feedback_card(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    said, reply = rng.choice(COMMENTS)
    body = "\n".join([
        f"# Client feedback card, {site}",
        "",
        f"Received {nice(d)}.",
        "",
        f"> {said}",
        "",
        f"Reply: {reply} ({rng.choice(CREW[site])})",
    ])
    return f"feedback-card-{TAG[site]}", body, d


def laundry(rng: random.Random) -> tuple[str, str, date]:
    site = rng.choice(PRACTICES)
    d = when(rng)
    body = (f"LAUNDRY DELIVERY NOTE - Fellside Linen\nDelivered to: {site}\nDate: {nice(d)}\n"
            f"Bags out: {rng.randint(3, 12)}\nBags back: vetbed, towels and theatre gowns\n"
            f"Signed for by: {rng.choice(CREW[site])}\nNotes: {rng.choice(LAUNDRY_NOTES)}\n")
    return f"laundry-{TAG[site]}", body, d


def van_check(rng: random.Random) -> tuple[str, str, date]:
    d = workday(rng, date(2026, 5, 12), date(2026, 9, 30))
    lines = ["VACCINATION VAN DAILY WALK-ROUND CHECK", "Base: Pennock Vale Vets", f"Date: {nice(d)}",
             "Driver: Pete Ashdown"]
    lines += [f"  {c:<16} ok" for c in VAN_CHECKS]
    lines.append("Defects: " + rng.choice(["none", "screen wash topped up", "step mat muddy; cleaned"]))
    return "van-check-pennock", "\n".join(lines), d


def petty_cash(rng: random.Random, site: str, month: int) -> tuple[str, str, date]:
    d = date(2026, month, 1) + timedelta(days=26)
    lines = [f"PETTY CASH COUNT\nPractice: {site}\nMonth: {d.strftime('%B %Y')}\n"]
    for denom in ("notes", "coins"):
        lines.append(f"  {denom:<10} {rng.uniform(20, 120):>8.2f}")
    lines.append(f"  vouchers   {rng.randint(2, 9):>8d}")
    lines.append(f"\nAgrees with the petty cash book: yes\nCounted by: {rng.choice(CREW[site])} "
                 "with a second person present")
    return f"petty-cash-{TAG[site]}", "\n".join(lines), d


def save(folder: Path, stem: str, body: str, d: date, n: int, suffix: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{d.isoformat()}-{stem}-{n:03d}{suffix}").write_text(body.rstrip() + "\n", encoding="utf-8")


def main() -> None:
    rng = random.Random(70423)
    kinds = (
        (kennel_cleaning, ".txt"),
        (fire_alarm, ".txt"),
        (left_behind, ".md"),
        (waiting_room, ".txt"),
        (feedback_card, ".md"),
        (laundry, ".txt"),
        (van_check, ".txt"),
    )
    n = 0
    for i in range(62):
        make, suffix = kinds[i % len(kinds)]
        stem, body, d = make(rng)
        n += 1
        save(CLIN_OUT, stem, body, d, n, suffix)
    for month in range(4, 10):
        for site in PRACTICES:
            stem, body, d = petty_cash(rng, site, month)
            n += 1
            save(FIN_OUT, stem, body, d, n, ".txt")


if __name__ == "__main__":
    main()
