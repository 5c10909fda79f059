"""Whole games played card by card by bots, returned as file-format game dicts.

A game follows RULES.md: four kingdoms; in each, the King looks at their hand and chooses among
the contracts (or groups of contracts) left; redeal requests and Trex throw-ins are recorded as
thrown-in deals and the King chooses again; under ``sweep_replay`` a swept deal is recorded as
played and, when a player who swept it asks for the replay, its contracts stay to be played
again (else it is recorded as kept, ``"sweep_kept": true``, and scores).

With random bots the cards are played by :mod:`.play.fast`, which makes the same draws as the
bots driving the deal objects, and with the other bots of :mod:`.bots` by :mod:`.play.quick`,
where they choose on masks, so every way gives the same game. Each deal's points are counted
from the cards as they fall (:mod:`.play.tally`, independently of :mod:`.scoring`):
:func:`play_game` returns them beside the game, so that a simulation needs neither to read its
own games back nor to score them again (``scorekeeper simulate --check`` does both, and the
tests hold the two counts to each other).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, NamedTuple, Sequence, cast

from .bots import Bot, RandomBot, make_bot, plays_on_masks
from .cards import CARDS, SEVEN_OF_HEARTS, hand_masks, indices_of, shuffled_indices
from .contracts import ALL_CONTRACTS, Contract
from .errors import RuleError
from .progression import deal_options
from .play import (
    TrexDeal,
    TrickDeal,
    doubling_queue,
    is_split_queens,
    is_sweep,
    new_deal,
    redeal_requests,
    trick_contracts,
)
from .play.base import hands_to_masks
from .play.fast import play_trex_randomly, play_tricks_randomly
from .play.quick import MaskPlayer, play_trex, play_tricks
from .play.tally import (
    contract_card_points,
    contract_final_points,
    trex_contract_points,
    trex_result,
    trick_result,
)
from .records import SWEEP_KEPT, read_deal
from .rules import HouseRules
from .scoring import Scores, score_deal, swept_seats
from .seats import seats_from

FORMAT = "trex-game/1"
KINGDOMS = 4
#: After this many redeal requests in a row, nobody is asked again until a deal is played.
MAX_REDEALS_IN_A_ROW = 20
TREX_ONLY = (Contract.TREX,)
#: Called with each deal played card by card and its file-format result as recorded.
Observer = Callable[[TrickDeal | TrexDeal, dict[str, Any]], None]
ALL_LEFT = (1 << len(ALL_CONTRACTS)) - 1
#: The King's options by the contracts left (a bit set), per rule set.
_OPTIONS: dict[HouseRules, dict[int, tuple[tuple[Contract, ...], ...]]] = {}

BotSpec = str | Bot
#: Each contract of a deal scored alone, as :func:`.scoring.contract_scores` gives it.
ContractPoints = dict[Contract, Scores]


class PlayedDeal(NamedTuple):
    """A deal played out: its file-format result (``sweep_kept`` set when the table keeps a
    sweep) and each contract's points as counted from the cards; the points are empty, and
    the contracts stay to be played, when the deal is a sweep to replay."""

    result: dict[str, Any]
    points: ContractPoints
    replayed: bool = False


@dataclass(frozen=True)
class PlayedGame:
    """A simulated game: its file-format document and, deal by deal, each contract's points
    as the play counted them (empty for a thrown-in deal or a replayed sweep)."""

    doc: dict[str, Any]
    points: tuple[ContractPoints, ...]

    @property
    def deal_scores(self) -> tuple[Scores, ...]:
        """Each deal's points for the four seats."""
        out = []
        for parts in self.points:
            a = b = c = d = 0
            for p in parts.values():
                a, b, c, d = a + p[0], b + p[1], c + p[2], d + p[3]
            out.append((a, b, c, d))
        return tuple(out)

    @property
    def totals(self) -> Scores:
        a = b = c = d = 0
        for p in self.deal_scores:
            a, b, c, d = a + p[0], b + p[1], c + p[2], d + p[3]
        return (a, b, c, d)


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

    def __init__(
        self,
        rng: random.Random,
        rules: HouseRules,
        bot: BotSpec | Sequence[BotSpec],
        fast: bool,
        observe: Observer | None = None,
    ):
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
        self.quick = fast and self.fast is None and all(plays_on_masks(b) for b in self.bots)
        #: The same bots, when they play on masks (``quick``).
        self.mask_bots = cast("list[MaskPlayer]", self.bots)
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        self._options = _OPTIONS.setdefault(rules, {})

    def options(self, left: int) -> tuple[tuple[Contract, ...], ...]:
        """The King's options when the contracts in the bit set *left* are still to play
        (kept for every game under the same rules, so never changed)."""
        options = self._options.get(left)
        if options is None:
            contracts = [c for i, c in enumerate(ALL_CONTRACTS) if left >> i & 1]
            options = self._options[left] = tuple(deal_options(contracts, self.rules))
        return options

    def choose(
        self,
        hand: int,
        king: int,
        options: tuple[tuple[Contract, ...], ...],
    ) -> tuple[Contract, ...]:
        choice = tuple(self.bots[king].choose_deal(hand, options, self.rules))
        if choice not in options:
            raise RuleError(
                f"The King chose {', '.join(c.value for c in choice)}, which is not "
                "one of the contracts left to choose from."
            )
        return choice

    def redeal_request(
        self, hands: list[int], king: int, contracts: tuple[Contract, ...]
    ) -> tuple[int, str] | None:
        for seat, reason in redeal_requests(hands, king, contracts, self.rules):
            if self.bots[seat].wants_redeal(hands[seat], reason):
                return seat, reason
        return None

    def play(
        self, deck: list[int] | None, hands: list[int], king: int, contracts: tuple[Contract, ...]
    ) -> PlayedDeal:
        """Play the deal: its result, marked as kept when it is a sweep that nobody who swept
        it asks to replay, and its points counted from the cards. *deck*, when given, is the
        shuffled deck the *hands* were dealt from."""
        deal = None
        rules = self.rules
        if contracts == TREX_ONLY and (self.fast is not None or self.quick):
            if self.fast is not None:
                order = play_trex_randomly(hands, king, self.fast)
            else:
                order = play_trex(hands, king, rules, self.mask_bots)
            result = trex_result(king, order)
            points = trex_contract_points(order)
        elif self.fast is not None or self.quick:
            doubled = self._doubles(hands, king, contracts)
            if self.fast is not None:
                if deck is not None:
                    lists = [
                        sorted(deck[0:13]),
                        sorted(deck[13:26]),
                        sorted(deck[26:39]),
                        sorted(deck[39:52]),
                    ]
                else:
                    lists = [list(indices_of(hand)) for hand in hands]
                taken, tricks, lead_of = play_tricks_randomly(
                    lists, king, contracts, rules, self.fast
                )
            else:
                taken, tricks, lead_of = play_tricks(
                    hands, king, contracts, rules, doubled, self.mask_bots
                )
            result = trick_result(king, contracts, rules, taken, tricks, doubled, lead_of)
            points = contract_card_points(contracts, rules, taken, tricks, doubled, lead_of, king)
        else:
            deal = new_deal(hands, king, contracts, rules)
            play_out(deal, self.bots)
            result = deal.result()
            points = deal.contract_card_points()
        replayed = is_split_queens(result, rules)
        if not replayed and rules.sweep_replay is not None and is_sweep(result, rules):
            if self.keeps_sweep(result, king):
                result[SWEEP_KEPT] = True
            else:
                replayed = True
        if deal is not None and self.observe is not None:
            self.observe(deal, result)
        return PlayedDeal(result, contract_final_points(points, replayed, rules), replayed)

    def _doubles(
        self,
        hands: list[int],
        king: int,
        contracts: tuple[Contract, ...],
    ) -> dict[int, int]:
        """Each holder of a card that may be doubled says, in turn from the King, whether they
        double it: the doubled cards and their holders."""
        doubled = {}
        for seat, index in doubling_queue(hands, king, contracts, self.rules):
            if self.bots[seat].choose_double(hands[seat], CARDS[index]):
                doubled[index] = seat
        return doubled

    def keeps_sweep(self, result: dict[str, Any], king: int) -> bool:
        """Under ``sweep_replay``, a swept deal is kept unless a player who swept it asks for the
        replay; they are asked in turn from the King (RULES.md "Sweeps")."""
        if self.rules.sweep_replay is None:
            return False
        record, _problems = read_deal(result)
        sweepers = swept_seats(record, self.rules) if record is not None else ()
        if record is None or not sweepers:
            return False
        points = score_deal(replace(record, sweep_kept=True), self.rules)
        return not any(
            self.bots[seat].wants_replay(points[seat], self.rules)
            for seat in seats_from(king)
            if seat in sweepers
        )

    def next_king(self, kings: list[int]) -> int:
        if self.rules.rotation == "table-picks":
            candidates = [s for s in range(4) if s not in kings]
            return candidates[int(self.rng.random() * len(candidates))]
        return (kings[-1] + 1) % 4


