"""The answer policy's chain of evidence: names in sentences, bridge choice, and what an answer keeps."""

from __future__ import annotations

from hopgraph.policies.answer.bridge import bridge_candidates
from hopgraph.policies.answer.evidence import AnswerState, Passage, entities
from hopgraph.policies.answer.prune import prune, same_title_mismatches
from hopgraph.policies.answer.types import DATE, PERSON


def _passage(ref: str, title: str, text: str, rank: int = 1, round_no: int = 1) -> Passage:
    return Passage(ref=ref, title=title, text=text, rank=rank, round=round_no, ranks={round_no: rank})


def _names(sentence: str, question: str = "") -> list[str]:
    return [span for span, _ in entities(sentence, question)]


# --- names -------------------------------------------------------------------------------------------


def test_a_list_of_names_gives_each_name() -> None:
    names = _names("He was the biographer of Thomas Pitera, Richard Kuklinski, Anthony Casso, and Richard Ramirez.")
    assert {"Thomas Pitera", "Richard Kuklinski", "Anthony Casso", "Richard Ramirez"} <= set(names)


def test_a_place_with_its_region_stays_one_name() -> None:
    names = _names("Kahuku is a place in the district of Oahu, County of Honolulu, Hawaii, United States.")
    assert "United States" not in names
    assert any(n.startswith("Oahu") for n in names)


def test_a_possessive_ends_a_name() -> None:
    assert "Ezer Weizman" in _names("Elections were held in the Knesset following Ezer Weizman's resignation.")


def test_offsets_point_at_each_listed_name() -> None:
    sentence = "Stars include Palash Sen, Ira Dubey, Kymsleen Kholie and Yashpal Sharma."
    for span, pos in entities(sentence, ""):
        assert sentence[pos:pos + len(span)] == span


# --- bridges -----------------------------------------------------------------------------------------


def test_a_name_filling_the_described_slot_is_the_bridge() -> None:
    question = "Her first novel was published by an independent publishing house based where?"
    state = AnswerState(question=question, passages=[_passage(
        "S1", "Grace Krilanovich",
        "Her first novel, \"The Orange Eats Creeps\" was published by Two Dollar Radio in September 2010.")])
    assert "Dollar Radio" in bridge_candidates(state, question)[0][1]


def test_a_kind_named_right_before_a_name_picks_it() -> None:
    question = "Kate Ramsay is a fictional character from an Australian soap opera created by who?"
    state = AnswerState(question=question, passages=[
        _passage("S1", "Kate Ramsay", "Kate Ramsay is a fictional character from the Australian soap opera "
                 "\"Neighbours\", played by Ashleigh Brewer."),
        _passage("S2", "Ashleigh Brewer", "Ashleigh Brewer is an Australian actress.", rank=2),
    ])
    assert bridge_candidates(state, question)[0][1] == "Neighbours"


def test_a_bridge_from_a_document_off_the_chain_loses() -> None:
    question = "Drew Fuller starred in a series that originally broadcast on what station?"
    state = AnswerState(question=question, passages=[
        _passage("S1", "The Drew Pearson Show", "The Drew Pearson Show was an American television program "
                 "originally broadcast on ABC and later on the DuMont Television Network."),
        _passage("S2", "Drew Fuller", "He is best known for his portrayal of Chris Halliwell in the television "
                 "series \"Charmed\".", rank=2),
    ])
    assert bridge_candidates(state, question)[0][1] == "Charmed"


def test_a_bridge_below_the_first_four_results_wins_only_over_weak_ones() -> None:
    question = "Which of our clinics has the underwater treadmill, and what number do I ring to book a session?"
    notes = [_passage(f"S{i}", f"Weight clinic {i}", "Scales checked before the session.", rank=i)
             for i in (1, 2, 3, 4)]
    equipment = _passage("S5", "equipment", "asset: EQ-011; item: Underwater treadmill; site: Kestrel Road Surgery; "
                         "room: Rehab room", rank=5)
    # The fifth result names the clinic beside the question's own words; the first four only a word at a
    # sentence's start.
    found = bridge_candidates(AnswerState(question=question, passages=[*notes, equipment]), question.split(",")[0])
    assert found[0][1] == "Kestrel Road Surgery"
    # Against a name as well supported in the first four, the fifth result loses.
    directory = _passage("S1", "equipment list", "asset: EQ-004; item: Underwater treadmill; site: Orchard Vale "
                         "Clinic; room: Hydrotherapy", rank=1)
    found = bridge_candidates(AnswerState(question=question, passages=[directory, *notes[1:], equipment]),
                              question.split(",")[0])
    assert found[0][1] == "Orchard Vale Clinic"


