"""The five contracts and the values they score, as data."""

from __future__ import annotations

from enum import Enum, unique

from .messages import N_


@unique
class Contract(str, Enum):
    """A contract by its file-format name."""

    KING_OF_HEARTS = "king_of_hearts"
    DIAMONDS = "diamonds"
    QUEENS = "queens"
    COLLECTIONS = "collections"
    TREX = "trex"

    @property
    def is_negative(self) -> bool:
        return self is not Contract.TREX

    @property
    def label(self) -> str:
        return CONTRACT_LABELS[self]

    @classmethod
    def parse(cls, name: str) -> Contract:
        try:
            return cls(name)
        except ValueError:
            allowed = ", ".join(c.value for c in cls)
            raise ValueError(f"unknown contract {name!r}; allowed: {allowed}") from None


#: Contracts in the order a paper scoresheet lists them.
ALL_CONTRACTS: tuple[Contract, ...] = (
    Contract.KING_OF_HEARTS,
    Contract.DIAMONDS,
    Contract.QUEENS,
    Contract.COLLECTIONS,
    Contract.TREX,
)
NEGATIVE_CONTRACTS: tuple[Contract, ...] = ALL_CONTRACTS[:4]

CONTRACT_LABELS: dict[Contract, str] = {
    Contract.KING_OF_HEARTS: N_("King of Hearts"),
    Contract.DIAMONDS: N_("Diamonds"),
    Contract.QUEENS: N_("Queens"),
    Contract.COLLECTIONS: N_("Collections"),
    Contract.TREX: N_("Trex"),
}

#: Base values (RULES.md "The five contracts"). A doubled card is worth twice its base
#: value to the taker and its base value to the holder who doubled it.
KING_OF_HEARTS_VALUE = -75
QUEEN_VALUE = -25
DIAMOND_VALUE = {False: -10, True: -15}  # keyed by swap_diamonds_collections
TRICK_VALUE = {False: -15, True: -10}
TREX_PLACES = (200, 150, 100, 50)
#: The contracts whose cards their holder may double (RULES.md "Doubling": the K♥ and the queens).
DOUBLED_CONTRACTS = frozenset({Contract.KING_OF_HEARTS, Contract.QUEENS})

#: Queen suits in the order the file format names them.
QUEEN_SUITS: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
