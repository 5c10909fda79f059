"""Whole games played card by card by bots, returned as file-format game dicts.

A game follows RULES.md: four kingdoms; in each, the King looks at their hand and chooses among
the contracts (or groups of contracts) left; redeal requests and Trex throw-ins are recorded as
thrown-in deals and the King chooses again; under ``sweep_replay`` a swept deal is recorded as
played and, when a player who swept it asks for the replay, its contracts stay to be played
again (else it is recorded as kept, ``"sweep_kept": true``, and scores).

With random bots the cards are played by :mod:`.play.fast`, which makes the same draws as the
bots driving the deal objects, so both ways give the same game.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Iterator, Sequence

from .bots import Bot, RandomBot, make_bot
from .cards import CARDS, SEVEN_OF_HEARTS, hand_masks, shuffled_indices
from .contracts import ALL_CONTRACTS, Contract
from .errors import RuleError
from .progression import deal_options
from .play import TrexDeal, TrickDeal, doubling_queue, is_sweep, new_deal, redeal_requests
from .play.fast import play_trex_randomly, play_tricks_randomly
from .play.tally import trex_result
from .records import SWEEP_KEPT, read_deal
from .rules import HouseRules
from .scoring import score_deal, swept_seats
from .seats import seats_from

FORMAT = "trex-game/1"
KINGDOMS = 4
#: After this many redeal requests in a row, nobody is asked again until a deal is played.
MAX_REDEALS_IN_A_ROW = 20
TREX_ONLY = (Contract.TREX,)
#: Called with each deal played card by card and its file-format result as recorded.
Observer = Callable[[TrickDeal | TrexDeal, dict[str, Any]], None]
ALL_LEFT = (1 << len(ALL_CONTRACTS)) - 1

BotSpec = str | Bot


def play_out(deal: TrickDeal | TrexDeal, bots: Sequence[Bot]) -> None:
    """Let the bots (one per seat) play *deal* to its end; forced moves are made for them."""
    while not deal.is_over:
        seat = int(deal.current_player)  # type: ignore[arg-type]
        card = deal.pending_double
        if card is not None:
            deal.double(card, bots[seat].choose_double(deal.hand_mask(seat), card))  # type: ignore[union-attr]
            continue
        legal = deal.legal_mask()
        if not legal:
            deal.pass_turn()  # type: ignore[union-attr]
        elif not legal & (legal - 1):
            deal.play_index(legal.bit_length() - 1)
        else:
            deal.play(bots[seat].choose_play(deal, deal.legal_plays()))


class _Table:
    """The bots, the rules and the one random generator of a simulated game."""

    def __init__(self, rng: random.Random, rules: HouseRules,
                 bot: BotSpec | Sequence[BotSpec], fast: bool,
                 observe: Observer | None = None):
        self.rng = rng
        self.observe = observe
        self.rules = rules
        if isinstance(bot, str):
            self.bots: list[Bot] = [make_bot(bot, rng)] * 4
        else:
            specs = [bot] * 4 if not isinstance(bot, Sequence) else list(bot)
            if len(specs) != 4:
                raise ValueError("Give one bot, or four bots (one per seat).")
            self.bots = [make_bot(b, rng) if isinstance(b, str) else b for b in specs]
        first = self.bots[0]
        same = all(b is first for b in self.bots)
        fast = fast and observe is None
        self.fast = first.random if fast and same and type(first) is RandomBot else None
        self._options: dict[int, list[tuple[Contract, ...]]] = {}

    def options(self, left: int) -> list[tuple[Contract, ...]]:
        """The King's options when the contracts in the bit set *left* are still to play."""
        options = self._options.get(left)
        if options is None:
            contracts = [c for i, c in enumerate(ALL_CONTRACTS) if left >> i & 1]
            options = self._options[left] = deal_options(contracts, self.rules)
        return options

    def choose(self, hand: int, king: int, options: list[tuple[Contract, ...]],
               ) -> tuple[Contract, ...]:
        choice = tuple(self.bots[king].choose_deal(hand, options, self.rules))
        if choice not in options:
            raise RuleError(f"The King chose {', '.join(c.value for c in choice)}, which is not "
                            "one of the contracts left to choose from.")
        return choice

    def redeal_request(self, hands: list[int], king: int,
                       contracts: tuple[Contract, ...]) -> tuple[int, str] | None:
        for seat, reason in redeal_requests(hands, king, contracts, self.rules):
            if self.bots[seat].wants_redeal(hands[seat], reason):
                return seat, reason
        return None

    def play(self, deck: list[int], hands: list[int], king: int,
             contracts: tuple[Contract, ...]) -> dict[str, Any]:
        """Play the deal and return its result, marked as kept when it is a sweep that nobody
        who swept it asks to replay."""
        deal = None
        if self.fast is None:
            deal = new_deal(hands, king, contracts, self.rules)
            play_out(deal, self.bots)
            result = deal.result()
        elif contracts == TREX_ONLY:
            result = trex_result(king, play_trex_randomly(hands, king, self.fast))
        else:
            result = self._play_fast(deck, hands, king, contracts, self.fast)
        if self.keeps_sweep(result, king):
            result[SWEEP_KEPT] = True
        if deal is not None and self.observe is not None:
            self.observe(deal, result)
        return result

    def _play_fast(self, deck: list[int], hands: list[int], king: int,
                   contracts: tuple[Contract, ...], random_: Callable[[], float],
                   ) -> dict[str, Any]:
        doubled = {}
        for seat, index in doubling_queue(hands, king, contracts, self.rules):
            if self.bots[seat].choose_double(hands[seat], CARDS[index]):
                doubled[index] = seat
        lists = [sorted(deck[0:13]), sorted(deck[13:26]), sorted(deck[26:39]), sorted(deck[39:52])]
        return play_tricks_randomly(lists, king, contracts, self.rules, doubled, random_)

    def keeps_sweep(self, result: dict[str, Any], king: int) -> bool:
        """Under ``sweep_replay``, a swept deal is kept unless a player who swept it asks for the
        replay; they are asked in turn from the King (RULES.md "Sweeps")."""
        if self.rules.sweep_replay is None:
            return False
        record, _problems = read_deal(result)
        sweepers = swept_seats(record, self.rules) if record is not None else ()
        if not sweepers:
            return False
        points = score_deal(replace(record, sweep_kept=True), self.rules)  # type: ignore[arg-type]
        return not any(self.bots[seat].wants_replay(points[seat], self.rules)
                       for seat in seats_from(king) if seat in sweepers)

    def next_king(self, kings: list[int]) -> int:
        if self.rules.rotation == "table-picks":
            candidates = [s for s in range(4) if s not in kings]
            return candidates[int(self.rng.random() * len(candidates))]
        return (kings[-1] + 1) % 4


