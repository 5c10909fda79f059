"""What the table enters for a deal, as typed records, read from and written to the file format.

Reading checks the *shape* of each field (a seat is 0..3, a count is a whole number, the keys are
the ones the format knows) and reports every problem it finds; the rules of the game (sums,
cross-checks, the order of kingdoms) are checked by :mod:`validation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .contracts import QUEEN_SUITS, Contract
from .errors import Problem

THROW_IN_REASONS = ("kh-redeal", "trex-twos", "misdeal", "other")
#: The reasons for a redeal that follow the announcement of a contract (RULES.md "King of
#: Hearts", "Trex"): each is possible only while the King may still announce that contract.
ANNOUNCED_FIRST: dict[str, Contract] = {
    "kh-redeal": Contract.KING_OF_HEARTS,
    "trex-twos": Contract.TREX,
}
RESULT_FIELDS: dict[Contract, str] = {
    Contract.KING_OF_HEARTS: "king_of_hearts",
    Contract.DIAMONDS: "diamonds",
    Contract.QUEENS: "queens",
    Contract.COLLECTIONS: "tricks",
    Contract.TREX: "trex_order",
}
#: The key of a played deal that says the table kept a sweep instead of replaying it; present
#: only then, as ``true`` (absent: a sweep is replayed, as in files written before it).
SWEEP_KEPT = "sweep_kept"
#: Keys the engine writes on export and recomputes on import.
COMPUTED_KEYS = ("scores",)
_CAPTURE_KEYS = ("taker", "doubled_by", "led_by")
CARD_NAMES = {
    "king_of_hearts": "the K♥",
    "spades": "the Q♠",
    "hearts": "the Q♥",
    "diamonds": "the Q♦",
    "clubs": "the Q♣",
}


@dataclass(frozen=True, slots=True)
class Capture:
    """Who took a card that can be doubled; who doubled it (its holder); who led to the trick."""

    taker: int
    doubled_by: int | None = None
    led_by: int | None = None

    def to_dict(self) -> dict[str, int]:
        out = {"taker": self.taker}
        if self.doubled_by is not None:
            out["doubled_by"] = self.doubled_by
        if self.led_by is not None:
            out["led_by"] = self.led_by
        return out


@dataclass(frozen=True, slots=True)
class ThrowIn:
    reason: str
    by: int


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as the table records it: a played deal's results, or a thrown-in deal."""

    king: int
    contracts: tuple[Contract, ...] = ()
    king_of_hearts: Capture | None = None
    diamonds: tuple[int, ...] | None = None
    queens: tuple[Capture, ...] | None = None  # in QUEEN_SUITS order
    tricks: tuple[int, ...] | None = None
    trex_order: tuple[int, ...] | None = None
    thrown_in: ThrowIn | None = None
    sweep_kept: bool = False  # a sweep the table kept as played (RULES.md "Sweeps")
    extra: tuple[tuple[str, Any], ...] = ()  # keys the engine does not know, kept as given

    @property
    def is_thrown_in(self) -> bool:
        return self.thrown_in is not None

    def has(self, contract: Contract) -> bool:
        return contract in self.contracts

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"king": self.king}
        if self.thrown_in is not None:
            out["thrown_in"] = {"reason": self.thrown_in.reason, "by": self.thrown_in.by}
        else:
            out["contracts"] = [c.value for c in self.contracts]
            if self.king_of_hearts is not None:
                out["king_of_hearts"] = self.king_of_hearts.to_dict()
            if self.diamonds is not None:
                out["diamonds"] = list(self.diamonds)
            if self.queens is not None:
                out["queens"] = {s: q.to_dict() for s, q in zip(QUEEN_SUITS, self.queens)}
            if self.tricks is not None:
                out["tricks"] = list(self.tricks)
            if self.trex_order is not None:
                out["trex_order"] = list(self.trex_order)
            if self.sweep_kept:
                out["sweep_kept"] = True
        out.update(dict(self.extra))
        return out


class _Reader:
    """Collects the problems found while reading one deal."""

    def __init__(self, number: int | None, names: Sequence[str]):
        self.number = number
        self.names = names
        self.problems: list[Problem] = []

    def problem(
        self, code: str, contract: str | None = None, field: str | None = None, /, **params: Any
    ) -> None:
        """Note a problem; *params* may use any name, ``contract`` and ``field`` included."""
        self.problems.append(Problem(code, params, self.number, contract, field))

    def seat(
        self, value: Any, what: str, contract: str | None, field: str, card: str | None = None
    ) -> int | None:
        """*value* as a seat. A problem names *what* the seat answers (one of SEAT_QUESTIONS'
        English phrases, which the web translates) and the *card* it is about, if any."""
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            return value
        full = f"{CARD_NAMES[card]}: {what}" if card else what
        self.problem(
            "bad_seat",
            contract,
            field,
            what=full,
            question=what,
            card=CARD_NAMES[card] if card else None,
            value=value,
        )
        return None

    def counts(self, value: Any, contract: str, field: str) -> tuple[int, ...] | None:
        if not isinstance(value, list) or len(value) != 4:
            self.problem("counts_not_four", contract, field)
            return None
        ok = True
        for seat, n in enumerate(value):
            if not isinstance(n, int) or isinstance(n, bool):
                self.problem("count_not_whole", contract, field, player=self.names[seat], value=n)
                ok = False
            elif n < 0:
                self.problem("count_negative", contract, field, player=self.names[seat])
                ok = False
        return tuple(value) if ok else None

    def capture(self, value: Any, card: str, contract: str, field: str) -> Capture | None:
        if not isinstance(value, Mapping) or "taker" not in value:
            self.problem("capture_not_object", contract, field, card=CARD_NAMES[card])
            return None
        for key in value:
            if key not in _CAPTURE_KEYS:
                self.problem("capture_unknown_key", contract, field, key=key, card=CARD_NAMES[card])
        seats: dict[str, int | None] = {}
        ok = True
        for key, what in (
            ("taker", "who took it"),
            ("doubled_by", "who doubled it"),
            ("led_by", "who led"),
        ):
            if key in value:
                seats[key] = self.seat(value[key], what, contract, f"{field}.{key}", card)
                ok = ok and seats[key] is not None
        if not ok:
            return None
        return Capture(seats["taker"], seats.get("doubled_by"), seats.get("led_by"))  # type: ignore[arg-type]

    def order(self, value: Any, field: str) -> tuple[int, ...] | None:
        contract = Contract.TREX.value
        if not isinstance(value, list) or len(value) != 4:
            self.problem("order_not_four", contract, field)
            return None
        seats = [self.seat(v, "each place in the order", contract, field) for v in value]
        if any(s is None for s in seats):
            return None
        for s in sorted(set(seats), key=seats.index):
            if seats.count(s) > 1:
                self.problem("order_repeats", contract, field, player=self.names[s])  # type: ignore[index]
                return None
        return tuple(seats)  # type: ignore[arg-type]