def test_a_word_of_a_given_name_does_not_make_another_name_the_bridge() -> None:
    question = "From 1945-1949 Dick Humbert played for an NFL team based in what state?"
    state = AnswerState(question=question, passages=[
        _passage("S1", "Dick Humbert", "Dick Humbert was an American football end. He played for the "
                 "Philadelphia Eagles (1941, 1945-1949)."),
        _passage("S2", "1986 Tar Heels", "The Tar Heels were led by head coach Dick Crum and played their "
                 "home games in 1945.", rank=2),
    ])
    assert bridge_candidates(state, question)[0][1] == "Philadelphia Eagles"


# --- what an answer keeps ----------------------------------------------------------------------------


def test_the_same_title_with_the_qualifier_the_question_speaks_of_stays() -> None:
    titles = {"Scott Howell (footballer)", "Scott Howell (political consultant)", "Rudy Giuliani"}
    question = "Scott Howell is a consultant who has worked with the mayor of what city?"
    assert same_title_mismatches(question, titles) == {"Scott Howell (footballer)"}
    assert same_title_mismatches("Who is Scott Howell?", titles) == set()


def test_a_sentence_off_the_chain_goes_when_the_chain_holds_the_answer() -> None:
    question = "How to Eat, released in which year, is a book by Nigella Lawson?"
    off = _passage("S1", "Return of the Vampire", "It is released in 1992 by Roadrunner Records.")
    on = _passage("S2", "How to Eat", "How to Eat is a 1998 book of English cuisine by Nigella Lawson.")
    chosen = [(off.text, off), (on.text, on)]
    assert prune(question, [DATE], chosen, [off, on]) == [(on.text, on)]


def test_a_sentence_off_the_chain_stays_when_only_it_holds_the_answer() -> None:
    question = "Who directed How to Eat?"
    on = _passage("S1", "How to Eat", "How to Eat is a cookery book of some renown.")
    off = _passage("S2", "Other", "The adaptation was directed by Maria Lopez.")
    chosen = [(on.text, on), (off.text, off)]
    assert prune(question, [PERSON], chosen, [on, off]) == chosen


def test_the_regions_of_a_place_are_names_of_their_own() -> None:
    from hopgraph.policies.answer.evidence import regions

    sentence = "The Bubye River is a tributary of the Limpopo River in Gwanda District, Zimbabwe."
    assert [span for span, _ in regions(sentence, "")] == ["Zimbabwe"]
    assert regions("He wrote about Thomas Pitera, Richard Kuklinski, and Richard Ramirez.", "") == ()


def test_a_place_the_question_describes_takes_a_one_word_place() -> None:
    question = "The Consulate General, in the city Sarah Sorge was born, is located in what territory?"
    state = AnswerState(question=question, passages=[
        _passage("S1", "Sarah Sorge", "Sarah Sorge (born 26 August 1969 in Frankfurt) is a German politician."),
        _passage("S2", "John Temple (diplomat)", "John Temple was the first British consul-general to the "
                 "United States, born in Boston.", rank=2),
    ])
    assert bridge_candidates(state, question)[0][1] == "Frankfurt"


def test_two_names_then_which_was_first_is_a_choice() -> None:
    from hopgraph.policies.answer.choice import is_choice, options

    question = "Little Caesars and Pizza Hut were founded in the 1950s. Which was the first to serve pizza?"
    assert options(question) == ["Little Caesars", "Pizza Hut"]
    assert is_choice(question)
    assert not is_choice("Little Caesars and Pizza Hut sell pizza. Which sells more?")


