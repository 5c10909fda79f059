"""Entries that cannot have happened, refused through the engine's read and validate path
(RULES.md "Combined deals", "King of Hearts", "Trex", "Sweeps"), each with its message."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gamebuilder import standard_game
from scorekeeper.engine import (
    Contract,
    HouseRules,
    InvalidResult,
    Progress,
    game_to_dict,
    read_game,
    validate_entry,
)

NAMES = ("Aya", "Bilal", "Carla", "Dana")
CONTRACT_NAMES = ["king_of_hearts", "diamonds", "queens", "collections", "trex"]


def refused(doc: dict) -> list[str]:
    with pytest.raises(InvalidResult) as info:
        read_game(doc)
    return [str(p) for p in info.value.problems]


def entry_problems(raw: dict, rules: dict | None = None, first_king: int = 0) -> list[str]:
    progress = Progress(HouseRules.from_dict(rules or {}), first_king, NAMES)
    record, problems = validate_entry(raw, progress)
    assert (record is None) == bool(problems)
    return [str(p) for p in problems]


# --- RULES.md "Combined deals": a deal names each of its contracts once ---------------------
def test_combined_deals_a_contract_listed_twice_is_refused_naming_the_deal():
    doc = standard_game()
    doc["deals"][2] = {"king": 0, "contracts": ["diamonds", "diamonds"], "diamonds": [4, 3, 2, 4]}
    assert refused(doc) == ["Deal 3: Diamonds is listed twice"]


def test_combined_deals_a_contract_listed_twice_is_refused_as_an_entry():
    raw = {
        "king": 0,
        "contracts": ["queens", "diamonds", "queens"],
        "diamonds": [4, 3, 2, 4],
        "queens": {s: {"taker": 1} for s in ("spades", "hearts", "diamonds", "clubs")},
    }
    assert entry_problems(raw, {"combining": "combination"}) == ["Deal 1: Queens is listed twice"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(CONTRACT_NAMES), min_size=2, max_size=6).filter(
        lambda names: len(set(names)) < len(names)
    ),
    st.sampled_from(["none", "complex", "combination"]),
)
def test_combined_deals_any_list_with_a_repeat_is_refused_never_a_crash(names, combining):
    raw = {"king": 0, "contracts": names, "diamonds": [4, 3, 2, 4], "tricks": [4, 3, 2, 4]}
    problems = entry_problems(raw, {"combining": combining})
    repeated = next(n for i, n in enumerate(names) if n in names[:i])
    label = {"king_of_hearts": "King of Hearts"}.get(repeated, repeated.title())
    assert problems == [f"Deal 1: {label} is listed twice"]


# --- RULES.md "Combined deals": with Collections and leader-credit, who led a trick is the King
# --- or a player who took a trick ---------------------------------------------------------------
LEADER_CREDIT_COMPLEX = {"combining": "complex", "self_capture": "leader-credit"}


def complex_with_leader(led_by: int, card: str = "king_of_hearts") -> dict:
    """King 0. Seat 2 (Carla) takes no trick and no penalty card; seat 1 doubled the card
    *card* and took it back."""
    queens = {
        "spades": {"taker": 1},
        "hearts": {"taker": 1},
        "diamonds": {"taker": 1},
        "clubs": {"taker": 3},
    }
    deal = {
        "king": 0,
        "contracts": ["king_of_hearts", "diamonds", "queens", "collections"],
        "king_of_hearts": {"taker": 1},
        "diamonds": [3, 6, 0, 4],
        "queens": queens,
        "tricks": [3, 6, 0, 4],
    }
    target = deal["king_of_hearts"] if card == "king_of_hearts" else queens[card]
    target.update({"doubled_by": 1, "led_by": led_by})
    return deal


@pytest.mark.parametrize("card, words", [("king_of_hearts", "the K♥"), ("spades", "the Q♠")])
def test_combined_deals_leader_credit_a_trickless_player_did_not_lead(card, words):
    assert entry_problems(complex_with_leader(2, card), LEADER_CREDIT_COMPLEX) == [
        f"Deal 1, Collections: Carla took no trick and is not the King, so they cannot have led "
        f"to the trick with {words}"
    ]


def test_combined_deals_leader_credit_the_king_leads_without_taking_a_trick():
    raw = complex_with_leader(0)
    raw["tricks"], raw["diamonds"] = [0, 6, 3, 4], [0, 6, 3, 4]  # now the King took no trick
    assert entry_problems(raw, LEADER_CREDIT_COMPLEX) == []


def test_combined_deals_leader_credit_a_leader_who_took_a_trick_is_credited():
    game = standard_game(rules={"combining": "complex", "self_capture": "leader-credit"})
    game["deals"] = [
        {"king": 0, "contracts": ["trex"], "trex_order": [0, 1, 2, 3]},
        complex_with_leader(3),
    ]
    scored = read_game(game).score()
    # K♥ doubled by seat 1 and taken back, led by seat 3: seat 1 -150, seat 3 +75.
    # Diamonds [3, 6, 0, 4] x -10; queens: seat 1 three (-75), seat 3 one (-25);
    # tricks [3, 6, 0, 4] x -15.
    assert scored.deals[1] == (-30 - 45, -150 - 60 - 75 - 90, 0, 75 - 40 - 25 - 60)


def test_combined_deals_leader_credit_checked_in_a_combination_without_complex():
    raw = {
        "king": 3,
        "contracts": ["king_of_hearts", "collections"],
        "king_of_hearts": {"taker": 2, "doubled_by": 2, "led_by": 0},
        "tricks": [0, 6, 3, 4],
    }
    rules = {"combining": "combination", "self_capture": "leader-credit"}
    assert entry_problems(raw, rules, first_king=3) == [
        "Deal 1, Collections: Aya took no trick and is not the King, so they cannot have led "
        "to the trick with the K♥"
    ]
    raw["king_of_hearts"]["led_by"] = 3  # the King led it
    assert entry_problems(raw, rules, first_king=3) == []
    alone = {
        "king": 3,
        "contracts": ["king_of_hearts"],  # K♥ alone: no tricks are known
        "king_of_hearts": {"taker": 2, "doubled_by": 2, "led_by": 0},
    }
    assert entry_problems(alone, rules, first_king=3) == []


# --- RULES.md "King of Hearts": the K♥ alone, the A♥ alone, or K♥ + A♥ ask for a redeal ------
def test_king_of_hearts_redeal_request_the_ace_of_hearts_alone_asks():
    from scorekeeper.engine.cards import mask_of
    from scorekeeper.engine.contracts import Contract
    from scorekeeper.engine.play import KH_REDEAL, kh_redeal_seats, redeal_requests
    from handbuilder import fill_hands

    # Seat 3 holds the A♥ and no other heart; seat 1 the K♥ alone: both may ask, in turn from
    # the dealer (seat 2), so seat 3 first.
    hands = [
        mask_of(h)
        for h in fill_hands(
            {
                3: "AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                1: "KH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
            }
        )
    ]
    rules = HouseRules()
    assert kh_redeal_seats(hands, rules, dealer=2) == [3, 1]
    assert redeal_requests(hands, 2, (Contract.KING_OF_HEARTS,), rules) == [
        (3, KH_REDEAL),
        (1, KH_REDEAL),
    ]
    assert redeal_requests(hands, 2, (Contract.QUEENS,), rules) == []


HEART_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(HEART_RANKS), max_size=6), st.booleans())
def test_king_of_hearts_redeal_request_by_the_hearts_held(hearts, any_doubleton):
    from scorekeeper.engine.cards import mask_of, parse_cards
    from scorekeeper.engine.play import kh_redeal_allowed

    hand = mask_of(parse_cards(" ".join([f"{r}H" for r in hearts] + ["2S", "3C"])))
    allowed = hearts in ({"K"}, {"A"}, {"K", "A"}) or (
        any_doubleton and "K" in hearts and len(hearts) == 2
    )
    assert kh_redeal_allowed(hand, HouseRules(kh_redeal_any_doubleton=any_doubleton)) is allowed


# --- RULES.md "King of Hearts", "Trex": a redeal request follows the announcement ------------
def thrown_in(king: int, reason: str, by: int = 2) -> dict:
    return {"king": king, "thrown_in": {"reason": reason, "by": by}}


def progress_after(doc: dict, count: int) -> Progress:
    game = read_game({**doc, "deals": doc["deals"][:count]})
    return game.progress()


# standard_game plays each kingdom as Trex, King of Hearts, Diamonds, Queens, Collections.
@pytest.mark.parametrize(
    "before, reason, message",
    [
        (0, "kh-redeal", None),  # nothing played yet
        (1, "kh-redeal", None),  # Trex played, King of Hearts still open
        (
            2,
            "kh-redeal",
            "Deal 3: Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal",
        ),
        (
            4,
            "kh-redeal",
            "Deal 5: Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal",
        ),
        (0, "trex-twos", None),
        (1, "trex-twos", "Deal 2: Aya cannot announce Trex now, so nobody can throw in for the 2s"),
        (4, "misdeal", None),
        (4, "other", None),
    ],
)
def test_king_of_hearts_and_trex_redeal_request_only_while_the_contract_is_open(
    before, reason, message
):
    doc = standard_game()
    doc["deals"].insert(before, thrown_in(0, reason))
    if message is None:
        assert read_game(doc).score().is_over
    else:
        assert refused(doc) == [message]


def test_king_of_hearts_redeal_request_in_the_next_kingdom_is_open_again():
    doc = standard_game()
    doc["deals"].insert(5, thrown_in(1, "kh-redeal"))  # Bilal's kingdom, before its deals
    doc["deals"].insert(5, thrown_in(1, "trex-twos"))
    assert read_game(doc).score().is_over


def test_redeals_possible_throw_in_reasons_as_the_kingdom_goes():
    doc = standard_game()
    seen = [progress_after(doc, n).possible_throw_in_reasons() for n in (0, 1, 2, 4, 5, 20)]
    assert seen == [
        ("kh-redeal", "trex-twos", "misdeal", "other"),
        ("kh-redeal", "misdeal", "other"),
        ("misdeal", "other"),
        ("misdeal", "other"),
        ("kh-redeal", "trex-twos", "misdeal", "other"),  # the next kingdom
        (),
    ]  # the game is over


def test_king_of_hearts_redeal_request_complex_while_the_complex_deal_is_open():
    from gamebuilder import complex_game

    doc = complex_game()  # each kingdom: Trex, then the Complex deal
    assert progress_after(doc, 1).possible_throw_in_reasons() == ("kh-redeal", "misdeal", "other")
    doc["deals"].insert(1, thrown_in(0, "kh-redeal"))
    assert read_game(doc).score().is_over
    doc["deals"].insert(3, thrown_in(1, "kh-redeal"))  # Bilal's kingdom, nothing played yet
    doc["deals"].insert(5, thrown_in(1, "kh-redeal"))  # after Bilal's Trex: still open
    assert read_game(doc).score().is_over
    late = complex_game()
    late["deals"][0], late["deals"][1] = late["deals"][1], late["deals"][0]  # Complex first
    late["deals"].insert(1, thrown_in(0, "trex-twos"))  # Trex is still open
    assert read_game(late).score().is_over
    late["deals"].insert(1, thrown_in(0, "kh-redeal"))  # the Complex deal is played
    assert refused(late) == [
        "Deal 2: Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal"
    ]


def test_king_of_hearts_redeal_request_fixed_order_only_when_it_can_be_announced():
    order = ["diamonds", "king_of_hearts", "queens", "collections", "trex"]
    doc = standard_game(rules={"fixed_order": order})
    doc["deals"] = [{"king": 0, "contracts": ["diamonds"], "diamonds": [4, 3, 2, 4]}]
    assert progress_after(doc, 0).possible_throw_in_reasons() == ("misdeal", "other")
    assert progress_after(doc, 1).possible_throw_in_reasons() == ("kh-redeal", "misdeal", "other")
    doc["deals"].insert(0, thrown_in(0, "kh-redeal"))
    assert refused(doc) == [
        "Deal 1: Aya cannot announce King of Hearts now, so nobody can ask for a K♥ redeal"
    ]
    combination = {**doc, "rules": {"fixed_order": order, "combining": "combination"}}
    # Diamonds comes next, and the King may combine it with King of Hearts.
    assert progress_after(combination, 1).possible_throw_in_reasons() == (
        "kh-redeal",
        "misdeal",
        "other",
    )
    assert read_game(combination).deals[0].is_thrown_in


def test_redeals_possible_throw_in_reasons_as_an_entry():
    doc = standard_game()
    progress = progress_after(doc, 2)
    record, problems = validate_entry(thrown_in(0, "kh-redeal"), progress)
    assert record is None and [p.code for p in problems] == ["kh_redeal_closed"]
    assert problems[0].field == "thrown_in.reason"
    record, problems = validate_entry(thrown_in(0, "misdeal"), progress)
    assert record is not None and problems == []


# --- RULES.md "Sweeps": the swept player may ask for the replay; a kept sweep scores ----------
SWEEPS = {"sweep_replay": {"collections_tricks": 10}}


def with_deal(deal: dict, rules: dict, at: int = 4) -> dict:
    """The standard game under *rules* with *deal* in place of deal *at* (Aya's Collections)."""
    doc = standard_game(rules=rules)
    doc["deals"][at] = deal
    return doc


def swept_collections(**extra) -> dict:
    return {"king": 0, "contracts": ["collections"], "tricks": [10, 1, 1, 1], **extra}


def test_sweeps_a_sweep_kept_as_played_scores_normally_and_uses_up_the_contract():
    game = read_game(with_deal(swept_collections(sweep_kept=True), SWEEPS))
    scored = game.score()
    assert scored.deals[4] == (-150, -15, -15, -15)
    assert scored.is_over and game.deals[4].sweep_kept
    assert game_to_dict(game)["deals"][4] == swept_collections(sweep_kept=True)


def test_sweeps_a_sweep_without_the_key_is_replayed_as_before():
    doc = with_deal(swept_collections(), SWEEPS)
    game = read_game({**doc, "deals": doc["deals"][:5]})
    assert game.score().deals[4] == (0, 0, 0, 0)
    assert game.progress().contracts_left() == (Contract.COLLECTIONS,)
    assert "sweep_kept" not in game_to_dict(game)["deals"][4]


def test_sweeps_a_sweep_of_one_contract_replays_the_whole_combined_deal():
    rules = {"combining": "combination", **SWEEPS}
    deal = {
        "king": 0,
        "contracts": ["diamonds", "queens"],
        "diamonds": [13, 0, 0, 0],
        "queens": {
            "spades": {"taker": 1},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 0},
            "clubs": {"taker": 3},
        },
    }
    replayed = read_game({**standard_game(rules=rules), "deals": [deal]})
    assert replayed.score().deals == ((0, 0, 0, 0),)
    assert Contract.DIAMONDS in replayed.progress().contracts_left()
    assert Contract.QUEENS in replayed.progress().contracts_left()
    kept = read_game({**standard_game(rules=rules), "deals": [{**deal, "sweep_kept": True}]})
    # Kept, both contracts score: seat 0 takes 13 diamonds (-130) and the Q♦ (-25).
    assert kept.score().deals == ((-155, -25, -25, -25),)
    assert kept.progress().contracts_left() == (
        Contract.KING_OF_HEARTS,
        Contract.COLLECTIONS,
        Contract.TREX,
    )


