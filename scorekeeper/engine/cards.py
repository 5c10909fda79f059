"""Cards: suits, ranks, the 52 interned cards, text parsing, bitmasks, shuffling and dealing.

Every card has an index 0..51, ``suit * 13 + rank``, so a set of cards is an ``int`` with one bit
per card (a *mask*). Suits are in the file format's queen order (spades, hearts, diamonds, clubs)
and ranks run from the 2 (0) to the ace (12).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum, unique
from itertools import starmap
from typing import Iterable, Iterator


@unique
class Suit(IntEnum):
    """A suit, numbered in the file format's order."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def file_name(self) -> str:
        """The suit's key in the file format (``"spades"`` ...)."""
        return ("spades", "hearts", "diamonds", "clubs")[self]

    @property
    def mask(self) -> int:
        """The mask of the 13 cards of this suit."""
        return SUIT_MASKS[self]


@unique
class Rank(IntEnum):
    """A rank, from the lowest (2) to the highest (ace)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


_RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One of the 52 cards. There is exactly one object per card: use :data:`CARDS` or
    :meth:`Card.of`, never the constructor, so that cards compare by identity."""

    suit: Suit
    rank: Rank
    index: int

    @staticmethod
    def of(suit: Suit | int, rank: Rank | int) -> Card:
        return CARDS[suit * 13 + rank]

    @staticmethod
    def parse(text: str) -> Card:
        """One card from text such as ``"KH"``, ``"10d"``, ``"TD"`` or ``"Q♠"``."""
        return parse_card(text)

    @property
    def bit(self) -> int:
        return 1 << self.index

    def __str__(self) -> str:
        return _RANK_LABELS[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card({self})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_at, (self.index,))

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``K♥``."""
        return _RANK_LABELS[self.rank] + self.suit.symbol


#: All 52 cards by index.
CARDS: tuple[Card, ...] = tuple(
    Card(suit, rank, suit * 13 + rank) for suit in Suit for rank in Rank
)


def card_at(index: int) -> Card:
    """The card with this index (0..51)."""
    return CARDS[index]


# --- masks -------------------------------------------------------------------------------------
RANKS_MASK = (1 << 13) - 1
FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(RANKS_MASK << (13 * s) for s in range(4))
SPADES_MASK, HEARTS_MASK, DIAMONDS_MASK, CLUBS_MASK = SUIT_MASKS
#: Bit of each card index, to avoid computing ``1 << i`` in hot loops.
BITS: tuple[int, ...] = tuple(1 << i for i in range(52))
_INDICES = range(52)
_NO_ARGUMENTS = ((),) * 52  # one call of rng.random per card


def card_index(suit: int, rank: int) -> int:
    return suit * 13 + rank


KING_OF_HEARTS = CARDS[card_index(Suit.HEARTS, Rank.KING)]
ACE_OF_HEARTS = CARDS[card_index(Suit.HEARTS, Rank.ACE)]
SEVEN_OF_HEARTS = CARDS[card_index(Suit.HEARTS, Rank.SEVEN)]
#: The queens in the file format's suit order.
QUEENS: tuple[Card, ...] = tuple(CARDS[card_index(s, Rank.QUEEN)] for s in Suit)
QUEENS_MASK = sum(q.bit for q in QUEENS)
JACKS_MASK = sum(CARDS[card_index(s, Rank.JACK)].bit for s in Suit)
TWOS_MASK = sum(CARDS[card_index(s, Rank.TWO)].bit for s in Suit)
THREES_MASK = sum(CARDS[card_index(s, Rank.THREE)].bit for s in Suit)


def mask_of(cards: Iterable[Card]) -> int:
    """The mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def indices_of(mask: int) -> Iterator[int]:
    """The card indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, in index order (spades 2..A, then hearts, diamonds, clubs)."""
    return tuple(CARDS[i] for i in indices_of(mask))


def suit_ranks(mask: int, suit: int) -> int:
    """The 13-bit mask of the ranks held in one suit."""
    return (mask >> (13 * suit)) & RANKS_MASK


def suit_count(mask: int, suit: int) -> int:
    return ((mask >> (13 * suit)) & RANKS_MASK).bit_count()


def nth_index(mask: int, n: int) -> int:
    """The index of the n-th card (from 0) of a mask, lowest first."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


# --- text --------------------------------------------------------------------------------------
_SUIT_BY_TEXT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANK_BY_TEXT = {label: Rank(i) for i, label in enumerate(_RANK_LABELS)}
_RANK_BY_TEXT["T"] = Rank.TEN


def parse_card(text: str) -> Card:
    """One card from text: a rank (2-10, T, J, Q, K, A) then a suit letter or symbol."""
    clean = text.strip().upper().replace("\ufe0f", "")
    suit = _SUIT_BY_TEXT.get(clean[-1:])
    rank = _RANK_BY_TEXT.get(clean[:-1])
    if suit is None or rank is None:
        raise ValueError(
            f"{text!r} is not a card; write a rank (2-10, J, Q, K, A) and a suit "
            "(S, H, D, C or ♠ ♥ ♦ ♣), for example KH or 10♦."
        )
    return CARDS[suit * 13 + rank]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from text such as ``"KH QS 10D 7H"`` (commas allowed); duplicates are refused."""
    cards = tuple(parse_card(word) for word in text.replace(",", " ").split())
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"The card {card} is written twice.")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Cards as text, the inverse of :func:`parse_cards`."""
    return " ".join(c.pretty if symbols else str(c) for c in cards)


# --- the deck ----------------------------------------------------------------------------------
def full_deck() -> list[Card]:
    """A fresh list of the 52 cards in index order."""
    return list(CARDS)


def shuffled_indices(rng: random.Random) -> list[int]:
    """The 52 card indices in a random order drawn from *rng* (sorted by random keys)."""
    keys = list(starmap(rng.random, _NO_ARGUMENTS))
    return sorted(_INDICES, key=keys.__getitem__)


def deal_masks(rng: random.Random) -> list[int]:
    """Shuffle and deal 13 cards to each seat; each hand as a mask, seat 0 first."""
    return hand_masks(shuffled_indices(rng))


def hand_masks(deck: list[int]) -> list[int]:
    """The four hands dealt from a shuffled deck of indices (13 each, seat 0 first), as masks."""
    bit = BITS.__getitem__
    return [
        sum(map(bit, deck[0:13])),
        sum(map(bit, deck[13:26])),
        sum(map(bit, deck[26:39])),
        sum(map(bit, deck[39:52])),
    ]


def deal_hands(rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    """Shuffle and deal; each seat's 13 cards in index order. Same draw as :func:`deal_masks`."""
    return tuple(cards_of(mask) for mask in deal_masks(rng))
