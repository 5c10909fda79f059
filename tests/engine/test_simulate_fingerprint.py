"""The simulator and the bots make the same choices as they always did: the same seed gives the
same game, card for card. Speed work on the bots and the simulator must leave these digests as
they are; they were taken from the code before that work (``HeuristicBot`` at 124 games/s).

A digest changes only when a bot's judgement is changed on purpose; then say so in the commit
and take the new digest from the code that changes it.
"""

from __future__ import annotations

import hashlib
import json
import random

from scorekeeper.engine.bots import make_bot
from scorekeeper.engine.cards import Card, deal_masks
from scorekeeper.engine.contracts import Contract
from scorekeeper.engine.play import new_deal
from scorekeeper.engine.rules import HouseRules
from scorekeeper.engine.simulate import play_out, simulate_game

FIXED = ["trex", "queens", "king_of_hearts", "diamonds", "collections"]
#: Every variant that changes how a deal is played, chosen or scored.
RULE_TABLE = [
    {},
    {"no_heart_lead": True, "must_discard_penalty": True},
    {"combining": "complex"},
    {"combining": "combination", "self_capture": "leader-credit"},
    {"sweep_replay": {"collections_tricks": 7}, "rotation": "table-picks"},
    {"partnership": True, "team_result": "worst-loses", "kh_redeal_any_doubleton": True},
    {"fixed_order": FIXED},
    {"fixed_order": FIXED, "combining": "combination"},
    {"reverse_scores": True, "swap_diamonds_collections": True, "doubling": False},
]
KH, DI, QU, CO, TX = (
    Contract.KING_OF_HEARTS,
    Contract.DIAMONDS,
    Contract.QUEENS,
    Contract.COLLECTIONS,
    Contract.TREX,
)
DEAL_SHAPES = [(KH,), (DI,), (QU,), (CO,), (KH, DI, QU, CO), (DI, QU), (TX,)]


def games_digest(bot, seeds: range) -> str:
    digest = hashlib.sha256()
    for rules in RULE_TABLE:
        house = HouseRules.from_dict(rules)
        for seed in seeds:
            doc = simulate_game(seed, house, bot)
            digest.update(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


def _plain(value):
    """A history record's fields as JSON values: a card as its text, a seat as its number."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return int(value)


def deals_digest(name: str, seeds: range) -> str:
    """Single deals played out by four bots: every record of every deal's history (each double,
    card, trick, pass and finish), as the contract advisor will play them."""
    digest = hashlib.sha256()
    for rules in RULE_TABLE:
        house = HouseRules.from_dict(rules)
        for seed in seeds:
            rng = random.Random(seed)
            bot = make_bot(name, rng)
            for shape in DEAL_SHAPES:
                deal = new_deal(deal_masks(rng), seed % 4, shape, house)
                play_out(deal, [bot] * 4)
                history = [(type(record).__name__, _plain(record)) for record in deal.history]
                digest.update(
                    json.dumps(
                        [history, deal.result()], sort_keys=True, separators=(",", ":")
                    ).encode()
                )
    return digest.hexdigest()


def test_fingerprint__heuristic_games_are_the_same_games():
    assert games_digest("heuristic", range(12)) == (
        "debf60cfebe7c99fcadfacf6f00f31583ce5785a520efd5cd842d5140cb26fcd"
    )


def test_fingerprint__mixed_tables_are_the_same_games():
    assert games_digest(["heuristic", "random", "heuristic", "random"], range(6)) == (
        "b5f8270067674133b4506785dd2a3f38f63cae8957765ae931b237990e1cc0c5"
    )


def test_fingerprint__random_games_are_the_same_games():
    assert games_digest("random", range(30)) == (
        "e0e49baf6bbec6cff0136782423a832a414ad39a54f441441dc922ef391acf7f"
    )


def test_fingerprint__heuristic_deals_are_played_card_for_card_the_same():
    assert deals_digest("heuristic", range(8)) == DEALS_HEURISTIC


def test_fingerprint__random_deals_are_played_card_for_card_the_same():
    assert deals_digest("random", range(8)) == DEALS_RANDOM


DEALS_HEURISTIC = "2ca8853ea497c06dce3e5dcedb9ff9696e477d015b7c70220a4262483f3a0e81"
DEALS_RANDOM = "3253e9c27373f6c1632cfcb04bb0541c64df0163eb7b7fff6233db4e99491424"