@pytest.mark.parametrize(
    "deal, rules, message",
    [
        (
            swept_collections(tricks=[9, 2, 1, 1], sweep_kept=True),
            SWEEPS,
            "Deal 5: nobody swept this deal, so there is no sweep to keep",
        ),
        (
            swept_collections(sweep_kept=True),
            {},
            "Deal 5: sweeps are not replayed in this game, so there is no sweep to keep",
        ),
        (
            swept_collections(sweep_kept=False),
            SWEEPS,
            "Deal 5: 'sweep_kept' is written only as true, on a sweep the table kept",
        ),
        (
            swept_collections(sweep_kept="yes"),
            SWEEPS,
            "Deal 5: 'sweep_kept' is written only as true, on a sweep the table kept",
        ),
        (
            {"king": 0, "thrown_in": {"reason": "misdeal", "by": 1}, "sweep_kept": True},
            SWEEPS,
            "Deal 5: nobody swept this deal, so there is no sweep to keep",
        ),
    ],
)
def test_sweeps_sweep_kept_only_on_a_sweep_under_sweep_replay(deal, rules, message):
    assert message in refused(with_deal(deal, rules))


def test_sweeps_sweep_kept_as_an_entry():
    progress = Progress(HouseRules.from_dict(SWEEPS), 0, NAMES)
    record, problems = validate_entry(swept_collections(sweep_kept=True), progress)
    assert record is not None and record.sweep_kept and problems == []
    _record, problems = validate_entry(
        swept_collections(tricks=[4, 3, 3, 3], sweep_kept=True), progress
    )
    assert [(p.code, p.field) for p in problems] == [("sweep_kept_not_swept", "sweep_kept")]


