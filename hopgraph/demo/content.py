"""What the demo corpus says: the incident reports, data sheet, notes and memos of Tidewater Instruments, a
fictional maker of environmental sensors. :mod:`hopgraph.demo.build` writes them as files; the contracts are in
:mod:`hopgraph.demo.contracts`, the spreadsheets in :mod:`hopgraph.demo.tables`."""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# Operations (default container)
# ---------------------------------------------------------------------------------------------

TEXT_FILES: dict[str, str] = {}

TEXT_FILES["default/incidents/INC-2026-019-cold-store-alarm.md"] = """\
# INC-2026-019: Cold store temperature alarm at Quayside Works

Date: 18 July 2026. Severity: minor. Status: closed.

The temperature alarm of cold store B sounded at 02:40 when the reading rose to 9 degrees Celsius. The night
shift moved the calibration gas cylinders to cold store A within twenty minutes. The cause was a door seal
that had come loose after a forklift knocked the frame. Facilities replaced the seal the same morning.

No stock was lost. Action: the forklift route past cold store B now has a painted keep-out zone.
"""

TEXT_FILES["default/incidents/INC-2026-024-telemetry-gateway-outage.md"] = """# INC-2026-024: Telemetry gateway outage

Date: 6 August 2026. Severity: major. Status: closed.

Between 13:05 and 15:50 the telemetry gateway rejected uploads from all field sensors, so customer
dashboards showed no new readings for almost three hours. The on-call engineer was Priya Raman. She traced
the outage to an expired TLS certificate on the gateway's load balancer and renewed it by hand at 15:42.

Root cause: the certificate renewal job had been disabled during the July maintenance window and was never
switched back on. Actions: the renewal job is now monitored, and certificates that expire within 21 days
raise a warning in the operations channel. Sensors buffered their readings, so no data was lost.
"""

TEXT_FILES["default/incidents/INC-2026-027-harbour-road-sensor-drift.md"] = """\
# INC-2026-027: Humidity drift at the Harbour Road site

Date: 2 September 2026. Severity: moderate. Status: resolved by software release.

Twelve TS-40 sensors at the Harbour Road monitoring site reported relative humidity values that climbed by
about 4 points per week although reference hygrometers showed stable air. The field team ruled out
condensation in the housings. Engineering reproduced the effect in the lab: the firmware applied the
temperature compensation twice after a sensor woke from deep sleep.

The defect was logged as BUG-882. Until the fix shipped, the site was switched to hourly wake-ups, which
slowed the drift. The customer, Hull Port Authority, was informed on 4 September.
"""

TEXT_FILES["default/incidents/INC-2026-033-damaged-shipment.md"] = """\
# INC-2026-033: Pallet damaged in transit to Rotterdam

Date: 21 October 2026. Severity: moderate. Status: claim open.

A pallet of 60 TS-60 sensors left Hull on 17 October for a distributor in Rotterdam. The shipment was
handled by Baltic Freight Services. On arrival the pallet had been crushed on one side and 14 units had
cracked enclosures. The distributor photographed the damage and refused those units.

Logistics notified the carrier in writing on 22 October, within the claim window. The value of the
damaged units is EUR 9,380 at list price. Replacement units were sent by express courier on 24 October.
"""

TEXT_FILES["default/releases/release-notes-4.2.0.md"] = """# Sensor firmware 4.2.0 - release notes

Firmware 4.2.0 was released on 19 August 2026.

- New: configurable wake-up interval from 5 minutes to 24 hours.
- New: the TS-60 reports its battery voltage with every reading.
- Changed: uploads retry with exponential back-off when the telemetry gateway is unreachable.
- Fixed: BUG-851, the clock of the TS-40 could lag by several seconds per day after a battery change.
"""

TEXT_FILES["default/releases/release-notes-4.2.1.md"] = """# Sensor firmware 4.2.1 - release notes

Firmware 4.2.1 was released on 14 October 2026 as a maintenance release.

- Fixed: BUG-882, humidity readings drifted upwards after wake-up from deep sleep because the temperature
  compensation was applied twice. Sensors correct their readings automatically after the update.
- Fixed: BUG-879, the status LED stayed on after pairing.
- Known issue: the first reading after the update may be skipped.
"""

TEXT_FILES["default/releases/release-notes-4.3.0.md"] = """# Sensor firmware 4.3.0 - release notes

Firmware 4.3.0 was released on 11 November 2026.

- New: over-the-air updates can be scheduled per site.
- New: CO2 channel for the TS-60 with the optional gas module.
- Changed: the minimum supported gateway version is now 2.8.
- Fixed: BUG-894, sensors in very cold rooms reported the battery as empty too early.
"""

