"""The demo corpus's spreadsheets as rows, header first: purchase orders, the budget, the supplier scorecard and
the invoices. :mod:`hopgraph.demo.build` writes them as CSV files and PDF prints of sheets; the documents' text
is in :mod:`hopgraph.demo.content`."""

from __future__ import annotations

ORDERS_HEADER = ["PO", "Supplier", "Item", "Quantity", "Value EUR", "Due date", "Delivered"]
ORDERS_ROWS = [
    ["PO-4452", "Carrow Plastics Ltd", "Gasket G-12", "5,000", "6,250", "2026-08-20", "2026-08-18"],
    ["PO-4460", "Meridian Circuits Oy", "PCB TS-40 rev C", "800", "31,600", "2026-09-01", "2026-08-29"],
    ["PO-4465", "Ostrava Optics s.r.o.", "Lens window L-6", "1,500", "4,950", "2026-09-05", "2026-09-05"],
    ["PO-4471", "Nordlicht Components GmbH", "Housing HX-3", "1,200", "48,200", "2026-09-12", "2026-10-03"],
    ["PO-4478", "Meridian Circuits Oy", "PCB TS-60 rev A", "500", "27,500", "2026-09-30", "2026-09-28"],
    ["PO-4483", "Carrow Plastics Ltd", "Grommet C-4", "8,000", "2,400", "2026-10-02", "2026-10-01"],
    ["PO-4490", "Nordlicht Components GmbH", "Housing HX-2", "600", "19,800", "2026-10-20", "2026-10-19"],
    ["PO-4494", "Baltic Freight Services AB", "Freight Hull-Rotterdam", "1", "3,150", "2026-10-17", "2026-10-20"],
]

BUDGET_HEADER = ["Cost centre", "Budget 2026 EUR", "Actual to Sep EUR", "Forecast EUR", "Owner"]
BUDGET_ROWS = [
    ["Materials", "1,450,000", "1,152,000", "1,537,000", "Helen Marsh"],
    ["Freight", "180,000", "131,500", "178,000", "Daniel Osei"],
    ["Firmware team", "620,000", "461,000", "615,000", "Jonas Berg"],
    ["Platform Reliability", "540,000", "409,000", "548,000", "Priya Raman"],
    ["Field Operations", "380,000", "297,000", "392,000", "Sam Whitley"],
]

SCORECARD = [
    ["Supplier", "Category", "On-time rate Q3", "Quality score", "Contact"],
    ["Nordlicht Components GmbH", "Housings", "71%", "4.5", "Katrin Vogel"],
    ["Carrow Plastics Ltd", "Gaskets and grommets", "98%", "4.2", "Owen Pryce"],
    ["Meridian Circuits Oy", "Circuit boards (PCB)", "96%", "4.8", "Mikko Laine"],
    ["Ostrava Optics s.r.o.", "Lens windows", "100%", "4.0", "Jana Dvorak"],
    ["Baltic Freight Services AB", "Freight", "88%", "3.6", "Erik Sandberg"],
]

INVOICES = [
    ["Invoice", "Supplier", "PO", "Amount EUR", "Received", "Status"],
    ["NC-2026-311", "Nordlicht Components GmbH", "PO-4471", "48,200", "2026-10-05", "On hold"],
    ["MC-88120", "Meridian Circuits Oy", "PO-4460", "31,600", "2026-09-02", "Paid"],
    ["CP-5521", "Carrow Plastics Ltd", "PO-4452", "6,250", "2026-08-21", "Paid"],
    ["OO-0977", "Ostrava Optics s.r.o.", "PO-4465", "4,950", "2026-09-08", "Paid"],
    ["BF-20931", "Baltic Freight Services AB", "PO-4494", "3,150", "2026-10-22", "Disputed"],
]