def default_names() -> tuple[str, ...]:
    return tuple(f"seat {s}" for s in range(4))


def read_deal(
    raw: Any, number: int | None = None, names: Sequence[str] | None = None
) -> tuple[DealRecord | None, list[Problem]]:
    """Read one file-format deal; return the record (or None) and the problems found."""
    reader = _Reader(number, names or default_names())
    if not isinstance(raw, Mapping):
        reader.problem("deal_not_object")
        return None, reader.problems
    king = reader.seat(raw.get("king"), "the King", None, "king")
    known = {"king", "contracts", "thrown_in", SWEEP_KEPT, *RESULT_FIELDS.values(), *COMPUTED_KEYS}
    extra = tuple((k, v) for k, v in raw.items() if k not in known)
    if "thrown_in" in raw:
        return _read_thrown_in(reader, raw, king, extra)
    contracts = _read_contracts(reader, raw.get("contracts"))
    fields: dict[str, Any] = {}
    for contract, key in RESULT_FIELDS.items():
        present = key in raw
        wanted = contracts is not None and contract in contracts
        if present and not wanted and contracts is not None:
            reader.problem("extra_field", None, key, key=key)
        elif wanted and not present:
            reader.problem("missing_field", contract.value, key)
        elif wanted:
            fields[key] = _read_field(reader, contract, raw[key])
    kept = SWEEP_KEPT in raw
    if kept and raw[SWEEP_KEPT] is not True:
        reader.problem("sweep_kept_not_true", None, SWEEP_KEPT)
    if reader.problems or king is None or contracts is None:
        return None, reader.problems
    return DealRecord(king=king, contracts=contracts, sweep_kept=kept, extra=extra, **fields), []


def _read_thrown_in(
    reader: _Reader, raw: Mapping[str, Any], king: int | None, extra: tuple[tuple[str, Any], ...]
) -> tuple[DealRecord | None, list[Problem]]:
    info = raw["thrown_in"]
    if any(k in raw for k in ("contracts", *RESULT_FIELDS.values())):
        reader.problem("thrown_in_with_contracts", None, "thrown_in")
    if SWEEP_KEPT in raw:
        reader.problem("sweep_kept_not_swept", None, SWEEP_KEPT)
    if not isinstance(info, Mapping) or info.get("reason") not in THROW_IN_REASONS:
        reader.problem(
            "bad_thrown_in_reason", None, "thrown_in.reason", allowed=", ".join(THROW_IN_REASONS)
        )
        return None, reader.problems
    by = reader.seat(info.get("by"), "who asked for the redeal", None, "thrown_in.by")
    if reader.problems or king is None or by is None:
        return None, reader.problems
    return DealRecord(king=king, thrown_in=ThrowIn(info["reason"], by), extra=extra), []


def _read_contracts(reader: _Reader, value: Any) -> tuple[Contract, ...] | None:
    if not isinstance(value, list) or not value:
        reader.problem("no_contracts", None, "contracts")
        return None
    out: list[Contract] = []
    for name in value:
        try:
            contract = Contract(name)
        except ValueError:
            reader.problem("unknown_contract", None, "contracts", value=name)
            return None
        if contract in out:
            reader.problem("contract_twice", None, "contracts", contract=contract.label)
            return None
        out.append(contract)
    return tuple(out)


def _read_field(reader: _Reader, contract: Contract, value: Any) -> Any:
    name = contract.value
    if contract is Contract.KING_OF_HEARTS:
        return reader.capture(value, "king_of_hearts", name, "king_of_hearts")
    if contract in (Contract.DIAMONDS, Contract.COLLECTIONS):
        return reader.counts(value, name, RESULT_FIELDS[contract])
    if contract is Contract.TREX:
        return reader.order(value, "trex_order")
    if not isinstance(value, Mapping) or sorted(value) != sorted(QUEEN_SUITS):
        reader.problem("queens_not_four", name, "queens")
        return None
    queens = [reader.capture(value[s], s, name, f"queens.{s}") for s in QUEEN_SUITS]
    return None if any(q is None for q in queens) else tuple(queens)