TEXT_FILES["default/incidents/INC-2026-029-label-printer.md"] = """\
# INC-2026-029: Shipping labels printed with the wrong address

Date: 9 September 2026. Severity: minor. Status: closed.

For two hours the label printer in dispatch used an outdated address template, so 23 parcels to the Leeds
office were labelled with the old street name. The courier delivered all of them after a phone call. Dispatch
now checks the template version at the start of every shift.
"""

TEXT_FILES["default/releases/release-notes-4.1.0.md"] = """\
# Sensor firmware 4.1.0 - release notes

Firmware 4.1.0 was released on 3 June 2026.

- New: sensors can report to a second telemetry gateway as a fallback.
- Changed: the deep sleep current of the TS-40 dropped by about 15 percent.
- Fixed: BUG-812, a reading taken during an upload could be sent twice.
"""

TEXT_FILES["default/runbooks/gateway-restart.txt"] = """Runbook: restarting the telemetry gateway

1. Announce the restart in the operations channel and pause the alerting rules for the gateway.
2. Drain the gateway from the load balancer and wait until open uploads fall to zero.
3. Restart the gateway service, then check the health endpoint until it reports ready.
4. Add the gateway back to the load balancer and watch the upload rate for ten minutes.
5. Re-enable the alerting rules. If the upload rate does not recover, page the on-call engineer.

Certificates: the gateway certificate is renewed by the nightly renewal job. Check its expiry date after
every maintenance window.
"""

TEXT_FILES["default/runbooks/cold-store-check.txt"] = """Runbook: weekly cold store check

Every Monday the morning shift reads the display of cold stores A and B and compares them with the
independent logger. A difference of more than one degree is reported to facilities. Door seals are checked
by hand along their full length. Calibration gas cylinders must stay between 2 and 8 degrees Celsius.
"""

TEXT_FILES["default/team/roster.md"] = """# Teams and on-call roster (autumn 2026)

Priya Raman leads the Platform Reliability team, which runs the telemetry gateway, the dashboards and the
on-call rota. Tomasz Wilk and Grace Okafor are its other members.

The Firmware team builds and releases the sensor firmware. It is led by Jonas Berg, with Aisha Khan and
Luca Ferri.

The Field Operations team installs and services sensors at customer sites. Sam Whitley leads it and Nora
Lind works with him.

Procurement manages suppliers and purchase orders. Helen Marsh is head of procurement; Daniel Osei handles
day-to-day ordering.
"""

TEXT_FILES["default/suppliers/supplier-scorecard.csv"] = ""  # written by write_csvs

TEXT_FILES["legal/contracts/ostrava-optics-agreement.md"] = """# Supply Agreement - Ostrava Optics s.r.o.

Signed: 9 September 2025.

Ostrava Optics supplies the polycarbonate lens windows for the TS-60 optical particle counter. Delivery is
due five weeks after each purchase order. Late deliveries carry a penalty of 1 percent of the order value
per week, capped at 5 percent. The agreement runs for three years and ends on 8 September 2028; it does not
renew automatically. Prices are reviewed once a year in October against the published polymer index.
"""

TEXT_FILES["legal/policies/contract-approval-policy.md"] = """# Contract approval policy

Supplier contracts with an annual value below EUR 50,000 may be signed by the head of procurement. Contracts
above that value also need the signature of the finance director. Any contract with uncapped liability,
exclusivity or a term longer than three years must be reviewed by the legal team before signature.

Renewal dates of all supplier contracts are tracked in the procurement calendar. The owner of a contract
receives a reminder 120 days before each renewal or notice deadline.
"""

TEXT_FILES["legal/policies/nda-template.txt"] = """Mutual non-disclosure agreement (template)

The parties intend to discuss a possible cooperation and will exchange confidential information for that
purpose only. Confidential information excludes what is public, already known to the receiving party or
independently developed. The receiving party protects it with at least reasonable care and returns or
destroys it on request. This agreement lasts two years; the duty of confidence lasts five years from the
last disclosure. It is governed by the laws of England and Wales.
"""

TEXT_FILES["finance/memos/travel-policy.md"] = """\
# Travel and expenses policy (summary)

Rail is the default for trips under four hours; flights need the approval of the cost centre owner. Hotel
costs are refunded up to EUR 140 per night outside London and EUR 190 in London. Claims are filed within
30 days of the trip, with receipts, in the expenses tool.
"""

