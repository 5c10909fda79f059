"""The English text of every problem the engine reports, by message code.

Each template is a ``str.format`` pattern over the problem's parameters. A translating layer maps
the same codes to its own templates with the same parameters.
"""

from __future__ import annotations

from typing import Any, Mapping


def N_(message: str) -> str:
    """Marks *message* for the catalog (``pybabel extract -k N_``); whoever shows it
    translates it. The engine imports no translation library: this is all it needs."""
    return message


MESSAGES: dict[str, str] = {
    # structure of a game file
    "not_json": N_("the file is not JSON ({detail})"),
    "empty_file": N_("the file is empty"),
    "no_games": N_("the file holds no game"),
    "not_an_object": N_("the game must be a JSON object"),
    "bad_format": N_('the format is {found!r}; expected "trex-game/1"'),
    "unknown_key": N_("unknown field {key!r}"),
    "duplicate_key": N_("the field {key!r} is given twice in one object; name each field once"),
    "extra_too_big": N_(
        "the fields the game format does not name take {size} KB, more than the "
        "{limit} KB a game keeps; the largest is {key!r}"
    ),
    "players_not_four": N_("there must be four player names"),
    "player_name_empty": N_("player {seat} has no name"),
    "player_name_too_long": N_("the name of player {seat} is longer than {limit} characters"),
    "player_name_control": N_("the name of player {seat} holds a control character"),
    "player_name_invisible": N_("the name of player {seat} shows no letter or digit"),
    "player_name_hidden": N_(
        "the name of player {seat} holds a character that does not show "
        "(a direction mark or a zero-width space)"
    ),
    "player_name_marks": N_("the name of player {seat} stacks more than three marks on one letter"),
    "player_name_twice": N_("{name!r} is named twice; each player needs their own name"),
    "bad_rules": N_("{detail}"),
    # house rules (RulesError)
    "rules_not_object": N_("the house rules must be an object of settings"),
    "rule_unknown": N_("unknown house rule {key!r}; known rules: {known}"),
    "rule_not_bool": N_("house rule {key!r} must be true or false, not {value!r}"),
    "rule_bad_choice": N_("house rule {key!r} cannot be {value!r}; allowed: {allowed}"),
    "rule_fixed_order": N_(
        "house rule 'fixed_order' must be null or list each of the five contracts once ({names})"
    ),
    "rule_sweep": N_(
        "house rule 'sweep_replay' must be null or {{\"collections_tricks\": N}} "
        "with N from {low} to {high}"
    ),
    "rule_needs": N_("house rule {key!r} is played only with {other!r} set to {value}"),
    "rule_excludes": N_("house rule {key!r} cannot be played with {other!r} set to {value}"),
    "bad_first_king": N_("the first King must be a seat from 0 to 3"),
    "no_first_king": N_("the game does not say who the first King is"),
    "deals_not_list": N_("the deals must be a list"),
    "deal_not_object": N_("the deal must be an object"),
    "bad_title": N_("the title must be text of at most {limit} characters"),
    "title_control": N_("the title holds a control character"),
    "bad_date": N_("the date must be written as YYYY-MM-DD"),
    # one deal's structure
    "bad_seat": N_("{what} must be a seat from 0 to 3, not {value!r}"),
    "no_contracts": N_("the deal names no contract"),
    "unknown_contract": N_("{value!r} is not a contract"),
    "contract_twice": N_("{contract} is listed twice"),
    "thrown_in_with_contracts": N_("a thrown-in deal has no contracts or results"),
    "sweep_kept_not_true": N_("'sweep_kept' is written only as true, on a sweep the table kept"),
    "sweep_kept_off": N_("sweeps are not replayed in this game, so there is no sweep to keep"),
    "sweep_kept_not_swept": N_("nobody swept this deal, so there is no sweep to keep"),
    "bad_thrown_in_reason": N_("the reason for the redeal must be one of {allowed}"),
    "missing_field": N_("the result is missing"),
    "extra_field": N_("{key!r} belongs to a contract that this deal did not play"),
    "trex_not_alone": N_("Trex is always played alone"),
    "combining_off": N_("these rules play one contract per deal"),
    "complex_needs_all_four": N_("under Complex a combined deal plays all four negative contracts"),
    # counts
    "counts_not_four": N_("give four counts, one per player"),
    "count_not_whole": N_("the count for {player} must be a whole number, not {value!r}"),
    "count_negative": N_("the count for {player} cannot be negative"),
    "counts_sum": N_("the counts add up to {total}, not {expected}"),
    # who took which card
    "capture_not_object": N_("say who took {card}"),
    "capture_unknown_key": N_("{key!r} is not something the table enters for {card}"),
    "doubling_off": N_("{card} cannot be doubled: doubling is off in this game"),
    "led_by_unneeded": N_(
        "who led matters only when the holder of a doubled card took it under "
        "the leader-credit rule"
    ),
    "led_by_missing": N_("{card} was doubled and taken by its holder: say who led to that trick"),
    "queens_not_four": N_("say who took each of the four queens"),
    # finishing order
    "order_not_four": N_("give the finishing order of all four players"),
    "order_repeats": N_("{player} finishes twice in the order"),
    # combined-deal cross-checks (RULES.md "Combined deals")
    "qd_taker_no_diamond": N_("{player} took the Q♦, so they took at least one diamond"),
    "no_trick_but_cards": N_("{player} took no trick, so they cannot have taken {card}"),
    "leader_no_trick": N_(
        "{player} took no trick and is not the King, so they cannot have led to "
        "the trick with {card}"
    ),
    "too_many_cards_for_tricks": N_(
        "{player} took {cards} penalty cards; at four cards a "
        "trick that takes at least {needed} tricks, not {tricks}"
    ),
    # the game's progression
    "too_many_deals": N_("a game holds at most {limit} deals, redeals included"),
    "too_many_games": N_("a file imports at most {limit} games, not {count}: split it"),
    "group_full": N_(
        "this group keeps at most {limit} games; it holds {stored}, and the "
        "file brings {count} more"
    ),
    "game_over": N_("the game is over after four kingdoms; this deal is one too many"),
    "wrong_king": N_("this deal belongs to {expected}'s kingdom, not {found}'s"),
    "king_again": N_("{player} has already been King"),
    "not_next_king": N_("the next King is {expected}, the player to the right of the last King"),
    "contract_used": N_("{contract} has already been played in this kingdom"),
    "not_fixed_order": N_("under the fixed order the next contract is {expected}"),
    "complex_trex_pair": N_("under Complex a kingdom is one Complex deal and one Trex deal"),
    "kh_redeal_closed": N_(
        "{king} cannot announce King of Hearts now, so nobody can ask for a K♥ redeal"
    ),
    "trex_twos_closed": N_("{king} cannot announce Trex now, so nobody can throw in for the 2s"),
    "kh_redeal_off": N_("nobody may ask for a K♥ redeal: this game plays without redeal requests"),
    "trex_twos_off": N_(
        "nobody may throw in for the 2s in Trex: this game plays without redeal requests"
    ),
    "first_deal_king": N_("the first deal must be dealt by the first King, {expected}"),
    "deal_not_found": N_("there is no deal {number}"),
    # a stored game read leniently: a deal that a later check refuses (Game.no_longer_passes)
    "no_longer_passes": N_("deal {deal} no longer passes: {why}"),
    # totals that were given in a file and disagree
    "scores_differ": N_("the scores given are {given}, but the deal scores {computed}"),
    "totals_differ": N_("the totals given are {given}, but the game totals are {computed}"),
    "team_totals_differ": N_("the team totals given are {given}, but they are {computed}"),
    "team_result_differ": N_("the team result given is {given!r}, but it is {computed!r}"),
    "places_differ": N_("the places given are {given}, but the places are {computed}"),
    "winners_differ": N_(
        "the winners given are seats {given}, but the winners are seats {computed}"
    ),
    "not_over_no_winner": N_("{key!r} is given, but the game is not over, so nobody has won yet"),
    # the contract advisor: the King's hand and the open contracts
    "hand_not_card": N_(
        "{value!r} is not a card; write a rank (2-9, T or 10, J, Q, K, A) and a "
        "suit (S, H, D, C or ♠ ♥ ♦ ♣), for example KH or 10♦"
    ),
    "hand_card_twice": N_("the card {value} is given twice"),
    "hand_size": N_("a hand has 13 cards, not {count}"),
    "advice_unknown_contract": N_("{value!r} is not a contract; the contracts are {allowed}"),
    "advice_nothing_open": N_("name at least one open contract"),
}


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English text of a problem; an unknown code renders as itself."""
    template = MESSAGES.get(code, code)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


#: What a seat answers, in the ``question`` of a ``bad_seat`` problem (English; translated by
#: the web wing like the templates above).
SEAT_QUESTIONS = (
    N_("who took it"),
    N_("who doubled it"),
    N_("who led"),
    N_("each place in the order"),
    N_("the King"),
    N_("who asked for the redeal"),
)
