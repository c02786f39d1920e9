"""Check questions.json of the answer_dev7 set against the documents.

- every expected_files / also_relevant path exists under docs/;
- answerable questions without a calculation: each fact appears word for word in one of expected_files;
- calculation questions: each input number of the calculation appears in expected_files (as the CSV writes
  it, or with a thousands separator / pound sign / "p" for pence as prose writes it), and the arithmetic is
  right; the facts that are inputs appear word for word;
- unanswerable questions have facts [];
- no routine record holds a fact string.

    python tests/support/answer_dev7/check_facts.py
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"


def text(rel: str) -> str:
    return (DOCS / rel).read_text(encoding="utf-8")


def forms(num: str) -> list[str]:
    x = float(num)
    out = {num}
    if x == int(x):
        out |= {f"{int(x)}", f"{int(x):,}", f"{x:.2f}", f"{x:,.2f}"}
    else:
        out |= {f"{x:.2f}", f"{x:,.2f}"}
    if 0 < x < 1:
        out.add(f"{round(x * 100)}p")
    return sorted(out)


def numbers(rel: str) -> set[str]:
    """The numbers a document holds: CSV cells as written, prose numbers with separators, pounds or pence."""
    body = text(rel)
    if rel.endswith(".csv"):
        return {cell.strip() for line in body.splitlines() for cell in line.split(",")}
    found = set()
    for tok in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?p?|\d+(?:\.\d+)?p?", body):
        found.add(tok)
    return found


def present(num: str, held: set[str]) -> bool:
    return any(f in held for f in forms(num))


def main() -> int:
    qs = json.loads((HERE / "questions.json").read_text(encoding="utf-8"))
    problems: list[str] = []
    staff = [line.split(",") for line in text("people/staff-list.csv").splitlines()[1:]]
    # Practice names and job titles are meant to appear in routine records; names and figures are not.
    generic = {row[2] for row in staff} | {w for row in staff for w in row[3].split()} | {row[3] for row in staff}
    routine = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*/routine/*"))
    for q in qs:
        for rel in q["expected_files"] + q.get("also_relevant", []):
            if not (DOCS / rel).is_file():
                problems.append(f"{q['id']}: missing file {rel}")
        if q.get("answerable", True) is False:
            if q["facts"]:
                problems.append(f"{q['id']}: unanswerable but has facts")
            continue
        blob = "\n".join(text(rel) for rel in q["expected_files"] if (DOCS / rel).is_file())
        held = set().union(*(numbers(rel) for rel in q["expected_files"] if (DOCS / rel).is_file()))
        calc = q.get("calculation")
        if calc:
            lhs, rhs = calc.split("=")
            inputs = re.findall(r"\d+(?:\.\d+)?", lhs)
            for n in inputs:
                if not present(n, held) and n != "100":
                    problems.append(f"{q['id']}: calculation input {n} not in expected files")
            expr = lhs.replace("GBP", "")
            value = eval(expr)  # noqa: S307 - our own fixed strings
            result = float(re.findall(r"\d+(?:\.\d+)?", rhs)[0])
            if abs(value - result) > 0.005:
                problems.append(f"{q['id']}: {expr} = {value}, not {result}")
            for fact in q["facts"]:
                digits = fact.replace(",", "").rstrip("%")
                is_result = abs(float(digits) - result) < 0.005 if re.fullmatch(r"[\d.]+", digits) else False
                if not is_result and fact not in blob:
                    problems.append(f"{q['id']}: input fact {fact!r} not in expected files")
        else:
            for fact in q["facts"]:
                if fact not in blob:
                    problems.append(f"{q['id']}: fact {fact!r} not in expected files")
        for fact in q["facts"]:
            if fact not in generic and re.search(r"(?<![\w.,])" + re.escape(fact) + r"(?![\w]|[.,]\d)", routine):
                problems.append(f"{q['id']}: fact {fact!r} appears in a routine record")
    kinds = collections.Counter(q["kind"] for q in qs)
    docs = [p for p in DOCS.rglob("*") if p.is_file() and "routine" not in p.parts]
    noise = list(DOCS.glob("*/routine/*"))
    print(f"{len(qs)} questions, {len(docs)} documents, {len(noise)} routine records")
    for k, n in sorted(kinds.items()):
        print(f"  {n:2d}  {k}")
    for p in problems:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
