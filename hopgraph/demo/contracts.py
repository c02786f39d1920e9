"""The demo corpus's supply contracts: what each says and the three pages it is printed on.
:mod:`hopgraph.demo.build` writes each as a PDF."""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------------
# Contracts (legal). Each is a three-page PDF; the clause that matters sits on a known page.
# ---------------------------------------------------------------------------------------------

CONTRACTS: list[dict[str, Any]] = [
    {
        "file": "contracts/nordlicht-supply-agreement.pdf",
        "title": "Supply Agreement - Nordlicht Components GmbH",
        "supplier": "Nordlicht Components GmbH",
        "short": "Nordlicht",
        "goods": "die-cast aluminium sensor housings (part families HX-2 and HX-3)",
        "signed": "14 January 2025",
        "lead_time": "six weeks from the date of each purchase order",
        "penalty": (
            "If the Supplier delivers after the agreed delivery date, the Supplier shall pay Tidewater a delay "
            "penalty of 1.5 percent of the value of the delayed purchase order for each full week of delay. "
            "The delay penalty is capped at 10 percent of the value of that purchase order. Tidewater may set "
            "the penalty off against the next invoice of the Supplier."
        ),
        "renewal": (
            "This Agreement runs until 31 January 2027 and then renews for successive periods of one year "
            "unless either party gives written notice of termination at least 60 days before the end of the "
            "current period."
        ),
        "liability": (
            "Each party's aggregate liability under this Agreement is limited to EUR 250,000 per contract "
            "year, except for liability for wilful misconduct or for breach of confidentiality."
        ),
    },
    {
        "file": "contracts/carrow-plastics-agreement.pdf",
        "title": "Supply Agreement - Carrow Plastics Ltd",
        "supplier": "Carrow Plastics Ltd",
        "short": "Carrow",
        "goods": "silicone gaskets and moulded cable grommets",
        "signed": "2 March 2025",
        "lead_time": "four weeks from the date of each purchase order",
        "penalty": (
            "For late delivery the Supplier owes a penalty of 2 percent of the value of the late goods per "
            "started week of delay, limited to 8 percent of that value. Penalties are paid by credit note "
            "within 30 days of Tidewater's claim."
        ),
        "renewal": (
            "The initial term ends on 1 March 2027. The Agreement then continues for an indefinite period and "
            "either party may terminate it with three months' written notice."
        ),
        "liability": (
            "Liability of either party for indirect or consequential loss is excluded. Direct liability is "
            "limited to the total fees paid in the twelve months before the claim."
        ),
    },
    {
        "file": "contracts/meridian-circuits-agreement.pdf",
        "title": "Manufacturing Agreement - Meridian Circuits Oy",
        "supplier": "Meridian Circuits Oy",
        "short": "Meridian",
        "goods": "assembled printed circuit boards for the TS-40 and TS-60 sensor lines",
        "signed": "20 March 2024",
        "lead_time": "eight weeks from the date of each purchase order",
        "penalty": (
            "Where a delivery is more than five working days late, the Supplier shall pay liquidated damages "
            "of 0.5 percent of the order value per working day of delay, up to 7.5 percent of the order value."
        ),
        "renewal": (
            "The Agreement renews automatically on 1 April of each year for a further twelve months. A party "
            "that does not wish to renew must give written notice at least 90 days before the renewal date, "
            "that is, no later than 1 January."
        ),
        "liability": (
            "The Supplier's liability for defective boards is limited to repair or replacement and, where "
            "neither is possible within 30 days, to a refund of the price of the affected boards."
        ),
    },
    {
        "file": "contracts/baltic-freight-services-agreement.pdf",
        "title": "Freight Services Agreement - Baltic Freight Services AB",
        "supplier": "Baltic Freight Services AB",
        "short": "Baltic Freight",
        "goods": "road and sea freight of finished sensors and spare parts between Gdansk, Rotterdam and Hull",
        "signed": "5 June 2025",
        "lead_time": "the transit times listed in the rate card attached to this Agreement",
        "penalty": (
            "If a consignment misses its confirmed delivery slot by more than 24 hours, the Carrier shall "
            "refund 20 percent of the freight charge for that consignment. Repeated misses entitle Tidewater "
            "to terminate this Agreement with 30 days' notice."
        ),
        "renewal": (
            "This Agreement has a fixed term of two years from signature and ends on 4 June 2027 unless the "
            "parties agree an extension in writing."
        ),
        "liability": (
            "The Carrier is liable for loss of or damage to goods in its care. Its liability is capped at "
            "EUR 40,000 per incident and EUR 120,000 per calendar year. Claims must be notified in writing "
            "within seven days of delivery."
        ),
    },
]

