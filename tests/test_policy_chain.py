"""The built-in policy's chain ranking: compound names, side hits of a question that names its start, the report."""

from __future__ import annotations

from hopgraph.policies.ids import support
from hopgraph.policies.ids.hops import HopPlanner, Knobs, State
from hopgraph.policies.ids.state import Edge, Planned
from hopgraph.policies.text import name_parts
from hopgraph.policies.transcript import CallResult, DocHit, Transcript
from tests.support.policy_state import planner_state


def _state(question: str, docs: dict[str, tuple[str, str]], hops_done: int = 2) -> State:
    return planner_state(question, docs, hops_done)


def test_a_compound_name_lists_its_parts() -> None:
    assert name_parts("Limpopo River in Beitbridge District and Gwanda District, Zimbabwe") == [
        "Limpopo River in Beitbridge District and Gwanda District, Zimbabwe", "Limpopo River",
        "Beitbridge District", "Gwanda District", "Zimbabwe"]
    assert name_parts("University of Vienna") == ["University of Vienna"]
    assert name_parts("Nashville, Tennessee") == ["Nashville, Tennessee", "Nashville", "Tennessee"]


def test_a_bridge_named_by_a_compound_name_links_through_its_parts() -> None:
    planner = HopPlanner(Knobs())
    state = _state("What is the waterfall in the country where the Bubye River is found?", {
        "bubye": ("Bubye River", "The Bubye River is a tributary of the Limpopo River in Gwanda District, Zimbabwe."),
    })
    bridge = Planned("search", {"query": "q", "limit": 5}, 1, "bubye", "Limpopo River in Gwanda District, Zimbabwe")
    planner._link(state, bridge, DocHit("falls", "Victoria Falls", "A waterfall between Zambia and Zimbabwe.", 2))
    planner._link(state, bridge, DocHit("zim", "Zimbabwe", "A landlocked country in southern Africa.", 3))
    planner._link(state, bridge, DocHit("other", "Devon Falls", "A waterfall in Oregon.", 1))
    link = {d: es[0].link for d, es in state.edges.items()}
    assert link["zim"] == Knobs().strong_link  # its title is one of the names
    assert link["falls"] == Knobs().weak_link  # it mentions one
    assert link["other"] == Knobs().no_link
    plain = HopPlanner(Knobs(entity_parts=False))
    state.edges.clear()
    plain._link(state, bridge, DocHit("falls", "Victoria Falls", "A waterfall between Zambia and Zimbabwe.", 2))
    assert state.edges["falls"][0].link == Knobs().no_link


QUESTION = "Which waterfall is in the country where the Bubye River is found?"
DOCS = {
    "bubye": ("Bubye River", "The Bubye River flows through Gwanda District, Zimbabwe."),
    "side": ("Devon Falls", "Devon Falls is a waterfall in a country park."),
    "falls": ("Victoria Falls", "Victoria Falls is a waterfall on the border of Zimbabwe."),
    **{f"n{i}": (f"Cascade {i}", f"A waterfall numbered {i}.") for i in range(6)},
}


def test_side_hits_of_a_question_that_names_its_start_rank_below_the_chain() -> None:
    planner = HopPlanner(Knobs())
    before = _state(QUESTION, DOCS, hops_done=1)
    after = _state(QUESTION, DOCS, hops_done=2)
    for state in (before, after):
        # Victoria Falls came from the bridge search alone, and mentions the bridge name.
        del state.first["falls"], state.hybrid_rank["falls"], state.text_rank["falls"]
        state.depth["falls"] = 1
        state.edges["falls"] = [Edge("bubye", "Zimbabwe", 1, Knobs().weak_link)]
    assert planner.anchors(after) == ["bubye"]
    # Before any bridge was followed the first round's order stands; after, the linked document leads the
    # hits that only share the question's words.
    assert planner.ranking(before).index("side") < planner.ranking(before).index("falls")
    assert planner.ranking(after)[:2] == ["bubye", "falls"]
    assert planner.ranking(after).index("side") > planner.ranking(after).index("falls")


def test_the_report_keeps_a_document_per_subject_and_the_linked_ones() -> None:
    planner = HopPlanner(Knobs())
    question = "Which river runs past the city where the man who founded Zentra Mills was born?"
    docs = {"zentra": ("Zentra Mills", "Zentra Mills was founded by Ola Brun."),
            **{f"n{i}": (f"Weaving {i}", f"Looms and weaving, part {i}.") for i in range(8)}}
    state = _state(question, docs)
    assert support.composed(question) == 2
    ranked = planner.ranking(state)
    reported = planner.report(state)
    # Two subjects described through others: three documents in the chain, and one more.
    assert reported == ranked[:4]
    # Without the minimum the list stops at the first score drop.
    assert len(HopPlanner(Knobs(report_slack=-10, chain_keep=0)).report(state)) < 4
    # A document linked by name to a listed one stays even below a score drop.
    state.edges["n7"] = [Edge("zentra", "Ola Brun", 5, Knobs().strong_link)]
    state.titles["n7"] = "Ola Brun"
    ranked = planner.ranking(state)
    assert ranked.index("n7") < 5 and "n7" in planner.report(state)


def test_a_claim_is_checked_by_its_own_search_and_reported_in_hybrid_order() -> None:
    planner = HopPlanner(Knobs())
    claim = "Mice that lack the Zentra receptor are highly susceptible to myocarditis."
    question = "Which mice that lack the Zentra receptor are highly susceptible to myocarditis?"
    docs = {f"d{i}": (f"Study {i}", f"Mice and receptors, study {i}.") for i in range(6)}
    assert not support.asks(claim) and support.asks(question)
    for text, single in ((claim, True), (question, False)):
        state = _state(text, docs)
        # A bridge search reached d5 from d0 by name: for a question that lifts it, for a claim it does not.
        state.edges["d5"] = [Edge("d0", "Study 5", 1, Knobs().strong_link)]
        assert support.single_hop(planner.k, state) is single
        report = planner.report(state)
        if single:
            assert report == [f"d{i}" for i in range(6)]
        else:
            assert report.index("d5") < 5


def test_a_deeper_page_does_not_reorder_the_first_page() -> None:
    planner = HopPlanner(Knobs())
    q = "Looms and weaving history"
    state, plan = planner.replay(_transcript(q, []))
    first_page = [DocHit(f"d{i}", f"Loom {i}", "Looms.", i) for i in range(1, 11)]
    # The same query asked for 15 documents orders its candidates differently: "late" comes third.
    deeper = [first_page[0], first_page[1], DocHit("late", "Loom late", "Looms.", 3),
              *[DocHit(h.id, h.title, h.text, r) for r, h in enumerate(first_page[2:], start=4)]]
    widen = Planned("search", {"query": q, "limit": 15}, 1, widen=True)
    planner.absorb(state, [*plan], [CallResult("search", plan[0].args, tuple(first_page)),
                                    CallResult("text_search", plan[1].args, tuple(first_page))])
    planner.absorb(state, [widen], [CallResult("search", widen.args, tuple(deeper))])
    assert state.hybrid_rank["late"] > Knobs().first_limit
    assert support.first_ranking(planner.k, state)[:11] == [*(h.id for h in first_page), "late"]


def _transcript(question: str, rounds: list[list[CallResult]]) -> Transcript:
    return Transcript(question=question, rounds=rounds)
