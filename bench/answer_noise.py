"""Answer mode with hundreds of unrelated documents added: is the right answer displaced?

Copies the folder tests/support/answer_dev (bakeries, vans, ovens, flour) to a temporary folder, adds N generated
reports that share its vocabulary (sites, managers, addresses, vans, ovens, deliveries, quarters) but not its facts,
and runs ``hopgraph eval --mode answer`` on the folder's questions for each N. Prints one row per N: contained,
citation precision, not-found correctness, false not-found, p50 ms.

    python bench/answer_noise.py [--noise 0 100 400] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "tests" / "support" / "answer_dev"

_PLACES = ["Ashby", "Brackley", "Corwen", "Dunmore", "Elstow", "Fairlie", "Glenrith", "Harlow Cross", "Ilkley Moor",
           "Jarrow", "Kelso", "Lydford", "Marlow", "Nairn", "Oakham", "Penrith", "Quorn", "Rydal", "Selby", "Thirsk"]
_PEOPLE = ["Alex Morgan", "Bea Lindqvist", "Chen Wei", "Dara Walsh", "Eli Navarro", "Femi Adeyemi", "Gita Rao",
           "Hugo Brandt", "Iris Kovac", "Jon Ellis", "Kira Sato", "Leo Marsh", "Mina Yilmaz", "Nils Berg",
           "Olga Petrov", "Pavel Novak", "Rosa Diaz", "Sami Haddad", "Tara Quinn", "Umar Sheikh"]
_KINDS = ["kiosk", "depot", "warehouse", "café", "store", "workshop"]
_STREETS = ["Mill Lane", "High Street", "Station Road", "Church Walk", "Market Place", "Bridge Street"]


def noise_document(i: int, rng: random.Random) -> str:
    """A short report about a made-up site: a manager, an address, vans, ovens, a quarter's figures."""
    place, kind = rng.choice(_PLACES), rng.choice(_KINDS)
    person, other = rng.sample(_PEOPLE, 2)
    return (
        f"# Weekly report {i}: {place} {kind}\n\n"
        f"The {place} {kind} is at {rng.randint(1, 90)} {rng.choice(_STREETS)}, {rng.choice(_PLACES)}. Its manager "
        f"is {person}; {other} covers the late shift.\n\n"
        f"Deliveries: {rng.randint(2, 9)} vans called this week, {rng.randint(0, 3)} of them late because of road "
        f"works. The oven line ran {rng.randint(20, 60)} hours and used {rng.randint(100, 900)} kWh. Sales in "
        f"Q{rng.randint(1, 4)} were {rng.randint(2, 40)} percent above the plan.\n"
    )


def build(root: Path, noise: int, seed: int) -> Path:
    folder = root / f"noise-{noise}"
    shutil.copytree(FOLDER, folder)
    rng = random.Random(seed)
    reports = folder / "docs" / "ops" / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    for i in range(noise):
        (reports / f"report-{i:04d}.md").write_text(noise_document(i, rng), encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--noise", type=int, nargs="+", default=[0, 100, 400])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    from hopgraph.evals.answer_runner import AnswerEvalOptions, evaluate_answers

    print("| added reports | contained | cite P | not-found ok | false not-found | p50 ms |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="hopgraph-answer-noise-") as tmp:
        for n in args.noise:
            folder = build(Path(tmp), n, args.seed)
            m = evaluate_answers(AnswerEvalOptions(data=str(folder), progress=False))["systems"]["builtin"]
            cells = ["n/a" if m[k] is None else f"{m[k]:.3f}"
                     for k in ("containment", "citation_precision", "not_found_correct", "false_not_found")]
            print(f"| {n} | {' | '.join(cells)} | {m['latency_ms_p50']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