_GENERAL_CLAUSES = [
    ("Orders", "Tidewater places purchase orders in writing. Each purchase order states the quantity, the "
     "agreed price and the delivery date. The Supplier confirms or rejects each order within three working "
     "days; an order that is not rejected in that time counts as accepted."),
    ("Quality", "The goods shall match the specifications and drawings in Schedule 1. Tidewater inspects "
     "incoming goods within ten working days and reports visible defects in writing. Hidden defects may be "
     "reported within twelve months of delivery."),
    ("Prices and payment", "Prices are fixed for each calendar year and stated in euros, excluding VAT. "
     "Invoices are payable within 45 days of receipt. Late payments bear interest at the statutory rate."),
    ("Confidentiality", "Each party keeps the other's technical and commercial information confidential "
     "and uses it only for the purpose of this Agreement. This obligation survives the end of the Agreement "
     "by five years."),
    ("Governing law", "This Agreement is governed by the laws of England and Wales. The courts of London "
     "have exclusive jurisdiction, without prejudice to urgent relief elsewhere."),
]


def contract_pages(c: dict[str, Any]) -> list[str]:
    p1 = (
        f"{c['title']}\n\n"
        f"This Agreement is made on {c['signed']} between Tidewater Instruments Ltd, Unit 4, Quayside "
        f"Works, Hull (\"Tidewater\") and {c['supplier']} (the \"Supplier\").\n\n"
        f"1. Scope\nThe Supplier supplies {c['goods']} to Tidewater on the terms of this Agreement. Where a "
        "purchase order and this Agreement conflict, this Agreement prevails.\n\n"
        f"2. {_GENERAL_CLAUSES[0][0]}\n{_GENERAL_CLAUSES[0][1]}\n\n"
        f"3. Delivery\nUnless a purchase order says otherwise, delivery is due {c['lead_time']}. The "
        "Supplier informs Tidewater without delay as soon as it foresees that a delivery date cannot be met, "
        "stating the reason and a new date."
    )
    p2 = (
        f"4. Delay penalty\n{c['penalty']}\n\n"
        "5. Force majeure\nNeither party is responsible for a failure caused by events beyond its reasonable "
        "control, such as natural disasters, war or a general strike. The affected party notifies the other "
        "within five working days; a strike of the Supplier's own staff is not force majeure.\n\n"
        f"6. {_GENERAL_CLAUSES[1][0]}\n{_GENERAL_CLAUSES[1][1]}\n\n"
        f"7. {_GENERAL_CLAUSES[2][0]}\n{_GENERAL_CLAUSES[2][1]}\n\n"
        f"8. Liability\n{c['liability']}"
    )
    p3 = (
        f"9. Term and renewal\n{c['renewal']}\n\n"
        f"10. {_GENERAL_CLAUSES[3][0]}\n{_GENERAL_CLAUSES[3][1]}\n\n"
        f"11. {_GENERAL_CLAUSES[4][0]}\n{_GENERAL_CLAUSES[4][1]}\n\n"
        f"Signed for Tidewater Instruments Ltd: Helen Marsh, Head of Procurement.\n"
        f"Signed for {c['supplier']}: authorised representative."
    )
    return [p1, p2, p3]