def test_a_question_opening_with_a_full_name_is_not_unanswerable_for_its_decade() -> None:
    from hopgraph.policies.answer.compose import compose_answer

    question = "Little Caesars was founded in the 1950s by whom?"
    p = _passage("S1", "Little Caesars", "Little Caesars is a pizza chain founded by Mike Ilitch in 1959.")
    answer = compose_answer(AnswerState(question=question, passages=[p]), None)
    assert "Mike Ilitch" in answer and "[S1]" in answer


def test_a_sentence_filling_the_slot_before_the_question_word_answers() -> None:
    from hopgraph.policies.answer.slots import answer_slots, fills_answer_slot

    slots = answer_slots("Kate Ramsay is a character from a soap opera created by who?")
    assert fills_answer_slot("It was created by TV executive Reg Watson.", slots)
    assert not fills_answer_slot("It was created as part of a new generation of the family.", slots)


def test_a_stop_after_an_abbreviation_does_not_end_the_sentence() -> None:
    from hopgraph.policies.answer.sentences import prose_sentences

    text = "The main campus is in Arden Hills, a suburb of St. Paul, and the seminary has a campus in San Diego."
    assert prose_sentences(text) == [text]


def test_a_listed_figure_is_a_sentence_and_a_short_heading_is_not() -> None:
    from hopgraph.policies.answer.sentences import prose_sentences

    text = ("## Quotes\n\nThree firms quoted, including VAT:\n\n- Aquatile Contractors: £52,300\n"
            "- Kingsmere Tiling Ltd: £46,500\n\n## Next steps\n\n- Overview\n\nThe lowest of the three was accepted.")
    # Headings stay out, and so does a short item without a figure; items with one are sentences.
    assert prose_sentences(text) == ["Three firms quoted, including VAT:", "Aquatile Contractors: £52,300",
                                     "Kingsmere Tiling Ltd: £46,500", "The lowest of the three was accepted."]


def test_a_question_ending_by_who_asks_for_a_person() -> None:
    from hopgraph.policies.answer.types import asked_kind

    assert asked_kind("Terry McGurrin edited the show which was written by who?") == PERSON


def test_the_country_a_question_describes_is_the_larger_place() -> None:
    question = "Who is the current opposition leader in the country where Buyende is located?"
    state = AnswerState(question=question, passages=[
        _passage("S1", "Buyende", "Buyende is a town in the Eastern Region of Uganda."),
    ])
    assert bridge_candidates(state, question)[0][1] == "Uganda"


def test_a_document_qualified_by_the_bridge_is_on_the_chain() -> None:
    from hopgraph.policies.answer.select import doc_links

    passages = [_passage("S1", "Buyende", "Buyende is a town in the Eastern Region of Uganda."),
                _passage("S2", "Leader of Opposition (Uganda)", "The current Leader of Opposition is Winnie Kiiza.")]
    links = doc_links("Who leads the opposition in the country where Buyende is?", passages, "Uganda")
    assert links["Leader of Opposition (Uganda)"] > 0


def test_a_second_relative_clause_is_not_a_second_question() -> None:
    from hopgraph.policies.answer.evidence import split_question

    question = "When was the singer born who is known for her husky voice and whose third album is Diamond Cut?"
    assert len(split_question(question)) == 1
    assert len(split_question("Which supplier missed the deadline, and what penalty did we agree?")) == 2


def test_both_asks_the_proper_adjective_of_each() -> None:
    from hopgraph.policies.answer.choice import decide_yes_no, options

    question = "Are both magazines, the Woman's Viewpoint and Pick Me Up, British publications?"
    assert options(question) == ["Woman's Viewpoint", "Pick Me Up"]
    texas = _passage("S1", "Woman's Viewpoint", "The Woman's Viewpoint was a magazine founded in Texas and published "
                     "by Florence Sterling.")
    uk = _passage("S2", "Pick Me Up", "Pick Me Up is a British weekly magazine published by IPC Media.")
    decided = decide_yes_no(question, [texas, uk])
    assert decided is not None and decided[0] == "No"
    both = _passage("S3", "Woman's Viewpoint", "The Woman's Viewpoint was a British magazine published in London.")
    decided = decide_yes_no(question, [both, uk])
    assert decided is not None and decided[0] == "Yes"


