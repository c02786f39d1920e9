"""A cost the question asks for without naming its unit: a rate times a number of that unit, found by what they say.

"What did the agency porters we brought in for the east wing in May cost us?" names no hours, yet the minutes
say "In May Lena booked 52 hours of agency porter cover for the east wing" and the rates memo "Agency porters from
Northgate Staffing: £19.40 an hour": 52 × £19.40, computed with run_python. The April invoice for 30 hours of the
same cover is another month's and is left out. "What will the replacement van we hired in October end up costing?"
(or "What should that bill come to?") finds the days in the paragraph about the van ("off the road for 4 working
days") and the daily rate in the memo's paragraph on vehicle hire. A folder written here is ingested into the
default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.folders import Folder, ask, ingested, write_files

MINUTES = """# Ward managers' meeting, 12 June 2026

## 1. Porters

Two of the east wing's porters left in April. In May Lena booked 52 hours of agency porter cover for the east wing
from Northgate Staffing, and our own bank porters covered a further 20 hours.

## 2. Transport

The patient transport van failed its brake test on Monday 5 October. It was off the road for 4 working days while
Dale Motors replaced the brake lines, and Omar hired a replacement van from Kerrow Vehicle Hire at the usual daily
rate.
"""
MEMO = """# Memo: rates for agency cover and vehicle hire

- **Agency porters** from Northgate Staffing: £19.40 an hour, all hours including nights.
- **Agency cleaners** from Brightclean: £16.10 an hour.

## Vehicle hire

When the patient transport van is off the road, hire a replacement van from Kerrow Vehicle Hire at £95.00 a day.
Our own driver drives the hired van.
"""
INVOICES = """invoice_no,supplier,ward,description,amount_gbp,status
NS-1101,Northgate Staffing,East wing,Agency porter cover April (30 hours),582.00,Paid
DM-0410,Dale Motors,All,Patient transport van brake lines,412.00,Outstanding
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("hospital"), {
        "ops/minutes-2026-06-12.md": MINUTES, "finance/cover-rates-memo.md": MEMO,
        "finance/invoices-2026.csv": INVOICES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_hours_in_the_minutes_times_the_hourly_rate(folder: Folder) -> None:
    question = "What did the agency porters we brought in for the east wing in May cost us?"
    answer = str(ask(folder, question)["answer"])
    assert "1,008.80" in answer and "52" in answer and "19.40" in answer, answer
    assert "582" not in answer, answer  # the April invoice is another month's


def test_days_in_the_paragraph_times_the_daily_rate(folder: Folder) -> None:
    answer = str(ask(folder, "What will the replacement van we hired in October end up costing?")["answer"])
    assert "380" in answer and "95.00" in answer, answer


def test_what_should_the_bill_come_to(folder: Folder) -> None:
    # "What should ... come to?" asks for a cost as "What will ... cost?" does.
    question = ("Kerrow still haven't billed us for the van we hired while ours had its brakes done. What should that "
                "bill come to?")
    answer = str(ask(folder, question)["answer"])
    assert "380" in answer and "95.00" in answer, answer
