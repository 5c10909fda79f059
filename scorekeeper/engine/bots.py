"""Players for simulations: a uniformly random one and one that follows the common tactics.

A bot answers five questions. Hands are masks (see :mod:`scorekeeper.engine.cards`); *deal* is the
:class:`~scorekeeper.engine.play.TrickDeal` or :class:`~scorekeeper.engine.play.TrexDeal` being
played, of which a bot reads only its own hand and what the table can see.

Both bots here also choose their cards on masks (``pick_trick``, ``pick_trex``: see
:mod:`scorekeeper.engine.play.quick`), which is how the simulator plays their deals; their
``choose_play`` makes the same choice through the deal objects.
"""

from __future__ import annotations

import random as _random
from typing import Protocol, Sequence

from .cards import CARDS, Card, mask_of
from .contracts import Contract
from .heuristics import contract_advantages, double_is_wise, trex_index, trick_index
from .play import TrexDeal, TrickDeal
from .play.quick import TrexState, TrickState
from .rules import HouseRules
from .scoring import better

Options = Sequence[tuple[Contract, ...]]


class Bot(Protocol):
    """What the simulator asks of a player."""

    name: str

    def choose_deal(self, hand: int, options: Options, rules: HouseRules) -> tuple[Contract, ...]:
        """As King: which of the *options* to play with this hand."""
        ...

    def wants_redeal(self, hand: int, reason: str) -> bool:
        """Whether to ask for the redeal this hand allows (``"kh-redeal"``, ``"trex-twos"``)."""
        ...

    def choose_double(self, hand: int, card: Card) -> bool:
        """Whether to double *card* (the K♥ or a queen) before the first lead."""
        ...

    def wants_replay(self, points: int, rules: HouseRules) -> bool:
        """Having swept a deal under ``sweep_replay``: whether to ask for the replay (which
        scores nothing), rather than keep the result, which would score *points* for them."""
        ...

    def choose_play(self, deal: TrickDeal | TrexDeal, legal: Sequence[Card]) -> Card:
        """Which of the *legal* cards (index order, two or more) to play."""
        ...


class RandomBot:
    """Every choice uniformly at random among the legal ones; reproducible from its seed."""

    name = "random"

    def __init__(self, seed: int | None = None, *, rng: _random.Random | None = None):
        self.rng = rng if rng is not None else _random.Random(seed)
        self.random = self.rng.random

    def choose_deal(self, hand: int, options: Options, rules: HouseRules) -> tuple[Contract, ...]:
        return options[int(self.random() * len(options))]

    def wants_redeal(self, hand: int, reason: str) -> bool:
        return self.random() < 0.5

    def choose_double(self, hand: int, card: Card) -> bool:
        return self.random() < 0.5

    def wants_replay(self, points: int, rules: HouseRules) -> bool:
        return self.random() < 0.5

    def choose_play(self, deal: TrickDeal | TrexDeal, legal: Sequence[Card]) -> Card:
        return legal[int(self.random() * len(legal))]

    def pick_trick(self, state: TrickState | TrexState, legal: int) -> int:
        """The k-th legal card in index order, as :meth:`choose_play` draws it."""
        for _ in range(int(self.random() * legal.bit_count())):
            legal &= legal - 1
        return (legal & -legal).bit_length() - 1

    pick_trex = pick_trick


class HeuristicBot:
    """Follows the tactics of the source texts: chooses contracts by the shape of its hand,
    doubles well-protected cards, ducks and sheds high cards in trick contracts, dumps penalty
    cards when it cannot follow, in Trex plays the cards that open its own cards first, asks
    for every redeal its hand allows, and for the replay of a sweep that costs it."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, rng: _random.Random | None = None):
        self.rng = rng if rng is not None else _random.Random(seed)

    def choose_deal(self, hand: int, options: Options, rules: HouseRules) -> tuple[Contract, ...]:
        advantage = contract_advantages(hand, {c for o in options for c in o}, rules)

        def value(option: tuple[Contract, ...]) -> float:
            return sum(advantage[c] for c in option)

        return max(options, key=value)

    def wants_redeal(self, hand: int, reason: str) -> bool:
        return True

    def choose_double(self, hand: int, card: Card) -> bool:
        return double_is_wise(hand, card)

    def wants_replay(self, points: int, rules: HouseRules) -> bool:
        """Keep a sweep only when it scores better than the replay's nothing."""
        return not better(points, 0, rules)

    def choose_play(self, deal: TrickDeal | TrexDeal, legal: Sequence[Card]) -> Card:
        if isinstance(deal, TrexDeal):
            return CARDS[trex_index(TrexState.of_deal(deal), mask_of(legal))]
        return CARDS[trick_index(TrickState.of_deal(deal), mask_of(legal))]

    # The judgement itself, asked directly (one call less for every card of a simulation).
    pick_trick = staticmethod(trick_index)
    pick_trex = staticmethod(trex_index)


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def plays_on_masks(bot: object) -> bool:
    """Whether the simulator may ask *bot* for its cards on masks (``pick_trick``,
    ``pick_trex``) rather than through the deal objects: it is one of the bots here, or a bot
    made from one that leaves the choice of card as it is."""
    cls = type(bot)
    return any(
        getattr(cls, "choose_play", None) is base.choose_play
        and getattr(cls, "pick_trick", None) is base.pick_trick
        and getattr(cls, "pick_trex", None) is base.pick_trex
        for base in (RandomBot, HeuristicBot)
    )


def make_bot(name: str, rng: _random.Random) -> RandomBot | HeuristicBot:
    """A bot by name, drawing from *rng*."""
    try:
        return BOTS[name](rng=rng)
    except KeyError:
        raise ValueError(
            f"There is no bot called {name!r}; choose from {', '.join(sorted(BOTS))}."
        ) from None
