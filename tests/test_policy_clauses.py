"""The built-in policy's later hops: the clause a resolved entity fills, and which names are bridges."""

from __future__ import annotations

from hopgraph.policies.ids import hops_ranking, support
from hopgraph.policies.ids.clauses import clauses, next_clause
from hopgraph.policies.ids.hops import HopPlanner, Knobs, State
from hopgraph.policies.ids.state import Edge
from tests.support.policy_state import planner_state

PUBLIX = ("How many Publix stores are in the state that borders the east of the state where Hello Love's performer "
          "lived in when he died?")


def test_clauses_split_at_relative_words_of_and_possessives_but_not_inside_names() -> None:
    assert clauses(PUBLIX) == [["publix", "stores", "state"], ["borders", "east"], ["state"], ["hello", "love"],
                               ["performer", "lived"], ["died"]]
    # "of" inside a name the question spells out does not open a clause.
    assert clauses("Who was the first president of the association which published Journal of Psychotherapy "
                   "Integration?") == [["president"], ["association"], ["published", "journal", "psychotherapy",
                                                                                "integration"]]


def test_the_next_clause_is_the_one_enclosing_what_the_chain_resolved() -> None:
    question = "What is the population of the state where Dodge City Regional Airport is located?"
    # The airport's clause is resolved, and with it the state it describes: what is left encloses them.
    assert next_clause(question, {"dodge", "city", "regional", "airport"}) == ["population"]
    assert next_clause(question, set()) is None  # nothing resolved yet: no clause to move on from
    # "the author of Dead Ernest": the author is what the first hop resolved; its birthplace comes next.
    ernest = "Which is the body of water by the birthplace of the author of Dead Ernest?"
    assert next_clause(ernest, {"dead", "ernest"}) == ["water", "birthplace"]
    assert next_clause("Who wrote Hamlet?", {"hamlet"}) is None  # one clause


def _state(question: str, docs: dict[str, tuple[str, str]]) -> State:
    return planner_state(question, docs, hops_done=1)


def test_a_later_query_is_the_resolved_entity_with_the_enclosing_clause() -> None:
    question = "What is the population of the state where Dodge City Regional Airport is located?"
    state = _state(question, {"air": ("Dodge City Regional Airport", "The airport is in Ford County, Kansas.")})
    planner = HopPlanner(Knobs())
    assert planner.query(state, "air", "Kansas") == "Kansas population"
    # Without clauses the query keeps every unresolved word of the question.
    assert HopPlanner(Knobs(clause_queries=False)).query(state, "air", "Kansas") == "Kansas population state"
    # A relative clause that runs on to the question's end cannot be told from it: the whole rest is kept.
    coles = _state("When did the state where Coles Creek is located reinstate the death penalty?",
                   {"coles": ("Coles Creek", "Coles Creek is a stream in Mississippi.")})
    assert planner.query(coles, "coles", "Mississippi") == "Mississippi state reinstate death penalty"


def test_a_third_hop_moves_one_clause_further_out() -> None:
    state = _state(PUBLIX, {"song": ("Hello Love (song)", "Hello Love is a song performed by Hank Snow."),
                            "snow": ("Hank Snow", "Hank Snow lived in Nashville, Tennessee until he died.")})
    state.edges["snow"] = [Edge("song", "Hank Snow", 1, Knobs().strong_link, "Hank Snow state performer lived")]
    planner = HopPlanner(Knobs())
    assert planner.chain_words(state, "snow") == {"hello", "love", "state", "performer", "lived"}
    assert planner.query(state, "snow", "Tennessee") == "Tennessee borders east died"


def test_bridge_names_drop_possessives_lists_and_the_parents_own_full_name() -> None:
    question = "What currency predated the Euro in the country Signmark is from?"
    text = ("Marko Vuoriheimo, better known as Signmark, is a rapper. Finland's entry was written by Signmark and "
            "Osmo Ikonen. The song charted in Belgium, Luxembourg, Cyprus and Estonia.")
    state = _state(question, {"sign": ("Signmark", text)})
    entities = HopPlanner(Knobs()).entities(state, "sign")
    assert "Finland" in entities and "Finland's" not in entities
    assert not any("Cyprus" in e for e in entities)  # a list of names is no one subject
    bonetti = _state("Who scored the first goal of last season for Peter Bonetti's team?", {
        "pb": ("Peter Bonetti", "Peter Phillip Bonetti is a former goalkeeper who played for Chelsea.")})
    found = HopPlanner(Knobs()).entities(bonetti, "pb")
    assert "Peter Phillip Bonetti" not in found and "Chelsea" in found


