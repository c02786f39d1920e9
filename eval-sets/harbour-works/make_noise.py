"""Write the routine documents of the harbour-works set: short day-to-day records of Tregarth Marine Works.

They use the same words as the real documents (sites, plant numbers, tides, lifejackets, stores) but carry none of
the facts the questions ask about, and no record falls on a day that a fault report covers. Deterministic: running
it again rewrites the same files.

    python eval-sets/harbour-works/make_noise.py
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPS = HERE / "docs" / "operations" / "records"
ACCOUNTS = HERE / "docs" / "accounts" / "petty-cash"

SITES = {
    "Anchor Yard": ["Gwyn Pender", "Mervyn Chegwidden", "Stefan Kowal", "Beth Curnow", "Dominic Trethewey"],
    "Eastern Breakwater Depot": ["Tom Nankivell", "Lucy Penrose", "Callum Rowse", "Owen Jenkin"],
    "Slipway Workshop": ["Yannick Le Goff", "Aaron Wills"],
    "Penhale Quay Dive Base": ["Jago Pascoe", "Rosenwyn Bray"],
}
SLUG = {"Anchor Yard": "anchor", "Eastern Breakwater Depot": "breakwater", "Slipway Workshop": "slipway",
        "Penhale Quay Dive Base": "penhale"}
# plant that routine checks may mention, with the site it lives at
PLANT = [("CR-01", "crawler crane", "Anchor Yard"), ("PD-01", "hydraulic piling hammer", "Anchor Yard"),
         ("GN-01", "60 kVA generator", "Anchor Yard"), ("WS-02", "welding set", "Anchor Yard"),
         ("PL-15", "tracked dumper", "Eastern Breakwater Depot"), ("WS-01", "welding set", "Slipway Workshop"),
         ("GN-02", "20 kVA generator", "Penhale Quay Dive Base"), ("CP-01", "dive air compressor", "Penhale Quay Dive Base")]
# days covered by fault reports: no routine record on these
SKIP = {date(2026, 5, 12), date(2026, 6, 9), date(2026, 8, 18), date(2026, 9, 2)}

TOOLBOX_TOPICS = [
    "Manual handling of fender panels", "Lifejacket pre-use checks", "Slips and trips on wet steps",
    "Hot work permits in the fabrication shop", "Hand-arm vibration from breakers", "Sun and dehydration on the quay",
    "Working near the edge at night", "Using the spill kit", "Noise and hearing protection", "Cold water shock",
    "Housekeeping in the stores", "Reversing vehicles on the quay",
]
STORES_ITEMS = [
    "rigger gloves (pairs)", "shackles 3.25 t", "polypropylene rope 16 mm (m)", "cable ties (bags)",
    "grinding discs 115 mm", "hi-vis vests", "safety glasses", "earplugs (boxes)", "WD-40 cans",
    "stainless bolts M16 x 80", "welding rods (packs)", "marker paint (cans)",
]
WASTE = [("scrap steel", "tonnes", 0.4, 3.5), ("waste timber", "tonnes", 0.2, 2.0),
         ("general waste", "skips", 1, 2), ("used oil filters", "drums", 1, 3), ("empty paint tins", "bags", 1, 4)]
LIGHTS = ["Polcarrow breakwater roundhead", "Polcarrow south quay end", "Polcarrow leading lights",
          "Trewince harbour wall", "Trewince rock beacon"]
WEATHER = ["light westerly", "moderate south-westerly", "fresh north-westerly", "light variable", "moderate easterly"]
PETTY = [("milk and coffee for the cabin", 4.0, 9.5), ("padlocks", 6.0, 18.0), ("first aid kit top-up", 5.0, 15.0),
         ("batteries for radios", 6.5, 12.0), ("cleaning products", 3.0, 8.0), ("postage", 2.5, 9.0),
         ("cable reel from the builders' merchant", 12.0, 24.0)]


def day(rng: random.Random, start: date = date(2026, 1, 5), end: date = date(2026, 10, 30)) -> date:
    while True:
        d = start + timedelta(days=rng.randrange((end - start).days + 1))
        if d.weekday() < 5 and d not in SKIP:
            return d


def long_date(d: date) -> str:
    return f"{d.day} {d.strftime('%B %Y')}"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def toolbox_talk(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(SITES))
    d = day(rng)
    people = rng.sample(SITES[site], min(len(SITES[site]), rng.randint(2, 4)))
    text = (f"TOOLBOX TALK RECORD\nSite: {site}\nDate: {long_date(d)}\nTopic: {rng.choice(TOOLBOX_TOPICS)}\n"
            f"Given by: {people[0]}\nAttended: {', '.join(people[1:]) or 'none other'}\nLength: {rng.choice([10, 15, 20])} minutes\n"
            f"Questions raised: {rng.choice(['none', 'where the spare gloves are kept', 'whether the talk applies to agency staff (yes)', 'how often the check is needed'])}\n")
    return f"{d.isoformat()}-toolbox-talk-{SLUG[site]}-{n:03d}.txt", text


def pre_use_check(rng: random.Random, n: int) -> tuple[str, str]:
    asset, what, site = rng.choice(PLANT)
    d = day(rng)
    who = rng.choice(SITES[site])
    items = ["fluid levels", "guards in place", "emergency stop", "leaks", "lights and beacon", "fire extinguisher"]
    lines = [f"Pre-use check: {asset} {what}", f"Site: {site}", f"Date: {long_date(d)}", f"Checked by: {who}", ""]
    lines += [f"  {i:<20} OK" for i in items]
    lines += ["", f"Hours meter: {rng.randint(1200, 9800)}",
              f"Defects: {rng.choice(['none', 'none', 'beacon loose, tightened', 'low washer fluid, topped up'])}"]
    return f"{d.isoformat()}-pre-use-{asset.lower()}-{n:03d}.txt", "\n".join(lines)


def stores_issue(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(SITES))
    d = day(rng)
    rows = rng.sample(STORES_ITEMS, rng.randint(2, 4))
    lines = [f"# Stores issue note, {site}", "", f"{long_date(d)}. Issued by Stefan Kowal, collected by "
             f"{rng.choice(SITES[site])}.", "", "| Item | Qty |", "|---|---|"]
    lines += [f"| {r} | {rng.randint(1, 20)} |" for r in rows]
    return f"{d.isoformat()}-stores-issue-{SLUG[site]}-{n:03d}.md", "\n".join(lines)


def light_check(rng: random.Random, n: int) -> tuple[str, str]:
    d = day(rng, date(2026, 7, 20))  # after the new lanterns went in
    light = rng.choice(LIGHTS)
    who = rng.choice(SITES["Eastern Breakwater Depot"])
    lines = [f"# Navigation light check: {light}", "", f"Checked on {long_date(d)} by {who}, at dusk from the shore.", "",
             "- Showing: yes", "- Character correct: yes", f"- Lens clean: {rng.choice(['yes', 'salt film, cleaned'])}",
             f"- Battery voltage: {rng.choice(['12.6', '12.8', '12.9', '13.1'])} V", "", "No action needed."]
    return f"{d.isoformat()}-light-check-{n:03d}.md", "\n".join(lines)


def waste_note(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(SITES)[:3])
    d = day(rng)
    kind, unit, lo, hi = rng.choice(WASTE)
    qty = round(rng.uniform(lo, hi), 1) if unit == "tonnes" else rng.randint(int(lo), int(hi))
    text = (f"WASTE TRANSFER NOTE (copy)\nProducer: Tregarth Marine Works Ltd, {site}\nDate: {long_date(d)}\n"
            f"Waste: {kind}\nQuantity: {qty} {unit}\nCarrier: Kernow Waste Services\nSigned for the site: {rng.choice(SITES[site])}\n")
    return f"{d.isoformat()}-waste-transfer-{SLUG[site]}-{n:03d}.txt", text


def visitors(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(SITES))
    d = day(rng)
    d -= timedelta(days=d.weekday())
    count = rng.randint(5, 14)
    most = rng.choice(["delivery drivers", "client staff", "surveyors", "subcontractors"])
    extra = rng.sample(["the college assessor", "the fuel tanker driver", "an insurance engineer", "a council officer",
                        "a supplier's rep"], 2)
    lines = [f"# Visitors signed in: {site}, week beginning {long_date(d)}", "", f"{count} visitors in total, mostly "
             f"{most}, plus {extra[0]} and {extra[1]}.", "", "All were given the site safety card and signed out.",
             "", f"Book checked by {rng.choice(SITES[site])}."]
    return f"{d.isoformat()}-visitors-{SLUG[site]}-{n:03d}.md", "\n".join(lines)


def first_aid(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(list(SITES))
    d = day(rng)
    text = (f"First aid kit and eyewash check\nSite: {site}\nDate: {long_date(d)}\n"
            f"Kits checked: {rng.randint(2, 5)}\nItems replaced: {rng.choice(['plasters', 'eyewash pods', 'burn gel', 'nothing', 'gloves and wipes'])}\n"
            f"Defibrillator status light: green\nChecked by: {rng.choice(SITES[site])}\n")
    return f"{d.isoformat()}-first-aid-check-{SLUG[site]}-{n:03d}.txt", text


def weather_brief(rng: random.Random, n: int) -> tuple[str, str]:
    site = rng.choice(["Anchor Yard", "Slipway Workshop"])
    d = day(rng)
    hw = f"{rng.randint(0, 11):02d}:{rng.choice(['05', '20', '35', '50'])}"
    lines = [f"# Morning brief, {site}, {long_date(d)}", "", f"- High water about {hw} and again about twelve and a half hours later.",
             f"- Wind: {rng.choice(WEATHER)}.", f"- Sea state in the harbour: {rng.choice(['calm', 'slight', 'slight to moderate'])}.",
             f"- Work over water: {rng.choice(['go', 'go', 'go, review at midday'])}.", "",
             f"Brief given by {rng.choice(SITES[site])}."]
    return f"{d.isoformat()}-morning-brief-{SLUG[site]}-{n:03d}.md", "\n".join(lines)


def petty_cash(rng: random.Random, n: int, site: str, month: int) -> tuple[str, str]:
    d = date(2026, month, 27)
    rows = rng.sample(PETTY, rng.randint(2, 4))
    spent = [(name, round(rng.uniform(lo, hi), 2)) for name, lo, hi in rows]
    total = round(sum(a for _, a in spent), 2)
    body = "".join(f"  {name:<40} {a:>7.2f}\n" for name, a in spent)
    text = (f"PETTY CASH SHEET\nSite: {site}\nMonth: {d.strftime('%B %Y')}\nFloat: 150.00\n\n{body}"
            f"  {'Total':<40} {total:>7.2f}\n\nBalance: {150 - total:.2f}\nSent to the accounts office with receipts.\n")
    return f"{d.isoformat()}-petty-cash-{SLUG[site]}-{n:03d}.txt", text


def main() -> None:
    rng = random.Random(20261004)
    makers = [toolbox_talk, pre_use_check, stores_issue, light_check, waste_note, visitors, first_aid, weather_brief]
    for n in range(100):
        name, text = makers[n % len(makers)](rng, n + 1)
        write(OPS / name, text)
    n = 100
    for month in range(4, 9):
        for site in SITES:
            n += 1
            name, text = petty_cash(rng, n, site, month)
            write(ACCOUNTS / name, text)


if __name__ == "__main__":
    main()
