"""The history of a deal: one small immutable record per thing that happened, in order.

Records are named tuples, so they are cheap to make during fast simulations and still read
like dataclasses (``record.seat``, ``record.card``).
"""

from __future__ import annotations

from typing import NamedTuple, Union

from ..cards import Card


class DoubleDecision(NamedTuple):
    """Before the first lead, the holder of the K♥ or of a queen doubled it (or did not)."""

    seat: int
    card: Card
    doubled: bool


class CardPlayed(NamedTuple):
    """A card played to a trick, or to the layout in Trex."""

    seat: int
    card: Card


class TrickWon(NamedTuple):
    """A completed trick: its number (from 0), who led, who took it and the four cards in the
    order played."""

    number: int
    leader: int
    winner: int
    cards: tuple[Card, ...]


class Passed(NamedTuple):
    """In Trex, a player who could not play passed."""

    seat: int


class FinishedOut(NamedTuple):
    """In Trex, a player ran out of cards (place 0 is first out)."""

    seat: int
    place: int


class TwosRevealed(NamedTuple):
    """Partnership Trex: after everyone's first turn, each seat's 2s laid face up."""

    twos: tuple[tuple[Card, ...], ...]


Record = Union[DoubleDecision, CardPlayed, TrickWon, Passed, FinishedOut, TwosRevealed]


class DoubleChoice(NamedTuple):
    """An action of the doubling phase: double *card* or not."""

    card: Card
    double: bool


class PassTurn(NamedTuple):
    """The action of passing in Trex."""


PASS = PassTurn()

Action = Union[Card, DoubleChoice, PassTurn]