def _holder(hands: Sequence[int], card_index: int) -> int:
    return next(s for s in range(4) if hands[s] >> card_index & 1)


def simulate_game(seed: int, rules: HouseRules | None = None,
                  bot: BotSpec | Sequence[BotSpec] = "random",
                  players: Sequence[str] | None = None, *, fast: bool = True,
                  observe: Observer | None = None) -> dict[str, Any]:
    """Play one whole game with bots and return it as a file-format game dict.

    *bot* names the bot for all four seats (``"random"``, ``"heuristic"``), or gives four, one
    per seat, as names or objects. The same seed, rules and bots give the same game. *fast*
    lets random bots play through the fast path (the game is the same either way).
    *observe*, when given, is called with each played deal, played through the deal objects,
    and its result as recorded.
    """
    rules = rules or HouseRules()
    rng = random.Random(seed)
    table = _Table(rng, rules, bot, fast, observe)
    names = list(players) if players is not None else [
        f"{getattr(b, 'name', 'bot').title()} {s}" for s, b in enumerate(table.bots)]
    if len(names) != 4:
        raise ValueError("A game needs four player names.")
    deck = shuffled_indices(rng)
    first_hands = hand_masks(deck)
    first_king = _holder(first_hands, SEVEN_OF_HEARTS.index)
    hands: list[int] | None = first_hands
    kings: list[int] = []
    deals: list[dict[str, Any]] = []
    for _ in range(KINGDOMS):
        king = first_king if not kings else table.next_king(kings)
        kings.append(king)
        left = ALL_LEFT
        redeals = 0
        while left:
            if hands is None:
                deck = shuffled_indices(rng)
                hands = hand_masks(deck)
            contracts = table.choose(hands[king], king, table.options(left))
            request = None
            if redeals < MAX_REDEALS_IN_A_ROW:
                request = table.redeal_request(hands, king, contracts)
            if request is not None:
                deals.append({"king": king, "thrown_in": {"reason": request[1], "by": request[0]}})
                redeals += 1
                hands = None
                continue
            result = table.play(deck, hands, king, contracts)
            deals.append(result)
            hands = None
            redeals = 0
            if not is_sweep(result, rules) or result.get(SWEEP_KEPT):
                for contract in contracts:
                    left &= ~(1 << ALL_CONTRACTS.index(contract))
    return {
        "format": FORMAT,
        "title": f"Simulated game, seed {seed}",
        "players": names,
        "rules": rules.to_dict(only_changed=True),
        "first_king": first_king,
        "deals": deals,
    }


def simulate_games(n: int, seed: int = 0, rules: HouseRules | None = None,
                   bot: BotSpec | Sequence[BotSpec] = "random") -> Iterator[dict[str, Any]]:
    """*n* games; game *i* is ``simulate_game(seed + i, rules, bot)``."""
    for i in range(n):
        yield simulate_game(seed + i, rules, bot)