@pytest.mark.parametrize(
    "at, deal, message",
    [
        (
            3,
            {"king": 0, "contracts": ["diamonds"], "diamonds": [13, 0, 0, 0]},
            "Deal 4, Diamonds: Diamonds has already been played in this kingdom",
        ),
        (
            0,
            {
                "king": 0,
                "contracts": ["collections", "diamonds"],
                "tricks": [10, 1, 1, 1],
                "diamonds": [10, 1, 1, 1],
            },
            "Deal 1: these rules play one contract per deal",
        ),
    ],
)
def test_sweeps_a_replayed_sweep_was_announced_like_any_deal(at, deal, message):
    doc = standard_game(rules=SWEEPS)
    doc["deals"].insert(at, deal)
    assert refused(doc) == [message]


def test_king_of_hearts_redeal_request_the_simulator_records_plain_seats():
    """A thrown-in deal's ``by`` is a plain int in the game file, as GAME_FORMAT.md writes it."""
    from scorekeeper.engine.simulate import simulate_game

    doc = simulate_game(4, HouseRules(combining="combination", kh_redeal_any_doubleton=True))
    asked = [d["thrown_in"]["by"] for d in doc["deals"] if "thrown_in" in d]
    assert asked and all(type(s) is int for s in asked)


def thirteen_in_four() -> st.SearchStrategy[list[int]]:
    """Four whole counts that add up to 13."""
    return (
        st.lists(st.integers(0, 13), min_size=3, max_size=3)
        .filter(lambda c: sum(c) <= 13)
        .map(lambda c: [*c, 13 - sum(c)])
    )


