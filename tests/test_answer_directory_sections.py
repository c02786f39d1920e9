"""The record of a bridge in a directory written as sections, when the section read is another thing's.

"Which of our clinics has the underwater treadmill, and what number do I ring to book?": the equipment list gives
the clinic; the clinic directory is a heading per clinic over labelled items ("- **Phone:** ..."), chunked one or
two sections a chunk, and the first search may bring another clinic's section. The directory then holds the field
asked (a Phone) for another clinic and no record of this one: the policy searches that directory by the clinic's
name beside its hop. A folder written here (with routine notes that name each clinic in their titles) is ingested
into the default embedded index and asked through the graph with the built-in answer policy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hopgraph.policies.answer.evidence import Passage
from hopgraph.policies.answer.records import peer_records
from tests.support.folders import Folder, ask, csv_text, ingested, write_files

CLINICS = [("Kestrel Road Surgery", "14 Kestrel Road, Aldermoor", "01632 960 318", "Rowena Castell"),
           ("Orchard Vale Clinic", "Unit 3, Orchard Vale Retail Park, Brenthill", "01632 960 745", "Tobias Lindqvist"),
           ("Stonegate Farm & Equine", "Stonegate Barns, Mill Lane, Pellingford", "01632 961 204", "Fergus Oldroyd")]
HOURS = "Monday to Friday 8:00 to 19:00, Saturday 9:00 to 13:00; closed on bank holidays and at Christmas"
DIRECTORY = "# Clinic directory\n\nThe group runs three clinics.\n\n" + "\n\n".join(
    f"## {name}\n\n- **Address:** {address}\n- **Phone:** {phone}\n- **Clinical lead:** {lead}\n- **Open:** {HOURS}\n"
    f"- **Parking:** six spaces behind the building, entered from the side street, and more on the road nearby\n"
    for name, address, phone, lead in CLINICS)
EQUIPMENT = csv_text(["asset", "item", "site", "room"], [
    ["EQ-003", "Dental X-ray unit", "Orchard Vale Clinic", "Dental suite"],
    ["EQ-011", "Underwater treadmill", "Kestrel Road Surgery", "Rehab room"],
    ["EQ-014", "Cattle crush", "Stonegate Farm & Equine", "Lower yard"],
])
NOTES = {f"clinics/routine/{i:02d}-weight-clinic.md":
         f"# Weight clinic, {CLINICS[i % 3][0]}\n\n{i + 2} March 2026. Booked: {4 + i}. Seen: {3 + i}. Scales "
         f"checked before the session.\n" for i in range(6)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Folder]:
    docs = write_files(tmp_path_factory.mktemp("vets"), {
        "clinics/clinic-directory.md": DIRECTORY, "clinics/equipment.csv": EQUIPMENT, **NOTES})
    with ingested(tmp_path_factory, docs) as indexed:
        yield indexed


def test_a_directory_with_the_asked_field_for_another_thing() -> None:
    stonegate = DIRECTORY[DIRECTORY.index("## Stonegate"):]
    directory = Passage(ref="S1", title="Clinic directory", rank=1, round=1, text=stonegate)
    found = peer_records("Kestrel Road Surgery", "what number do I ring to book?", [directory])
    assert found is directory
    # Its own record read, or no field of the kind asked: no search for it.
    assert peer_records("Stonegate Farm & Equine", "what number do I ring to book?", [directory]) is None
    assert peer_records("Kestrel Road Surgery", "when was it founded?", [directory]) is None


def test_the_number_of_the_clinic_the_equipment_list_names(folder: Folder) -> None:
    answer = str(ask(folder, "I'd like to book my dog in for sessions on the underwater treadmill. Which of our "
                             "clinics has one, and what number do I ring to book?")["answer"])
    assert "Kestrel Road Surgery" in answer and "01632 960 318" in answer, answer
    assert "01632 961 204" not in answer and "01632 960 745" not in answer, answer
