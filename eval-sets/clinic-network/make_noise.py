"""Write 120 short routine records into docs/clinical/routine/ and docs/finance/routine/.

The records are background text for the clinic-network question set. They use the same words as the real
documents (clinics, fridges, kennels, the store, deliveries, takings) but carry none of the facts the questions
ask about: no staff names, phone numbers, asset numbers, costs from the reports, van times, procedure steps or
out-of-range fridge readings, and none falls on a day an incident report covers. The output is deterministic:
running the script again rewrites the same files.

    python eval-sets/clinic-network/make_noise.py
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "docs"
CLINICAL = ROOT / "clinical" / "routine"
FINANCE = ROOT / "finance" / "routine"
CLINICAL_COUNT = 92
FINANCE_COUNT = 28
SEED = 20261

CLINICS = ["Tanner Street", "Weir Road", "Orchard Parade"]
SITES = CLINICS + ["Pharmacy Store"]
# days covered by incident reports; routine records never fall on them
SKIP = {dt.date(2026, 1, 18), dt.date(2026, 1, 19), dt.date(2026, 5, 14), dt.date(2026, 5, 15),
        dt.date(2026, 7, 18), dt.date(2026, 7, 19), dt.date(2026, 8, 11)}

KENNEL_AREAS = ["dog ward", "cat ward", "isolation kennel", "rabbit and small furries room", "recovery kennels",
                "kennel run by the back door"]
DISINFECTANTS = ["the usual quaternary ammonium disinfectant", "the virucidal disinfectant (parvo protocol)",
                 "hot water and detergent, then disinfectant"]
COMMENTS = ["receptionist very kind on the phone", "waiting room busy but moved quickly", "could not park",
            "nurse clinic was really helpful", "reminder text came a day late", "cat waiting area appreciated",
            "bill higher than expected, explained at the desk", "vet took time to explain the X-rays",
            "water bowl in the waiting room empty", "easy to book online", "wanted a later evening appointment",
            "puppy party was fun", "felt rushed in the consult"]
NOTICES = ["staff room fridge to be cleared on Fridays", "uniform order forms due by the end of the month",
           "window cleaner coming on Thursday", "new scrub tops in the linen cupboard",
           "charity dog walk sign-up sheet on the board", "please log out of the practice system at the end of a shift",
           "car park gritting contract renewed", "the washing machine in the laundry has been repaired",
           "CPD evening on parasite control next month", "hand cream dispensers refilled"]
STOCK_NOTES = ["all totes checked against packing lists", "one tote short of syringes, noted in the stock system",
               "cool box logger in range, fridge lines put away", "returns tote sent back with the van",
               "bandage order split across two totes", "controlled drugs bag seal number matched the note"]
PETTY = [("milk and tea for the staff room", 3, 9), ("stamps", 5, 16), ("cleaning cloths", 2, 7),
         ("batteries for the thermometer", 3, 8), ("key cutting", 4, 12), ("bird seed for the waiting room feeder", 2, 6),
         ("kitchen roll", 2, 6), ("parcel postage", 4, 14), ("light bulbs", 3, 10)]


def pick_day(r: random.Random, site: str, weekdays_only: bool = False) -> dt.date:
    while True:
        day = dt.date(2026, 1, 5) + dt.timedelta(days=r.randint(0, 296))
        if day in SKIP:
            continue
        if day.weekday() == 6:
            continue  # no site is open to staff on Sundays for routine work
        if day.weekday() == 5 and (weekdays_only or site in ("Orchard Parade", "Pharmacy Store")):
            continue
        return day


def kennel_cleaning(r: random.Random, site: str, day: dt.date) -> str:
    areas = r.sample(KENNEL_AREAS, 3)
    return (f"# Kennel cleaning log - {site} - {day:%d %B %Y}\n\n"
            f"- {areas[0].capitalize()}: {r.randint(2, 9)} kennels cleaned with {r.choice(DISINFECTANTS)}.\n"
            f"- {areas[1].capitalize()}: {r.randint(1, 6)} kennels cleaned, bedding changed.\n"
            f"- {areas[2].capitalize()}: {r.choice(['not in use', 'cleaned after discharge', 'deep clean done'])}.\n\n"
            f"Laundry loads: {r.randint(2, 7)}. Mop heads changed: {r.choice(['yes', 'no'])}.\n"
            "Checked and initialled by the nurse in charge of the ward.\n")


def fridge_log(r: random.Random, site: str, day: dt.date) -> str:
    fridge = {"Pharmacy Store": "walk-in cold room",
              "Orchard Parade": "vaccine and pharmacy fridge"}.get(site) or r.choice(["vaccine fridge", "pharmacy fridge"])
    monday = day - dt.timedelta(days=day.weekday())
    lines = []
    for i in range(5):
        d = monday + dt.timedelta(days=i)
        lo = round(r.uniform(2.4, 4.4), 1)
        hi = round(r.uniform(5.2, 7.6), 1)
        cur = round(r.uniform(lo, hi), 1)
        lines.append(f"| {d:%a %d %b} | {cur} | {lo} | {hi} | reset |")
    return (f"# Fridge temperature record - {site} {fridge} - week beginning {monday:%d %B %Y}\n\n"
            "| Day | Current C | Min C | Max C | Thermometer |\n|---|---|---|---|---|\n" + "\n".join(lines) +
            "\n\nAll readings within 2-8 C. Door seal wiped and checked on Friday.\n")


def client_comments(r: random.Random, site: str, day: dt.date) -> str:
    picks = r.sample(COMMENTS, 3)
    return (f"# Client comments - {site} - week ending {day:%d %B %Y}\n\n"
            f"Compliments: {r.randint(2, 14)}. Complaints: {r.randint(0, 4)}. Online reviews: {r.randint(0, 6)}, "
            f"average {r.choice(['4.6', '4.7', '4.8', '4.9', '5.0'])} stars.\n\n"
            f"Comments this week: {picks[0]}; {picks[1]}; {picks[2]}.\n"
            "Complaints were answered by the clinic manager within five working days.\n")


def delivery_received(r: random.Random, site: str, day: dt.date) -> str:
    notes = r.sample(STOCK_NOTES, 2)
    return (f"STORE DELIVERY RECEIVED - {site.upper()}\n\n"
            f"Date: {day:%d %B %Y}. Totes: {r.randint(2, 11)}. Cool boxes: {r.randint(0, 2)}.\n"
            f"Notes: {notes[0]}; {notes[1]}.\n"
            "Packing list signed and filed in the delivery folder.\n")


def goods_in(r: random.Random, site: str, day: dt.date) -> str:
    return (f"GOODS-IN RECORD - PHARMACY STORE\n\n"
            f"Date: {day:%d %B %Y}. Pallets: {r.randint(1, 4)}. Parcels: {r.randint(3, 22)}.\n"
            f"Fridge lines checked on arrival and put away: {r.choice(['yes', 'yes', 'none in this delivery'])}.\n"
            f"Damaged on arrival: {r.choice(['none', 'none', 'one carton of swabs, photographed and reported'])}.\n"
            "Stock system updated the same day.\n")


def fire_alarm_test(r: random.Random, site: str, day: dt.date) -> str:
    return (f"FIRE ALARM TEST - {site.upper()}\n\n"
            f"Date: {day:%d %B %Y}. Call point used: {r.randint(1, 8)}.\n"
            "Sounders heard in all rooms, including the kennels and the stock room. Magnetic door holders released.\n"
            f"Result: {r.choice(['pass', 'pass', 'pass - one sounder faint, alarm company informed'])}.\n"
            "Fire log signed by the person doing the test.\n")


def first_aid_check(r: random.Random, site: str, day: dt.date) -> str:
    restock = r.sample(["plasters", "eye wash", "gloves", "burn gel", "bandages", "wipes"], r.randint(0, 3))
    return (f"# First aid box check - {site} - {day:%d %B %Y}\n\n"
            f"Boxes checked: {r.randint(1, 4)}. Restocked: {', '.join(restock) if restock else 'nothing'}.\n"
            "Accident book looked at; nothing needing follow-up.\n")


def noticeboard(r: random.Random, site: str, day: dt.date) -> str:
    notes = r.sample(NOTICES, 2)
    return (f"# Staff noticeboard - {site} - {day:%d %B %Y}\n\n"
            f"- {notes[0].capitalize()}.\n- {notes[1].capitalize()}.\n")


def petty_cash(r: random.Random, site: str, day: dt.date) -> str:
    items = r.sample(PETTY, r.randint(2, 4))
    lines = [f"| {what} | {r.randint(lo, hi)}.{r.choice(['00', '20', '49', '50', '75', '99'])} |" for what, lo, hi in items]
    return (f"# Petty cash sheet - {site} - week ending {day:%d %B %Y}\n\n"
            "| Item | GBP |\n|---|---|\n" + "\n".join(lines) +
            "\n\nReceipts stapled to the sheet. Float counted and topped up by the clinic manager.\n")


def takings(r: random.Random, site: str, day: dt.date) -> str:
    return (f"END OF DAY TAKINGS - {site.upper()}\n\n"
            f"Date: {day:%d %B %Y}. Card transactions: {r.randint(18, 95)}. Cash transactions: {r.randint(0, 7)}.\n"
            f"Card machine batch closed and matched to the practice system: {r.choice(['yes', 'yes', 'yes - one refund re-keyed'])}.\n"
            "Cash bagged for the weekly bank run.\n")


def banking(r: random.Random, site: str, day: dt.date) -> str:
    return (f"# Bank run note - {site} - {day:%d %B %Y}\n\n"
            f"Cash bags taken to the bank: {r.randint(1, 3)}. Paying-in slips returned and filed.\n"
            "Nothing to report.\n")


CLINICAL_KINDS = [("kennel-cleaning", "md", kennel_cleaning, CLINICS), ("fridge-log", "md", fridge_log, SITES),
                  ("client-comments", "md", client_comments, CLINICS),
                  ("store-delivery", "txt", delivery_received, CLINICS),
                  ("goods-in", "txt", goods_in, ["Pharmacy Store"]),
                  ("fire-alarm-test", "txt", fire_alarm_test, SITES), ("first-aid-check", "md", first_aid_check, SITES),
                  ("noticeboard", "md", noticeboard, SITES)]
FINANCE_KINDS = [("petty-cash", "md", petty_cash, SITES), ("takings", "txt", takings, CLINICS),
                 ("bank-run", "md", banking, CLINICS)]


def write(r: random.Random, out: Path, kinds: list, count: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    names: set[str] = set()
    while len(names) < count:
        kind, ext, fn, sites = r.choice(kinds)
        site = r.choice(sites)
        day = pick_day(r, site, weekdays_only=kind in ("store-delivery", "goods-in", "bank-run"))
        if kind == "fridge-log":
            monday = day - dt.timedelta(days=day.weekday())
            if any(monday + dt.timedelta(days=i) in SKIP for i in range(5)):
                continue  # a weekly fridge sheet must not cover an incident day either
            day = monday  # one sheet per site and week
        if kind in ("client-comments", "petty-cash"):
            day += dt.timedelta(days=4 - day.weekday())  # weekly sheets are dated the Friday the week ends
            if day in SKIP:
                continue
        name = f"{day:%Y-%m-%d}-{site.lower().replace(' ', '-')}-{kind}.{ext}"
        if name in names:
            continue
        names.add(name)
        (out / name).write_text(fn(r, site, day), encoding="utf-8")
    return len(names)


def main() -> None:
    r = random.Random(SEED)
    a = write(r, CLINICAL, CLINICAL_KINDS, CLINICAL_COUNT)
    b = write(r, FINANCE, FINANCE_KINDS, FINANCE_COUNT)
    print(f"wrote {a} records to {CLINICAL} and {b} to {FINANCE}")


if __name__ == "__main__":
    main()