def _holder(hands: Sequence[int], card_index: int) -> int:
    return next(s for s in range(4) if hands[s] >> card_index & 1)


def simulate_game(
    seed: int,
    rules: HouseRules | None = None,
    bot: BotSpec | Sequence[BotSpec] = "random",
    players: Sequence[str] | None = None,
    *,
    fast: bool = True,
    observe: Observer | None = None,
) -> dict[str, Any]:
    """Play one whole game with bots and return it as a file-format game dict (see
    :func:`play_game`)."""
    return play_game(seed, rules, bot, players, fast=fast, observe=observe).doc


def play_game(
    seed: int,
    rules: HouseRules | None = None,
    bot: BotSpec | Sequence[BotSpec] = "random",
    players: Sequence[str] | None = None,
    *,
    fast: bool = True,
    observe: Observer | None = None,
) -> PlayedGame:
    """Play one whole game with bots: the file-format game dict and each deal's points.

    *bot* names the bot for all four seats (``"random"``, ``"heuristic"``), or gives four, one
    per seat, as names or objects. The same seed, rules and bots give the same game. *fast*
    lets the bots of :mod:`.bots` play on plain ints (the game is the same either way).
    *observe*, when given, is called with each played deal, played through the deal objects,
    and its result as recorded.
    """
    rules = rules or HouseRules()
    rng = random.Random(seed)
    table = _Table(rng, rules, bot, fast, observe)
    names = (
        list(players)
        if players is not None
        else [f"{getattr(b, 'name', 'bot').title()} {s}" for s, b in enumerate(table.bots)]
    )
    if len(names) != 4:
        raise ValueError("A game needs four player names.")
    deck = shuffled_indices(rng)
    first_hands = hand_masks(deck)
    first_king = _holder(first_hands, SEVEN_OF_HEARTS.index)
    hands: list[int] | None = first_hands
    kings: list[int] = []
    deals: list[dict[str, Any]] = []
    points: list[ContractPoints] = []
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
                points.append({})
                redeals += 1
                hands = None
                continue
            played = table.play(deck, hands, king, contracts)
            deals.append(played.result)
            points.append(played.points)
            hands = None
            redeals = 0
            if not played.replayed:
                for contract in contracts:
                    left &= ~(1 << ALL_CONTRACTS.index(contract))
    doc = {
        "format": FORMAT,
        "title": f"Simulated game, seed {seed}",
        "players": names,
        "rules": rules.to_dict(only_changed=True),
        "first_king": first_king,
        "deals": deals,
    }
    return PlayedGame(doc, tuple(points))


