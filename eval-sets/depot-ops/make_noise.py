"""Write 150 short routine depot reports into docs/ops/reports/.

The reports are background text for the depot-ops question set: they use the same vocabulary as the real
documents (depots, vans, buses, duty managers, yards, rounds) but carry none of the facts the questions
ask about (no names, towns, costs, charger figures, opening hours or procedures). The output is
deterministic: running the script again rewrites the same 150 files.

    python eval-sets/depot-ops/make_noise.py
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "docs" / "ops" / "reports"
COUNT = 150
SEED = 20260

DEPOTS = ["Ashby Road", "Quay Lane", "Station Yard"]
WEATHER = ["dry and bright", "light rain", "heavy rain in the early morning", "overcast", "fog until mid-morning",
           "strong wind", "frost on the walkways", "mild and dry", "showers", "low sun in the afternoon"]
YARD = ["clear", "puddles by the wash bay", "leaves on the north side", "tidy", "some litter by the fence, cleared",
        "gravel washed onto the access road, swept", "clear after sweeping"]
LIGHTS = ["all yard lights working", "one lamp by the gate flickering, reported to facilities",
          "all working after the timer was reset", "all working"]
BINS = ["general waste bin emptied", "recycling collected", "cardboard cage full, collection requested",
        "bins emptied on schedule"]
LOST = ["umbrella", "child's glove", "phone charger", "reading glasses", "scarf", "shopping bag", "library book",
        "water bottle", "bus pass wallet", "house keys", "woolly hat", "headphones", "travel mug"]
COMMENTS = ["friendly driver", "bus running a few minutes early", "heating too warm", "clean seats",
            "help with a pushchair", "timetable at the stop faded", "bell not heard at the back",
            "smooth driving", "window would not close"]
NOTICES = ["canteen opening hours over the bank holiday", "new lockers in the drivers' room",
           "car park relining on Saturday", "charity bake sale on Friday", "uniform orders due this month",
           "eye test vouchers available from the office", "cycle shelter repairs", "kettle replaced in the mess room"]
STOPS = ["Chapel Street", "Market Place", "Hospital Gates", "Library", "Leisure Centre", "Church Lane", "Park Road",
         "Retail Park", "School Lane", "Harbour View", "Station Forecourt", "Mill Green"]


def yard_report(r: random.Random, depot: str, day: dt.date) -> str:
    return (f"# Yard report - {depot} - {day:%d %B %Y}\n\n"
            f"Weather: {r.choice(WEATHER)}. Yard: {r.choice(YARD)}.\n\n"
            f"- Morning departures left on time; {r.randint(0, 3)} left a few minutes late because of traffic at the gate.\n"
            f"- {r.randint(4, 19)} vehicles went through the wash bay.\n"
            f"- {r.choice(BINS).capitalize()}.\n"
            f"- Lighting: {r.choice(LIGHTS)}.\n\n"
            "Signed off by the duty manager at the end of the late shift.\n")


def cleaning_log(r: random.Random, depot: str, day: dt.date) -> str:
    return (f"# Interior cleaning log - {depot} - week ending {day:%d %B %Y}\n\n"
            f"Buses deep-cleaned: {r.randint(2, 9)}. Minibuses deep-cleaned: {r.randint(0, 4)}. "
            f"Vans valeted: {r.randint(0, 6)}.\n\n"
            f"Seat covers replaced: {r.randint(0, 12)}. Chewing gum removed from {r.randint(0, 5)} vehicles.\n"
            "The cleaning contractor's supervisor walked the yard with the duty manager on Friday; no issues raised.\n")


def lost_property(r: random.Random, depot: str, day: dt.date) -> str:
    items = r.sample(LOST, r.randint(2, 5))
    lines = "\n".join(f"- {item}: {r.choice(['kept in the depot office', 'sent to customer services', 'collected by the owner'])}"
                      for item in items)
    return (f"# Lost property handed in at {depot} - {day:%d %B %Y}\n\n{lines}\n\n"
            "Items not collected within one month go to charity.\n")


def fire_alarm_test(r: random.Random, depot: str, day: dt.date) -> str:
    return (f"FIRE ALARM TEST - {depot.upper()} DEPOT\n\n"
            f"Date: {day:%d %B %Y}. Call point used: {r.randint(1, 9)}. Time: {r.randint(9, 11)}:{r.choice(['00', '15', '30', '45'])}.\n"
            f"All sounders heard in the workshop, the yard and the drivers' room. Magnetic doors released.\n"
            f"Result: {r.choice(['pass', 'pass', 'pass - one sounder quiet, reported to the alarm company'])}.\n"
            "Tested by the duty manager.\n")


def first_aid_check(r: random.Random, depot: str, day: dt.date) -> str:
    restock = r.sample(["plasters", "eye wash", "gloves", "burn gel", "bandages", "wipes"], r.randint(0, 3))
    what = ", ".join(restock) if restock else "nothing"
    return (f"# First aid box check - {depot} - {day:%d %B %Y}\n\n"
            f"Boxes checked: depot office, workshop, drivers' room and {r.randint(3, 12)} vehicle kits picked at random.\n"
            f"Restocked: {what}. Accident book reviewed by the depot manager; no new entries needing follow-up.\n")


def customer_comments(r: random.Random, depot: str, day: dt.date) -> str:
    picks = r.sample(COMMENTS, 3)
    return (f"# Customer comments for services from {depot} - week ending {day:%d %B %Y}\n\n"
            f"Compliments: {r.randint(1, 9)}. Complaints: {r.randint(0, 6)}. Suggestions: {r.randint(0, 3)}.\n\n"
            f"Themes this week: {picks[0]}; {picks[1]}; {picks[2]}.\n"
            "Each complaint was answered by customer services within five working days.\n")


def parcel_round(r: random.Random, depot: str, day: dt.date) -> str:
    return (f"# Parcel rounds summary - {day:%d %B %Y}\n\n"
            f"Drops made: {r.randint(240, 420)}. Calling cards left: {r.randint(3, 25)}. "
            f"Parcels returned to the depot: {r.randint(0, 9)}.\n"
            f"All vans were back in the yard before the evening handover. {r.choice(['No damage reported.', 'One scuffed parcel noted.', 'One customer asked for a safe-place note.'])}\n"
            "Summary checked by the duty manager.\n")


def stop_inspection(r: random.Random, depot: str, day: dt.date) -> str:
    stops = r.sample(STOPS, 3)
    return (f"STOP INSPECTION - stops served from {depot}\n\n"
            f"Date: {day:%d %B %Y}.\n"
            f"{stops[0]}: timetable case cleaned. {stops[1]}: shelter glass {r.choice(['intact', 'cracked, reported to the council'])}. "
            f"{stops[2]}: pole flag {r.choice(['in good order', 'faded, replacement ordered'])}.\n")


def noticeboard(r: random.Random, depot: str, day: dt.date) -> str:
    notes = r.sample(NOTICES, 2)
    return (f"# Noticeboard update - {depot} - {day:%d %B %Y}\n\n"
            f"- {notes[0].capitalize()}.\n- {notes[1].capitalize()}.\n\n"
            "Questions to the depot manager or the office.\n")


KINDS = [("yard-report", "md", yard_report), ("cleaning-log", "md", cleaning_log), ("lost-property", "md", lost_property),
         ("fire-alarm-test", "txt", fire_alarm_test), ("first-aid-check", "md", first_aid_check),
         ("customer-comments", "md", customer_comments), ("stop-inspection", "txt", stop_inspection),
         ("noticeboard", "md", noticeboard)]


def main() -> None:
    r = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*"):
        old.unlink()
    start = dt.date(2026, 1, 5)
    made = 0
    names: set[str] = set()
    while made < COUNT:
        day = start + dt.timedelta(days=r.randint(0, 298))
        if r.random() < 0.12:
            depot, kind, ext, fn = "Quay Lane", "parcel-rounds", "md", parcel_round
        else:
            depot = r.choice(DEPOTS)
            kind, ext, fn = r.choice(KINDS)
        if kind == "parcel-rounds" and day.weekday() >= 5:
            day -= dt.timedelta(days=day.weekday() - 4)  # parcel rounds run on weekdays only
        if depot == "Quay Lane" and day.weekday() == 6:
            day -= dt.timedelta(days=1)  # the Quay Lane yard is closed on Sundays
        name = f"{day:%Y-%m-%d}-{depot.lower().replace(' ', '-')}-{kind}.{ext}"
        if name in names:
            continue
        names.add(name)
        (OUT / name).write_text(fn(r, depot, day), encoding="utf-8")
        made += 1
    print(f"wrote {made} reports to {OUT}")


if __name__ == "__main__":
    main()