@settings(max_examples=150, deadline=None)
@given(thirteen_in_four(), st.integers(7, 13), st.booleans())
def test_sweeps_sweep_kept_exactly_on_a_sweep(tricks, n, kept):
    raw = {"king": 0, "contracts": ["collections"], "tricks": tricks}
    if kept:
        raw["sweep_kept"] = True
    rules = {"sweep_replay": {"collections_tricks": n}}
    problems = entry_problems(raw, rules)
    swept = max(tricks) >= n
    assert problems == (
        []
        if swept or not kept
        else ["Deal 1: nobody swept this deal, so there is no sweep to keep"]
    )
    game = read_game({**standard_game(rules=rules), "deals": [raw]}) if not problems else None
    if game is not None:
        replayed = swept and not kept
        assert game.score().deals[0] == (
            (0, 0, 0, 0) if replayed else tuple(-15 * t for t in tricks)
        )
        assert (Contract.COLLECTIONS in game.progress().contracts_left()) is replayed


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.data())
def test_redeals_an_entry_form_may_offer_exactly_the_possible_reasons(seed, data):
    """At any point of a simulated game, a thrown-in deal is accepted for exactly the reasons
    possible_throw_in_reasons() gives."""
    from scorekeeper.engine.simulate import simulate_game

    rules = data.draw(
        st.sampled_from(
            [
                {},
                {"combining": "complex"},
                {"combining": "combination", "fixed_order": CONTRACT_NAMES[::-1]},
            ]
        )
    )
    doc = simulate_game(seed, HouseRules.from_dict(rules))
    cut = data.draw(st.integers(0, len(doc["deals"]) - 1))
    progress = progress_after(doc, cut)
    offered = progress.possible_throw_in_reasons()
    assert {"misdeal", "other"} <= set(offered)
    for reason in ("kh-redeal", "trex-twos", "misdeal", "other"):
        record, _ = validate_entry(thrown_in(doc["deals"][cut]["king"], reason), progress)
        assert (record is not None) is (reason in offered)
