"""Write 100 short routine records for the garden-centres question set.

Fire alarm tests, sticky trap counts, glasshouse watering rounds, customer comments, display changes, café cleaning
checks and yard tidy checks go to docs/centres/routine/; till banking slips, petty cash vouchers and goods-received
notes go to docs/finance/routine/. They share the vocabulary of the real documents (the three centres and the
nursery, planteria, glasshouses, yards, cafés, chemical stores, forklifts, home deliveries) but carry none of the
facts the questions ask about: no people's names, phone numbers, asset numbers, invoice numbers or amounts, quarterly
figures, rates, quotes, procedure steps or temperatures, and no record falls on a day that an incident report
covers.

The output is deterministic: running the script again rewrites the same 100 files.

    python eval-sets/garden-centres/make_noise.py
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
CENTRES_OUT = HERE / "docs" / "centres" / "routine"
FINANCE_OUT = HERE / "docs" / "finance" / "routine"
CENTRES_COUNT = 70
FINANCE_COUNT = 30
SEED = 20267

SITES = ["Oakfield Garden Centre", "Kingsmead Garden Centre", "Birchley Garden Centre", "Fernleigh Nursery"]
CENTRES = SITES[:3]
SHORT = {"Oakfield Garden Centre": "Oakfield", "Kingsmead Garden Centre": "Kingsmead",
         "Birchley Garden Centre": "Birchley", "Fernleigh Nursery": "Fernleigh"}
AREAS = {
    "Oakfield Garden Centre": ["planteria", "houseplant house", "outdoor plant area", "garden furniture hall",
                               "Potting Shed Café", "gift hall", "seed and bulb aisle", "yard"],
    "Kingsmead Garden Centre": ["outdoor plant area", "Orchard Room café", "houseplant corner", "tool aisle",
                                "gift hall", "compost bay", "yard", "seed and bulb aisle"],
    "Birchley Garden Centre": ["outdoor plant area", "Birchley Kitchen café", "gift hall", "shrub beds",
                               "compost bay", "yard", "pet aisle"],
    "Fernleigh Nursery": ["glasshouse 1", "glasshouse 2", "glasshouse 3", "glasshouse 4", "glasshouse 5",
                          "polytunnel A", "polytunnel B", "polytunnel C", "polytunnel D", "dispatch shed"],
}
CALL_POINTS = {"Oakfield Garden Centre": 22, "Kingsmead Garden Centre": 18, "Birchley Garden Centre": 15,
               "Fernleigh Nursery": 12}
PESTS = ["whitefly", "aphids", "thrips", "fungus gnats", "leafhoppers"]
CROPS = ["bedding plugs", "geranium cuttings", "perennials in 9 cm pots", "herbs", "fuchsia cuttings",
         "cyclamen", "begonia plugs", "trailing lobelia", "young lavender"]
COMMENTS = [
    ("Staff helpfulness", "A customer wrote to say the plant area team helped her choose shrubs for a shady border and "
     "carried everything to the car."),
    ("Café queue", "A customer said the café queue at lunchtime on Saturday was long and asked for a second till."),
    ("Trolleys", "Two customers said some of the flatbed trolleys pull to one side. Trolleys checked and two taken out."),
    ("Plant labels", "A customer asked for bigger plant labels with the final height and spread."),
    ("Toilets", "A customer praised the clean toilets and the baby changing room."),
    ("Home delivery", "A customer thanked the delivery driver for putting the compost bags where she asked."),
    ("Parking", "A customer asked for more disabled parking spaces near the entrance."),
    ("Dog friendly", "A customer asked whether dogs are welcome in the café. Answer: yes, on a lead, outside tables."),
    ("Houseplants", "A customer asked when the next houseplant delivery arrives. Passed to the plant area team."),
    ("Music", "A customer said the background music in the gift hall was too loud. Volume turned down."),
]
DISPLAYS = ["spring bulbs in bowls", "seed potatoes and onion sets", "patio roses", "summer bedding",
            "barbecues and garden furniture", "autumn bulbs", "house plants for dark rooms", "bird care",
            "pond plants", "herbs for the kitchen window", "heathers and winter pansies", "garden tools"]
CLEAN = ["tables wiped and sanitised", "floor mopped", "cake display cleaned", "fridges wiped inside",
         "high chairs cleaned", "bins emptied", "counter and tills wiped", "windows inside cleaned"]
YARD = ["pallets stacked and banded", "compost bays swept", "empty trolleys returned", "cardboard to the baler",
        "walkways clear", "gates locked", "damaged stock moved to the write-off bay", "hose reels coiled"]
GOODS = ["bird seed", "plant pots", "compost", "bark chippings", "seed packets", "garden twine", "plant food",
         "gloves", "canes", "trowels", "greeting cards", "candles", "grit sand", "bulb fibre"]
PETTY = ["milk for the staff room", "stamps", "batteries for the price gun", "cleaning cloths", "cable ties",
         "coffee for the staff room", "string for the display", "light bulbs for the office", "marker pens",
         "cake for a leaving collection"]
# days covered by incident reports (and the follow-up days they name); routine records never fall on them
SKIP = {dt.date(2026, 2, 14), dt.date(2026, 2, 15), dt.date(2026, 4, 16), dt.date(2026, 6, 9),
        dt.date(2026, 6, 10), dt.date(2026, 6, 12), dt.date(2026, 8, 15), dt.date(2026, 8, 18)}
START = dt.date(2026, 1, 5)
END = dt.date(2026, 10, 16)


def work_day(r: random.Random) -> dt.date:
    while True:
        day = START + dt.timedelta(days=r.randint(0, (END - START).days))
        if day in SKIP or day.month == 12 or (day.month == 1 and day.day < 3):
            continue
        return day


def fire_test(r: random.Random, site: str, day: dt.date) -> str:
    cp = r.randint(1, CALL_POINTS[site])
    return (f"# Weekly fire alarm test - {site} - {day:%d %B %Y}\n\n"
            f"- Call point tested: CP{cp:02d} ({r.choice(AREAS[site])}).\n"
            f"- Sounders heard in all areas: {'yes' if r.random() < 0.9 else 'yes, quiet in the far polytunnel, noted'}.\n"
            "- Panel reset and showing normal.\n"
            f"- Test time: {r.choice(['08:30', '08:40', '08:45', '17:35'])}, outside opening hours.\n\n"
            "Entered in the fire log book by the fire warden.\n")


def trap_count(r: random.Random, site: str, day: dt.date) -> str:
    areas = r.sample([a for a in AREAS[site] if "café" not in a.lower()], 3)
    rows = "\n".join(f"| {a} | {r.choice(PESTS)} | {r.randint(0, 14)} | {r.choice(['no action', 'watch', 'biological control released'])} |"
                     for a in areas)
    return (f"# Sticky trap count - {site} - week of {day:%d %B %Y}\n\n| Area | Main pest | Count | Action |\n|---|---|---|---|\n"
            f"{rows}\n\nTraps replaced. No chemical sprays used this week.\n")


def watering(r: random.Random, site: str, day: dt.date) -> str:
    houses = r.sample([a for a in AREAS["Fernleigh Nursery"] if a != "dispatch shed"], 3)
    lines = "\n".join(f"  {h}: {r.choice(CROPS)} - {r.choice(['watered by hand', 'benches flooded', 'checked, not needed', 'spot watered'])}"
                      for h in houses)
    return (f"WATERING ROUND - FERNLEIGH NURSERY\n\nDate: {day:%A %d %B %Y}, morning round.\n{lines}\n"
            f"Vents: {r.choice(['opened on the timer', 'left closed, dull day', 'opened by hand at midday'])}.\n"
            "Signed off by the growing team.\n")


def comment(r: random.Random, site: str, day: dt.date) -> str:
    title, body = r.choice(COMMENTS)
    return f"{SHORT[site]} customer comment ({day:%d %B %Y}): {title}\n\n{body}\n"


def display(r: random.Random, site: str, day: dt.date) -> str:
    old, new = r.sample(DISPLAYS, 2)
    return (f"# Display change - {site} - {day:%d %B %Y}\n\n- Area: {r.choice(AREAS[site])}\n- Taken down: {old}\n"
            f"- Put up: {new}\n- Point of sale cards: {r.choice(['new cards printed', 'old cards reused', 'hand-written for now'])}\n")


def cafe_clean(r: random.Random, site: str, day: dt.date) -> str:
    tasks = "\n".join(f"- {t}" for t in r.sample(CLEAN, 4))
    return (f"# Café closing clean - {SHORT[site]} - {day:%d %B %Y}\n\n{tasks}\n\n"
            f"Supplies: {r.choice(['fine', 'low on napkins, ordered', 'low on paper cups, ordered', 'fine'])}.\n")


def yard_check(r: random.Random, site: str, day: dt.date) -> str:
    items = "\n".join(f"  [x] {t}" for t in r.sample(YARD, 4))
    return (f"YARD TIDY CHECK - {SHORT[site].upper()}\n\nDate: {day:%d/%m/%Y}, end of day.\n{items}\n"
            "Forklift parked in its bay, forks down, key in the key safe.\n")


def banking(r: random.Random, site: str, day: dt.date) -> str:
    notes = r.randint(3, 40) * 5
    coins = r.randint(10, 95)
    return (f"# Till banking - {site} - {day:%d %B %Y}\n\n"
            f"- Cash in notes: £{notes}\n- Coins bagged: {coins} bags\n- Card takings: settled automatically\n"
            "- Counted by two members of the till team and sealed in a bank bag.\n\n"
            "Most customers pay by card; cash is banked twice a week.\n")


def petty_cash(r: random.Random, site: str, day: dt.date) -> str:
    amount = r.randint(120, 3400) / 100
    return (f"PETTY CASH VOUCHER - {SHORT[site].upper()}\n\nDate: {day:%d/%m/%Y}\n"
            f"Item: {r.choice(PETTY)}\nAmount: £{amount:.2f}\nReceipt attached: {'yes' if r.random() < 0.85 else 'no, note explains'}\n"
            "Float topped up at the end of the month.\n")


def goods_in(r: random.Random, site: str, day: dt.date) -> str:
    items = r.sample(GOODS, 3)
    lines = "\n".join(f"| {i} | {r.randint(1, 30)} cases | {'complete' if r.random() < 0.85 else 'one case short, reported'} |"
                      for i in items)
    return (f"# Goods received - {site} - {day:%d %B %Y}\n\n| Item | Quantity | Check |\n|---|---|---|\n{lines}\n\n"
            "Delivery note signed and passed to head office for matching with the order.\n")


CENTRE_KINDS = [("fire-test", fire_test, 16, "md", SITES), ("sticky-traps", trap_count, 10, "md", SITES),
                ("watering", watering, 10, "txt", ["Fernleigh Nursery"]), ("comment", comment, 10, "md", CENTRES),
                ("display", display, 8, "md", CENTRES), ("cafe-clean", cafe_clean, 8, "md", CENTRES),
                ("yard-check", yard_check, 8, "txt", SITES)]
FINANCE_KINDS = [("banking", banking, 12, "md", CENTRES), ("petty-cash", petty_cash, 10, "txt", SITES),
                 ("goods-in", goods_in, 8, "md", SITES)]


def write(r: random.Random, out: Path, kinds, count: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    names: set[str] = set()
    plans = []
    for kind, fn, n, ext, sites in kinds:
        made = 0
        while made < n:
            site = r.choice(sites)
            day = work_day(r)
            name = f"{day:%Y-%m-%d}-{SHORT[site].lower()}-{kind}.{ext}"
            if name in names:
                continue
            names.add(name)
            plans.append((day, name, fn, site))
            made += 1
    assert len(plans) == count
    plans.sort()
    for day, name, fn, site in plans:
        (out / name).write_text(fn(r, site, day), encoding="utf-8")


def main() -> None:
    r = random.Random(SEED)
    write(r, CENTRES_OUT, CENTRE_KINDS, CENTRES_COUNT)
    write(r, FINANCE_OUT, FINANCE_KINDS, FINANCE_COUNT)
    print(f"wrote {len(list(CENTRES_OUT.glob('*')))} records to {CENTRES_OUT}")
    print(f"wrote {len(list(FINANCE_OUT.glob('*')))} records to {FINANCE_OUT}")


if __name__ == "__main__":
    main()
