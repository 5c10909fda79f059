"""Seats 0..3 around the table. Play goes counter-clockwise: after seat ``s`` comes ``s + 1``,
the player on ``s``'s right."""

from __future__ import annotations

from enum import IntEnum, unique


@unique
class Seat(IntEnum):
    """A seat; an ``int`` wherever scoring needs one."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3

    def next(self, steps: int = 1) -> Seat:
        """The seat that plays after this one (its right-hand neighbour), or *steps* further."""
        return _SEATS[(self + steps) % 4]

    def previous(self) -> Seat:
        """The seat that plays before this one (its left-hand neighbour)."""
        return _SEATS[(self + 3) % 4]

    @property
    def partner(self) -> Seat:
        """The seat opposite, a partner in partnership play."""
        return _SEATS[(self + 2) % 4]

    @property
    def team(self) -> int:
        """0 for seats 0 and 2, 1 for seats 1 and 3."""
        return self % 2

    def iter_from(self) -> tuple[Seat, ...]:
        """The four seats in playing order, starting with this one."""
        return _ORDERS[self]

    @property
    def label(self) -> str:
        return f"Seat {int(self)}"


_SEATS: tuple[Seat, ...] = tuple(Seat)
_ORDERS: tuple[tuple[Seat, ...], ...] = tuple(
    tuple(_SEATS[(start + k) % 4] for k in range(4)) for start in range(4)
)


def seats_from(start: int) -> tuple[Seat, ...]:
    """The four seats in playing order, starting with *start* (an int or a Seat)."""
    return _ORDERS[start % 4]