def play_deal(
    hands: Sequence[int],
    king: int,
    contracts: Sequence[Contract],
    rules: HouseRules | None = None,
    bot: BotSpec | Sequence[BotSpec] = "heuristic",
    rng: random.Random | None = None,
) -> PlayedDeal:
    """Play one deal from these hands (masks, seat 0 first; *king* deals and leads) with bots,
    as a simulated game plays it: the doubling, every card, and under ``sweep_replay`` whether
    a sweep is kept. Its result and each contract's points, counted from the cards.

    This is the door for many deals (a contract advisor trying each contract on many hands):
    the bots of :mod:`.bots` play on plain ints. *bot* as for :func:`play_game`; random bots
    draw from *rng* (by default a generator seeded with 0).
    """
    found = tuple(contracts)
    trex = found == TREX_ONLY
    if not trex:
        found = trick_contracts(found)
    masks = hands_to_masks(hands, full_deck=trex)
    table = _Table(rng if rng is not None else random.Random(0), rules or HouseRules(), bot, True)
    return table.play(None, masks, king, found)


def simulate_games(
    n: int,
    seed: int = 0,
    rules: HouseRules | None = None,
    bot: BotSpec | Sequence[BotSpec] = "random",
) -> Iterator[dict[str, Any]]:
    """*n* games; game *i* is ``simulate_game(seed + i, rules, bot)``."""
    for i in range(n):
        yield simulate_game(seed + i, rules, bot)