def test_the_film_in_which_names_the_kind_of_bridge() -> None:
    from hopgraph.policies.answer.bridge import bridge_kind

    assert bridge_kind("Who directed the film in which Jung Joon-young made his big screen debut?") == {"film"}


def test_a_name_the_question_gives_does_not_describe_the_answer() -> None:
    from hopgraph.policies.answer.slots import described_answer

    assert described_answer("What penalty applies when Ostrava Optics delivers late?") == set()
    assert described_answer("Which Danish heavy metal band from Copenhagen released it?") >= {"heavy", "metal", "band"}


def test_an_answer_through_a_named_document_quotes_the_document_it_leads_to() -> None:
    from hopgraph.policies.answer.compose import compose_answer

    question = "Who was mayor when the town where Harbour Mill stands got its charter?"
    mill = _passage("S1", "Harbour Mill", "Harbour Mill is a restored grain mill in Elsmere.")
    town = _passage("S2", "Elsmere", "Elsmere got its town charter in 1871, when Mayor Ada Quill signed it.", rank=2)
    decade = _passage("S3", "Flour trade", "Tom Reeve wrote a history of the Harbour Mill flour trade.", rank=3)
    answer = compose_answer(AnswerState(question=question, passages=[mill, town, decade]), None)
    # The named mill's sentence, then the town it names, whose sentence holds a person of the kind asked for.
    assert answer.startswith("Harbour Mill is a restored grain mill in Elsmere [S1].")
    assert "Ada Quill signed it [S2]" in answer
    assert "Tom Reeve" not in answer


def test_a_document_that_only_mentions_the_named_one_is_not_where_it_leads() -> None:
    from hopgraph.policies.answer.evidence import stems
    from hopgraph.policies.answer.reached import hop_sentences
    from hopgraph.policies.answer.select import best_sentences, doc_links

    question = "Who was mayor when the town where Harbour Mill stands got its charter?"
    mill = _passage("S1", "Harbour Mill", "Harbour Mill is a restored grain mill in Elsmere.")
    town = _passage("S2", "Elsmere", "Elsmere got its town charter in 1871, when Mayor Ada Quill signed it.", rank=2)
    mention = _passage("S3", "Flour trade", "Mayor Tom Reeve granted Harbour Mill a town charter.", rank=3)
    passages = [mill, town, mention]
    links = doc_links(question, passages)
    assert links["Flour trade"] == links["Elsmere"] == 1.0  # both linked to the named mill, one way or the other
    ranked = best_sentences(passages, stems(question), question, PERSON, links=links)
    hop, _ = hop_sentences(passages, question, [(mill.text, mill)], ranked, links)
    assert [c.passage.title for c in hop] == ["Elsmere"]
    # Once the answer quotes a document the question does not name, there is no hop to add.
    hop, _ = hop_sentences(passages, question, [(town.text, town)], ranked, links)
    assert hop == []


def test_a_title_several_found_documents_share_is_still_named() -> None:
    from hopgraph.policies.answer.bridge import named_in_titles
    from hopgraph.policies.answer.reached import is_named
    from hopgraph.policies.answer.select import doc_links

    question = 'Tom Reed was the story editor for the show "Paper Kite" which was written by who?'
    passages = [
        _passage("S1", "Tom Reed", 'Tom Reed was the story editor for the YTV show "Paper Kite".'),
        _passage("S2", "Paper Kite", "Paper Kite is a picture book series written by the author Ada Moss.", rank=2),
        _passage("S3", "Paper Kite (TV series)", "Paper Kite is an animated series that aired on YTV.", rank=3),
        _passage("S4", "Paper Kite (film)", "Paper Kite is a short film shot in Halifax.", rank=4),
        _passage("S5", "Halifax", "Halifax is a port city.", rank=5),
    ]
    named = named_in_titles(question, passages)
    assert not {"paper", "kite"} & named  # in most titles: too common to pick out documents by themselves
    links = doc_links(question, passages)
    assert all(is_named(t, named, links) for t in ("Tom Reed", "Paper Kite", "Paper Kite (film)"))
    assert not is_named("Halifax", named, links)
