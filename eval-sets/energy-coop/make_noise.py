"""Write 120 short routine records for the energy-coop question set.

Site visit logs, volunteer rota notes and bird survey notes go to docs/sites/routine/; meter readings and newsletter
snippets go to docs/finance/routine/. They share the vocabulary of the real documents (hydros, intake screens, the
turbine, solar roofs, inverters, members, volunteers) but carry none of the facts the questions ask about: no
people's names, phone numbers, site capacities, quarterly generation, costs, invoice figures, rates, procedure steps,
licence conditions or dates of the share offer. Meter readings are spot register readings, not quarterly totals.

The output is deterministic: running the script again rewrites the same 120 files.

    python eval-sets/energy-coop/make_noise.py
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITES_OUT = HERE / "docs" / "sites" / "routine"
FINANCE_OUT = HERE / "docs" / "finance" / "routine"
COUNT = 120
SEED = 20261

HYDROS = ["Skelbeck Force Hydro", "Garth Beck Hydro"]
TURBINE = "Hawsby Moor Turbine"
ROOFS = ["Skelbeck Primary School", "Ravensett Primary School", "Hawsby Village Hall", "Yarrowby Memorial Hall",
         "Low Fellside Community Centre"]
ALL_SITES = HYDROS + [TURBINE] + ROOFS
# spot output ranges (kW) for visit logs, kept well below each site's rating
SPOT_KW = {"Skelbeck Force Hydro": (8, 70), "Garth Beck Hydro": (5, 45), TURBINE: (20, 380),
           "Skelbeck Primary School": (3, 30), "Ravensett Primary School": (2, 18), "Hawsby Village Hall": (1, 7),
           "Yarrowby Memorial Hall": (1, 6), "Low Fellside Community Centre": (1, 10)}

WEATHER = ["dry and bright", "drizzle", "heavy showers", "overcast and still", "low cloud on the tops",
           "strong westerly", "frost first thing", "sunny spells", "mild and breezy", "persistent rain"]
INTAKE = ["clear", "a few leaves on the screen, raked off", "light grass mat, cleared", "clear, eel screen checked",
          "silt building behind the weir, noted for the site lead", "clear after raking"]
POWERHOUSE = ["dry and tidy", "a little damp by the door, left the vent open", "cobwebs cleared",
              "mouse droppings by the cable duct, traps reset", "all in order"]
TURBINE_NOTES = ["tower door seal intact", "crane pad drainage running clear", "transformer kiosk locked and dry",
                 "sheep sheltering by the base, no damage", "gate chain replaced", "blade sound normal for the wind"]
ROOF_NOTES = ["panels looked clean from the ground", "bird droppings on the lower row", "display in the hall working",
              "moss in the gutter below the array, reported", "inverter fan quiet", "generation meter read and logged"]
HYDRO_BIRDS = ["dipper", "grey wagtail", "heron", "kingfisher", "common sandpiper", "goosander", "wren"]
MOOR_BIRDS = ["curlew", "lapwing", "skylark", "meadow pipit", "buzzard", "red kite", "kestrel", "raven", "golden plover"]
TASKS = {"intake checks": HYDROS, "powerhouse meter read": HYDROS, "turbine site walk": [TURBINE],
         "roof display check": ROOFS, "bird survey": HYDROS + [TURBINE], "fence and gate check": HYDROS + [TURBINE],
         "litter pick along the leat": ["Skelbeck Force Hydro"], "school session support": ROOFS[:2]}
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NEWS = [
    ("Thank you, volunteers", "Our site volunteers put in hundreds of hours this season, from raking intake screens in the "
     "rain to counting curlews on the moor. If you would like to join them, drop into the office."),
    ("Wet week, happy hydros", "The rain that spoiled the weekend did at least keep both hydros running flat out. "
     "Spare a thought for the volunteers raking the screens."),
    ("Energy saving tip", "Turn the washing machine down to 30 degrees and run it in the middle of a sunny day, "
     "when the solar roofs in the valley are at their best."),
    ("Pupils meet the panels", "Year 5 had a lesson on where electricity comes from, watching the live display from "
     "their own roof. Several now want to be engineers."),
    ("Keep your details up to date", "If you have moved house or changed your bank, please let the office know so "
     "that interest reaches you."),
    ("Turbine open afternoon", "Members and neighbours walked up the track to see the turbine up close. Thanks to the "
     "farm for the parking and to everyone who brought cake."),
    ("Birds on the moor", "The monthly surveys at the turbine keep turning up curlew and lapwing in spring. Volunteers "
     "walk a fixed route so that the counts can be compared year to year."),
    ("Members' evening", "Around forty members came to hear about the year so far and ask questions of the board. "
     "Slides are on the website."),
    ("Leaf season is coming", "From October the intake screens need weekly checks. New volunteers are welcome and "
     "will always go out with an experienced hand first."),
    ("Share news", "More news on investing in the co-op will follow in a later newsletter. Nothing to do yet."),
]


def visit_log(r: random.Random, site: str, day: dt.date) -> str:
    lo, hi = SPOT_KW[site]
    if site in ROOFS:  # less sun in winter
        hi = max(lo, round(hi * (0.4 if day.month in (1, 2, 11, 12) else 0.7 if day.month in (3, 10) else 1.0)))
    out = r.randint(lo, hi)
    lines = [f"# Site visit - {site} - {day:%d %B %Y}", "", f"Weather: {r.choice(WEATHER)}.", ""]
    if site in HYDROS:
        lines += [f"- Intake: {r.choice(INTAKE)}.",
                  f"- Gauge board at the intake: {r.randint(10, 50) / 100:.2f} m.",
                  f"- Powerhouse: {r.choice(POWERHOUSE)}.",
                  f"- Turbine running at about {out} kW when we left."]
    elif site == TURBINE:
        picks = r.sample(TURBINE_NOTES, 2)
        lines += [f"- Walked round the base clockwise: {picks[0]}; {picks[1]}.",
                  f"- SCADA display at the base showed about {out} kW.",
                  "- Both field gates shut behind us."]
    else:
        picks = r.sample(ROOF_NOTES, 2)
        lines += [f"- Checked from the ground only: {picks[0]}; {picks[1]}.",
                  f"- Inverter display showed about {out} kW at {r.randint(10, 15)}:{r.choice(['00', '15', '30', '45'])}."]
    if site in ROOFS:
        lines += ["", "Visit logged with the office. No roof access.", ""]
    else:
        lines += ["", "Lone working check-in started and closed. Site book signed.", ""]
    return "\n".join(lines)


def bird_survey(r: random.Random, site: str, day: dt.date) -> str:
    pool = MOOR_BIRDS if site == TURBINE else HYDRO_BIRDS
    if not 4 <= day.month <= 8:  # summer visitors
        pool = [b for b in pool if b not in ("common sandpiper", "golden plover")]
    seen = r.sample(pool, r.randint(3, 5))
    counts = ", ".join(f"{b} {r.randint(1, 9)}" for b in seen)
    extra = ("Carcass search round the tower: nothing found." if site == TURBINE
             else f"{r.choice(['Dipper seen feeding below the weir.', 'No sign of nesting near the intake hut.', 'Otter spraint on the tailrace wall.'])}")
    return (f"BIRD SURVEY - {site.upper()}\n\nDate: {day:%d %B %Y}. Start {r.randint(6, 9)}:{r.choice(['00', '30'])}, "
            f"duration {r.randint(60, 150)} minutes. Weather: {r.choice(WEATHER)}.\n\n"
            f"Counts: {counts}.\n{extra}\nFixed route walked as usual. Sheet filed with the survey folder.\n")


def rota_note(r: random.Random, day: dt.date) -> str:
    picks = r.sample(sorted(TASKS), 4)
    lines = "\n".join(f"- {t.capitalize()}: {r.choice(DAYS)} ({r.choice(TASKS[t])})" for t in picks)
    gap = r.choice(["cover still needed for one slot", "all slots covered", "two slots swapped, both covered",
                    "cover needed if the weather turns"])
    return (f"# Volunteer rota note - week beginning {day:%d %B %Y}\n\n{lines}\n\n"
            f"Status: {gap}. Please reply to the office rather than to everyone.\n")


def meter_reading(r: random.Random, site: str, day: dt.date, registers: dict[str, int]) -> str:
    registers[site] += r.randint(900, 9000) if site in ROOFS else r.randint(6000, 60000)
    reg = registers[site]
    return (f"# Meter reading - {site} - {day:%d %B %Y}\n\n"
            f"Generation meter register (cumulative since commissioning): {reg:07d} kWh\n"
            f"Read by: {r.choice(['site volunteer', 'office, from photo sent in', 'meter reader'])}. "
            f"Photo {'attached' if r.random() < 0.7 else 'to follow'}.\n\n"
            "Spot reading only. Quarterly figures come from the metering company's data, not from these reads.\n")


def newsletter(r: random.Random, day: dt.date) -> str:
    choices = [n for n in NEWS if day.month >= 8 or n[0] != "Leaf season is coming"]
    title, body = r.choice(choices)
    return f"Newsletter snippet ({day:%B %Y}): {title}\n\n{body}\n"


def main() -> None:
    r = random.Random(SEED)
    for out in (SITES_OUT, FINANCE_OUT):
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*"):
            old.unlink()
    registers = {s: r.randint(150000, 9000000) for s in ALL_SITES}
    start = dt.date(2026, 1, 5)
    plans = []
    names: set[str] = set()
    while len(plans) < COUNT:
        day = start + dt.timedelta(days=r.randint(0, 267))  # 5 January to 30 September 2026
        kind = r.choices(["visit", "birds", "rota", "meter", "news"], weights=[35, 15, 12, 25, 13])[0]
        site = r.choice(ALL_SITES) if kind in ("visit", "meter") else r.choice([TURBINE] + HYDROS)
        if kind == "rota":
            day -= dt.timedelta(days=day.weekday())  # rotas are for the week beginning Monday
            site = "all-sites"
        if kind == "news":
            site = "members"
        slug = site.lower().replace(" ", "-")
        ext = "txt" if kind == "birds" else "md"
        name = f"{day:%Y-%m-%d}-{slug}-{kind}.{ext}"
        if name in names:
            continue
        names.add(name)
        plans.append((day, kind, site, name))
    plans.sort()  # meter registers must rise with the date
    for day, kind, site, name in plans:
        if kind == "visit":
            text, out = visit_log(r, site, day), SITES_OUT
        elif kind == "birds":
            text, out = bird_survey(r, site, day), SITES_OUT
        elif kind == "rota":
            text, out = rota_note(r, day), SITES_OUT
        elif kind == "meter":
            text, out = meter_reading(r, site, day, registers), FINANCE_OUT
        else:
            text, out = newsletter(r, day), FINANCE_OUT
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(list(SITES_OUT.glob('*')))} records to {SITES_OUT}")
    print(f"wrote {len(list(FINANCE_OUT.glob('*')))} records to {FINANCE_OUT}")


if __name__ == "__main__":
    main()