def test_a_role_of_a_named_thing_composes_the_question() -> None:
    planner = HopPlanner(Knobs())
    state = _state("Where is the country the sandwich named for the predecessor of National Rail is from located?",
                   {"s": ("British Rail sandwich", "The British Rail sandwich is a sandwich sold on trains.")})
    assert not support.single_hop(planner.k, state)
    plain = _state("Where is the sandwich sold?", {"s": ("Deli", "A deli sells food.")})
    assert support.single_hop(planner.k, plain)


def test_a_title_disambiguation_naming_something_is_the_first_bridge() -> None:
    question = "When did the country in which the performer of Privilege is a citizen become part of the UK?"
    state = _state(question, {"p": ("Privilege (Ivor Cutler album)",
                                    "Privilege is an album released in 1983 on Rough Trade Records. It reached the "
                                    "UK Indie Chart.")})
    assert HopPlanner(Knobs()).entities(state, "p")[0] == "Ivor Cutler"
    assert "Ivor Cutler" not in HopPlanner(Knobs(title_bridge=False)).entities(state, "p")
    # A disambiguation that only says what kind of thing it is ("song") names no bridge.
    song = _state("Who performed Brother?", {"b": ("Brother (song)", "Brother is a song on the album Ten.")})
    assert HopPlanner(Knobs()).entities(song, "b") == HopPlanner(Knobs(title_bridge=False)).entities(song, "b")


def test_the_report_keeps_a_document_whose_title_head_the_question_names() -> None:
    question = "Which river runs past the city where the man who built Zentra Mills and the Zentra Tower was born?"
    for title, kept in (("Zentra Tower, Oslo", True), ("Zentra Hall, Oslo", False)):
        docs = {"mills": ("Zentra Mills", "Zentra Mills was built by Ola Brun."),
                **{f"n{i}": (f"Weaving {i}", f"Looms and weaving, part {i}.") for i in range(3)},
                "t": (title, "A building in Oslo."),
                **{f"m{i}": (f"Spinning {i}", f"Spinning wheels, part {i}.") for i in range(3)}}
        state = _state(question, docs)
        state.hops_done = 2
        planner = HopPlanner(Knobs())
        assert planner.ranking(state).index("t") == 4  # among the best five, below a score drop
        assert ("t" in planner.report(state)) is kept


def test_a_relative_clause_without_its_relative_word_composes_and_splits_the_question() -> None:
    question = "Who are the candidates for governor in the state the Battle of Mine Creek was fought in?"
    assert support.composed(question) == 1
    assert clauses(question) == [["candidates", "governor", "state"], ["battle", "mine", "creek", "fought"]]
    assert support.composed("Who directed the film The Terminal?") == 0  # a name after its kind, no clause


def test_what_a_document_named_in_the_main_clause_names_counts_half() -> None:
    question = "What currency predated the Euro in the country Signmark is from?"
    docs = {"euro": ("Euro", "The euro replaced the currencies of Belgium and Estonia."),
            "sign": ("Signmark", "Signmark is a rapper from Finland."),
            "belgium": ("Belgium", "Belgium is a country."),
            "markka": ("Finnish markka", "The markka was the currency of Finland.")}
    state = _state(question, docs)
    state.hops_done = 2
    state.edges["markka"] = [Edge("sign", "Finland", 1, Knobs().weak_link)]
    planner = HopPlanner(Knobs())
    assert hops_ranking.chain_ends(state, hops_ranking.anchors(state)) == {"euro"}
    ranking = planner.ranking(state)
    assert ranking.index("markka") < ranking.index("belgium")
    plain = HopPlanner(Knobs(end_anchor=1.0)).ranking(state)
    assert plain.index("markka") > plain.index("belgium")
