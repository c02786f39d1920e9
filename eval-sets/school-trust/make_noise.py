"""Write 100 short routine records for the school-trust question set.

Weekly fire alarm test logs, water temperature sheets, playground checks, hall lettings, cleaning notes and parent
newsletter snippets go to docs/schools/routine/; dinner and trip money banking slips, petty cash vouchers and
goods-received notes go to docs/finance/routine/. They share the vocabulary of the real documents (the three
schools, their towns and rooms, site managers, school offices, call points, kitchens, lettings) but carry none of the
facts the questions ask about: no people's names, phone numbers, asset numbers, invoice numbers or amounts, quarterly
costs, rates, quotes, procedure steps or temperatures used as thresholds, and no record falls on a day that an
incident report covers.

The output is deterministic: running the script again rewrites the same 100 files.

    python eval-sets/school-trust/make_noise.py
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCHOOLS_OUT = HERE / "docs" / "schools" / "routine"
FINANCE_OUT = HERE / "docs" / "finance" / "routine"
SCHOOLS_COUNT = 70
FINANCE_COUNT = 30
SEED = 20262

SCHOOLS = ["Thornhaugh Primary Academy", "Saltergate Primary Academy", "Ridgemoor Academy"]
SHORT = {"Thornhaugh Primary Academy": "Thornhaugh", "Saltergate Primary Academy": "Saltergate",
         "Ridgemoor Academy": "Ridgemoor"}
ROOMS = {
    "Thornhaugh Primary Academy": ["Reception classroom", "Year 1 classroom", "Year 2 classroom", "Year 5 classroom",
                                   "hall", "library corner", "junior wing corridor", "staff room", "main office"],
    "Saltergate Primary Academy": ["Reception classroom", "Year 3 classroom", "Year 4 classroom", "KS2 hall",
                                   "KS2 block corridor", "nursery room", "staff room", "main office"],
    "Ridgemoor Academy": ["lab S1", "lab S2", "workshop T2", "art room A2", "sports hall", "library", "canteen",
                          "main reception", "music room M1", "humanities corridor"],
}
CALL_POINTS = {"Thornhaugh Primary Academy": 9, "Saltergate Primary Academy": 8, "Ridgemoor Academy": 34}
OUTLETS = {
    "Thornhaugh Primary Academy": ["kitchen sink", "staff room tap", "Reception toilets basin", "junior wing basin"],
    "Saltergate Primary Academy": ["kitchen sink", "KS2 toilets basin", "nursery basin", "staff toilet basin"],
    "Ridgemoor Academy": ["canteen sink", "sports hall shower 3", "science block basin", "first floor cleaners' sink"],
}
PLAY = {
    "Thornhaugh Primary Academy": ["trim trail", "junior playground markings", "infant playground", "field"],
    "Saltergate Primary Academy": ["climbing frame", "infant playground", "field", "nursery garden toys"],
    "Ridgemoor Academy": ["tennis courts", "field", "outdoor gym bars", "courtyard benches"],
}
GROUPS = ["Marlby Judo Club", "Wexcombe Community Choir", "Fellbridge Junior Netball", "Vale Brownies",
          "Saturday Drama Workshop", "Fellbridge Table Tennis Club", "Marlby Slimming Group", "Wexcombe Parish Council",
          "Quarry Road Residents' Association", "Little Movers toddler group"]
CLEAN = ["floors mopped", "bins emptied", "toilets deep cleaned", "windows inside cleaned", "chairs stacked",
         "carpets vacuumed", "door handles wiped", "kitchen floor scrubbed", "skirting boards dusted"]
NEWS = [
    ("Lost property", "The lost property box is overflowing. Please name every item of uniform; unnamed items go to "
     "the nearly-new sale at the end of term."),
    ("Reading at home", "Thank you to everyone who has been reading with their children. A few minutes every day makes "
     "a real difference."),
    ("Parking", "Please do not park on the zig-zag lines outside school or across neighbours' drives at drop-off and "
     "pick-up."),
    ("Sports results", "Well done to our teams who played in the local schools' tournament this week. Results are on "
     "the noticeboard in the hall."),
    ("Coats and wellies", "The weather is turning. Please send children in with a coat every day, as we go outside "
     "whatever the weather."),
    ("Attendance", "Every day counts. If your child is unwell, please ring the school office before the start of the "
     "school day."),
    ("Library books", "Library books are changed on Fridays. Please help your child remember to bring theirs back."),
    ("Harvest collection", "Thank you for the tins and packets for the harvest collection. Everything has gone to the "
     "food bank."),
    ("Summer fair", "The friends of the school are looking for helpers for the summer fair. Sign up at the office."),
    ("Water bottles", "Please send a named water bottle with water only. Bottles can be refilled in class."),
]
GOODS = ["exercise books", "printer paper", "whiteboard pens", "PE bibs", "glue sticks", "laminating pouches",
         "hand towels", "toilet rolls", "paint pots", "science goggles", "reading books", "playground chalk"]
PETTY = ["milk for the staff room", "stamps", "batteries for the hall clock", "cake ingredients for cookery club",
         "seeds for the garden club", "picture hooks", "light bulbs for the office lamp", "sellotape",
         "ice packs", "prizes for the spelling bee"]
# days covered by incident reports (and the follow-up visit days they name); routine records never fall on them
SKIP = {dt.date(2026, 1, 19), dt.date(2026, 1, 20), dt.date(2026, 3, 11), dt.date(2026, 5, 21),
        dt.date(2026, 6, 2), dt.date(2026, 6, 4), dt.date(2026, 6, 8)}
START = dt.date(2025, 9, 3)
END = dt.date(2026, 7, 17)
HOLIDAYS = [(dt.date(2025, 10, 27), dt.date(2025, 10, 31)), (dt.date(2025, 12, 22), dt.date(2026, 1, 2)),
            (dt.date(2026, 2, 16), dt.date(2026, 2, 20)), (dt.date(2026, 3, 30), dt.date(2026, 4, 10)),
            (dt.date(2026, 5, 25), dt.date(2026, 5, 29))]


def school_day(r: random.Random) -> dt.date:
    while True:
        day = START + dt.timedelta(days=r.randint(0, (END - START).days))
        if day.weekday() >= 5 or day in SKIP or any(a <= day <= b for a, b in HOLIDAYS):
            continue
        return day


def temp(r: random.Random, lo: int, hi: int) -> int:
    while True:
        t = r.randint(lo, hi)
        if t not in (15, 20):
            return t


def fire_test(r: random.Random, school: str, day: dt.date) -> str:
    cp = r.randint(1, CALL_POINTS[school])
    return (f"# Weekly fire alarm test - {school} - {day:%d %B %Y}\n\n"
            f"- Call point tested: CP{cp:02d} ({r.choice(ROOMS[school])}).\n"
            f"- Sounders heard in all areas: {'yes' if r.random() < 0.9 else 'yes, faint in the far store, noted'}.\n"
            f"- Panel reset and showing normal.\n"
            f"- Test time: {r.choice(['07:45', '07:50', '08:00', '15:30', '16:00'])}, before or after the school day.\n\n"
            "Entered in the fire log book by the site manager.\n")


def water_sheet(r: random.Random, school: str, day: dt.date) -> str:
    rows = "\n".join(f"| {o} | {temp(r, 51, 58)} | {temp(r, 9, 14) if day.month in (11, 12, 1, 2, 3) else temp(r, 12, 19)} |"
                     for o in OUTLETS[school])
    return (f"# Monthly water temperature check - {school} - {day:%B %Y}\n\nChecked {day:%d %B %Y} by the site team.\n\n"
            f"| Sentinel outlet | Hot °C | Cold °C |\n|---|---|---|\n{rows}\n\nAll readings within the policy limits. "
            "Little-used outlets flushed.\n")


def play_check(r: random.Random, school: str, day: dt.date) -> str:
    items = r.sample(PLAY[school], 3)
    notes = [r.choice(["ok", "ok, some litter picked up", "ok, wet", "ok, leaves swept",
                       "ok, one loose bolt tightened"]) for _ in items]
    lines = "\n".join(f"  {i}: {n}" for i, n in zip(items, notes, strict=True))
    return (f"DAILY OUTDOOR CHECK - {SHORT[school].upper()}\n\nDate: {day:%A %d %B %Y}, before the children arrived.\n"
            f"{lines}\nGates: all shut and latched after the morning drop-off.\nSigned off by the site team.\n")


def letting(r: random.Random, school: str, day: dt.date) -> str:
    group = r.choice(GROUPS)
    start = r.choice(["17:30", "18:00", "18:30", "19:00"])
    room = "sports hall" if school == "Ridgemoor Academy" else ("KS2 hall" if "Saltergate" in school else "hall")
    return (f"# Letting record - {school} - {day:%d %B %Y}\n\n"
            f"- Group: {group}\n- Room: {room}\n- Booked from {start} for {r.choice([1, 2, 2, 3])} hours\n"
            f"- Keyholder on duty: site team\n- Condition after use: {r.choice(['tidy', 'tidy, chairs stacked', 'floor needed a sweep', 'tidy, heating left off'])}\n\n"
            "Booking made through the school business manager. No incidents.\n")


def cleaning(r: random.Random, school: str, day: dt.date) -> str:
    rooms = r.sample(ROOMS[school], 3)
    tasks = "\n".join(f"- {room}: {', '.join(r.sample(CLEAN, 2))}" for room in rooms)
    return (f"# Cleaning log - {SHORT[school]} - {day:%d %B %Y}\n\n{tasks}\n\n"
            f"Supplies: {r.choice(['fine', 'low on blue roll, ordered', 'low on hand soap, ordered', 'fine'])}.\n")


def newsletter(r: random.Random, school: str, day: dt.date) -> str:
    title, body = r.choice(NEWS)
    return f"{SHORT[school]} newsletter snippet ({day:%B %Y}): {title}\n\n{body}\n"


def banking(r: random.Random, school: str, day: dt.date) -> str:
    cash = r.randint(3, 60) + r.choice([0, 0.5])
    cheques = r.randint(0, 3)
    return (f"# Banking slip - {school} - {day:%d %B %Y}\n\n"
            f"- Purpose: {r.choice(['dinner money top-ups paid in cash', 'trip contributions paid in cash', 'uniform shop cash', 'book fair cash'])}\n"
            f"- Cash counted: £{cash:.2f}\n- Cheques: {cheques}\n"
            "- Counted by two members of the office team and taken to the bank in a sealed bag.\n\n"
            "Most payments now arrive through the online payment system, not in cash.\n")


def petty_cash(r: random.Random, school: str, day: dt.date) -> str:
    amount = r.randint(150, 3800) / 100
    return (f"PETTY CASH VOUCHER - {SHORT[school].upper()}\n\nDate: {day:%d/%m/%Y}\n"
            f"Item: {r.choice(PETTY)}\nAmount: £{amount:.2f}\nReceipt attached: {'yes' if r.random() < 0.85 else 'no, note explains'}\n"
            "Float topped up at the end of the month.\n")


def boxes(n: int) -> str:
    return "1 box" if n == 1 else f"{n} boxes"


def goods_in(r: random.Random, school: str, day: dt.date) -> str:
    items = r.sample(GOODS, 3)
    lines = "\n".join(f"| {i} | {boxes(r.randint(1, 12))} | {'complete' if r.random() < 0.85 else 'one box short, reported'} |"
                      for i in items)
    return (f"# Goods received - {school} - {day:%d %B %Y}\n\n| Item | Quantity | Check |\n|---|---|---|\n{lines}\n\n"
            "Delivery note signed and passed to the office for matching with the order.\n")


SCHOOL_KINDS = [("fire-test", fire_test, 18, "md"), ("water-check", water_sheet, 10, "md"),
                ("outdoor-check", play_check, 12, "txt"), ("letting", letting, 10, "md"),
                ("cleaning", cleaning, 12, "md"), ("newsletter", newsletter, 8, "md")]
FINANCE_KINDS = [("banking", banking, 12, "md"), ("petty-cash", petty_cash, 10, "txt"), ("goods-in", goods_in, 8, "md")]


def write(r: random.Random, out: Path, kinds, count: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    names: set[str] = set()
    plans = []
    for kind, fn, n, ext in kinds:
        made = 0
        while made < n:
            school = r.choice(SCHOOLS)
            day = school_day(r)
            name = f"{day:%Y-%m-%d}-{SHORT[school].lower()}-{kind}.{ext}"
            if name in names:
                continue
            names.add(name)
            plans.append((day, name, fn, school))
            made += 1
    assert len(plans) == count
    plans.sort()
    for day, name, fn, school in plans:
        (out / name).write_text(fn(r, school, day), encoding="utf-8")


def main() -> None:
    r = random.Random(SEED)
    write(r, SCHOOLS_OUT, SCHOOL_KINDS, SCHOOLS_COUNT)
    write(r, FINANCE_OUT, FINANCE_KINDS, FINANCE_COUNT)
    print(f"wrote {len(list(SCHOOLS_OUT.glob('*')))} records to {SCHOOLS_OUT}")
    print(f"wrote {len(list(FINANCE_OUT.glob('*')))} records to {FINANCE_OUT}")


if __name__ == "__main__":
    main()