TEXT_FILES["legal/policies/freight-rate-card-2026.txt"] = """\
Freight rate card 2026 (annex to the freight services agreement)

Hull to Rotterdam, full pallet: EUR 210, transit two days. Hull to Gdansk, full pallet: EUR 340, transit four
days. Express surcharge: 60 percent. Rates are valid from 1 July 2026 to 30 June 2027 and include fuel
surcharges up to a diesel price of EUR 1.90 per litre.
"""

TEXT_FILES["finance/memos/q3-cost-review.md"] = """# Q3 2026 cost review (summary)

Material costs were 6 percent above plan, mostly because aluminium housings became more expensive in the
spring price round. Freight costs were on plan. The late housing delivery in September delayed the
shipment of 400 TS-40 units into October; the revenue moved to Q4 but was not lost.

Finance asks procurement to claim every contractual delay penalty within 30 days and to report the claimed
amounts in the monthly supplier review.
"""

# ---------------------------------------------------------------------------------------------
# PDFs that are not contracts
# ---------------------------------------------------------------------------------------------

INCIDENT_031 = [
    (
        "INC-2026-031: Late delivery of sensor housings\n\n"
        "Date opened: 15 September 2026. Severity: major. Owner: Daniel Osei (Procurement).\n\n"
        "Summary\nThe supplier Nordlicht Components GmbH missed the agreed delivery deadline of 12 September 2026 "
        "for purchase order PO-4471 (1,200 HX-3 aluminium housings). Nordlicht informed us on 10 September "
        "that a casting machine had failed at their plant in Chemnitz. The housings arrived on 3 October 2026, "
        "three weeks after the agreed date.\n\n"
        "Impact\nAssembly of 400 TS-40 sensors for the autumn orders stopped for two weeks. The assembly team "
        "moved to rework and stock counts in the meantime."
    ),
    (
        "Actions\n1. Procurement to claim the delay penalty under the supply agreement with Nordlicht.\n"
        "2. Qualify a second source for HX-3 housings before the end of Q1 2027.\n"
        "3. Keep a safety stock of 300 housings from November onwards.\n\n"
        "Lessons learned\nWe learned about the machine failure two days before the deadline. The supplier "
        "review will ask every critical supplier for early warning of capacity problems.\n\n"
        "Status: closed on 20 October 2026 after the penalty claim was sent."
    ),
]

DATASHEET_TS40 = [
    (
        "TS-40 Environmental Sensor - Data sheet\n\n"
        "The TS-40 measures temperature, relative humidity and barometric pressure and sends its readings over "
        "LTE-M or NB-IoT to the Tidewater telemetry gateway.\n\n"
        "Measurement ranges\nTemperature: -30 to +70 degrees Celsius, accuracy 0.2 degrees.\n"
        "Relative humidity: 0 to 100 percent, accuracy 2 points.\n"
        "Pressure: 300 to 1100 hPa.\n\n"
        "Power\nTwo lithium AA cells; about five years at a 15 minute wake-up interval."
    ),
    (
        "Housing\nDie-cast aluminium housing HX-3 with silicone gasket, protection class IP67.\n\n"
        "Warranty\nThe TS-40 carries a warranty of three years from delivery. The batteries are covered for "
        "one year. The warranty does not cover damage from opening the housing outside a Tidewater service "
        "centre.\n\n"
        "Firmware\nFirmware updates are delivered over the air. Version 4.2.1 or later is recommended."
    ),
]

DOCX_FILES: dict[str, list[str]] = {
    "legal/notices/meridian-renewal-reminder.docx": [
        "Renewal reminder: Meridian Circuits manufacturing agreement",
        "To: Helen Marsh. From: Legal team. Date: 2 October 2026.",
        "The manufacturing agreement with Meridian Circuits Oy for our circuit boards renews automatically on "
        "1 April 2027. If we want to renegotiate prices or end the agreement, written notice must reach "
        "Meridian no later than 1 January 2027.",
        "Procurement recommends renewing: Meridian delivered 96 percent of orders on time in Q3 and its "
        "quality score is the best of all suppliers.",
    ],
    "default/meetings/supplier-review-2026-10.docx": [
        "Monthly supplier review - October 2026",
        "Present: Helen Marsh, Daniel Osei, Jonas Berg, Sam Whitley.",
        "Nordlicht Components: the September delivery of HX-3 housings was three weeks late (see "
        "INC-2026-031). The penalty claim was sent on 20 October. Katrin Vogel confirmed the repaired casting "
        "machine is back in service.",
        "Baltic Freight Services: one crushed pallet on the Rotterdam route (INC-2026-033). Logistics will "
        "file the damage claim and ask for better load securing.",
        "Carrow Plastics and Ostrava Optics: no issues.",
        "Next review: 24 November 2026.",
    ],
}
