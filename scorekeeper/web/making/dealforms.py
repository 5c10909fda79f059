"""Entry forms: one per contract or combination of contracts, and the thrown-in form.

Each form takes exactly what RULES.md "What the scorekeeper takes per deal" lists, builds a
file-format deal from it, and hands that to the engine (through ``checker``); the engine's
problems are shown next to the field each one names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField

from ...engine import DealRecord, Game, HouseRules, Problem
from ...engine.contracts import ALL_CONTRACTS, QUEEN_SUITS, Contract
from ...engine.records import THROW_IN_REASONS, Capture
from ...engine.validation import COUNT_TOTAL
from .fields import PickField
from .forms import player_label
from .messages import problem_text

SEATS = range(4)
PLACES = range(1, 5)
PLACE_LABELS = {
    1: lazy_gettext("First out"),
    2: lazy_gettext("Second"),
    3: lazy_gettext("Third"),
    4: lazy_gettext("Last"),
}
SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
#: Engine result fields that stand for a whole group of form fields.
GROUPS = ("diamonds", "tricks", "trex_order", "queens")
#: The group each field is part of, by the start of its name.
GROUP_OF = {"diamonds_": "diamonds", "tricks_": "tricks", "trex_": "trex_order", "q_": "queens"}
COUNT_FIELDS = {Contract.DIAMONDS: "diamonds", Contract.COLLECTIONS: "tricks"}

#: Hands a file-format deal to the engine: the record (or None), the problems, the new game.
Checker = Callable[[dict[str, Any]], tuple[DealRecord | None, list[Problem], Game | None]]


@dataclass(frozen=True)
class EntryContext:
    """What the hidden fields of an entry form say: which deal, whose, which contracts."""

    king: int
    contracts: tuple[Contract, ...]  # empty for a thrown-in deal
    number: int
    version: int | None = None  # the version being corrected, for a correction


def capture_prefixes(contracts: Sequence[Contract]) -> list[tuple[str, str, str]]:
    """(field prefix, engine key, card name) of each card that can be doubled in the deal."""
    out = []
    if Contract.KING_OF_HEARTS in contracts:
        out.append(("kh", "king_of_hearts", "K♥"))
    if Contract.QUEENS in contracts:
        out += [(f"q_{s}", f"queens.{s}", f"Q{SUIT_SYMBOLS[s]}") for s in QUEEN_SUITS]
    return out


def form_field_name(engine_field: str | None) -> str | None:
    """The form field (or group) where the engine's problem about *engine_field* is shown."""
    if not engine_field:
        return None
    parts = engine_field.split(".")
    if parts[0] == "thrown_in" and len(parts) == 2:
        return parts[1]
    if parts[0] == "king_of_hearts":
        prefix, rest = "kh", parts[1:]
    elif parts[0] == "queens" and len(parts) > 1:
        prefix, rest = f"q_{parts[1]}", parts[2:]
    else:
        return parts[0]
    return f"{prefix}_{rest[0] if rest else 'taker'}"


def fill_counts(values: Sequence[int | None], total: int = COUNT_TOTAL) -> list[int | None]:
    """Fill in the one missing count (the four sum to *total*) when the rest allow it."""
    out = list(values)
    missing = [i for i, v in enumerate(out) if v is None]
    rest = total - sum(v for v in out if v is not None)
    if len(missing) == 1 and rest >= 0:
        out[missing[0]] = rest
    return out


def fill_order(places: Sequence[int | None]) -> list[int | None]:
    """Fill in the last place left when the other three are three different players."""
    out = list(places)
    given = [p for p in out if p is not None]
    missing = [i for i, p in enumerate(out) if p is None]
    if len(missing) == 1 and len(set(given)) == 3:
        out[missing[0]] = next(s for s in SEATS if s not in given)
    return out


class DealForm(FlaskForm):
    """The hidden fields every deal form carries, and the hand-over to the engine."""

    token = HiddenField()
    king = HiddenField()
    contracts = HiddenField()
    number = HiddenField()
    version = HiddenField()
    deal = HiddenField()  # the id of the deal being corrected: its number can change (undo)
    # the key of the version being corrected (``deals.version_key``), never given twice
    version_key = HiddenField()

    seat_fields: tuple[str, ...] = ()

    def setup(self, context: EntryContext, names: Sequence[str], checker: Checker) -> None:
        self.context = context
        self.names = list(names)
        self.checker = checker
        self.record: DealRecord | None = None
        self.new_game: Game | None = None
        self.group_errors: dict[str, list[str]] = defaultdict(list)
        for name in self.seat_fields:
            self[name].options = [(s, self.names[s]) for s in SEATS]

    def validate(self, extra_validators: Any = None) -> bool:
        """WTForms checks each value is one of the choices; the engine checks the deal."""
        if not super().validate(extra_validators):
            return False
        self.record, problems, self.new_game = self.checker(self.to_raw())
        for problem in problems:
            self.show(problem)
        return self.record is not None and not problems

    def show(self, problem: Problem) -> None:
        """Put the engine's *problem* next to the field it names."""
        name = form_field_name(problem.field)
        if problem.deal not in (None, self.context.number) or name is None:
            self.form_errors.append(problem_text(problem, context=True))
        elif name in self and name not in DealForm.__dict__:
            self[name].errors.append(problem_text(problem))
        elif name in GROUPS:
            self.group_errors[name].append(problem_text(problem))
        else:
            self.form_errors.append(problem_text(problem, context=True))

    def to_raw(self) -> dict[str, Any]:
        raise NotImplementedError

    def problems(self) -> list[str]:
        """Every message of the form, in the order the page shows its parts: a group's (the
        counts of Diamonds, the Queens) where its first field is."""
        out, said = list(self.form_errors), set()
        for f in self:
            group = next((g for start, g in GROUP_OF.items() if f.name.startswith(start)), None)
            if group in self.group_errors and group not in said:
                said.add(group)
                out += self.group_errors[group]
            out += f.errors
        return out + [m for g, ms in self.group_errors.items() if g not in said for m in ms]


class EntryForm(DealForm):
    """A played deal; the fields of each contract are added by :func:`entry_form_class`."""

    deal_contracts: tuple[Contract, ...] = ()

    def to_raw(self) -> dict[str, Any]:
        contracts = self.deal_contracts
        raw: dict[str, Any] = {"king": self.context.king, "contracts": [c.value for c in contracts]}
        if Contract.KING_OF_HEARTS in contracts:
            raw["king_of_hearts"] = self._capture("kh")
        if Contract.QUEENS in contracts:
            raw["queens"] = {s: self._capture(f"q_{s}") for s in QUEEN_SUITS}
        for contract, key in COUNT_FIELDS.items():
            if contract in contracts:
                raw[key] = self._counts(key)
        if Contract.TREX in contracts:
            raw["trex_order"] = self._order()
        if "sweep_kept" in self and self.sweep_kept.data:
            raw["sweep_kept"] = True
        return raw

    def _value(self, name: str) -> Any:
        return self[name].data if name in self else None

    def _capture(self, prefix: str) -> dict[str, int]:
        taker = self._value(f"{prefix}_taker")
        holder = self._value(f"{prefix}_doubled_by")
        led = self._value(f"{prefix}_led_by")
        out = {}
        if taker is not None:
            out["taker"] = taker
        if holder is not None:
            out["doubled_by"] = holder
            if led is not None and holder == taker:  # who led matters only then
                out["led_by"] = led
        return out

    def _counts(self, key: str) -> list[int]:
        fields = [self[f"{key}_{s}"] for s in SEATS]
        values = fill_counts([f.data for f in fields])
        for f, v in zip(fields, values):
            f.data = v
        missing = [i for i, v in enumerate(values) if v is None]
        if len(missing) == 1:  # the others already add up to more: let the sum be the message
            values[missing[0]] = 0
        return [v for v in values if v is not None]

    def _order(self) -> list[int]:
        fields = [self[f"trex_{p}"] for p in PLACES]
        places = fill_order([f.data for f in fields])
        for f, p in zip(fields, places):
            f.data = p
        given = [p for p in places if p is not None]
        repeated = [p for p in given if given.count(p) > 1]
        if len(given) == 3 and repeated:  # let the repetition be the message
            given.append(repeated[0])
        return given


def _seat(label: Any, **kwargs: Any) -> PickField:
    return PickField(label, options=[(s, player_label(s)) for s in SEATS], **kwargs)


#: The contracts a player can sweep (RULES.md "Sweeps": 13 diamonds, 4 queens, N tricks).
SWEEPABLE = frozenset({Contract.DIAMONDS, Contract.QUEENS, Contract.COLLECTIONS})


@lru_cache(maxsize=64)
def entry_form_class(
    contracts: tuple[Contract, ...], doubling: bool, leader_credit: bool, sweeps: bool = False
) -> type[EntryForm]:
    """The form for a deal of *contracts* under rules with or without doubling/leader credit;
    with *sweeps* (``sweep_replay``), the swept player may let the table keep a sweep."""
    attrs: dict[str, Any] = {}
    seat_fields: list[str] = []
    # The fields are made contract by contract, in the order the page shows them: a form's
    # problems come in that order, and the bar says the first (the part on screen).
    for contract in sorted(contracts, key=ALL_CONTRACTS.index):
        for prefix, _key, card in capture_prefixes((contract,)):
            attrs[f"{prefix}_taker"] = _seat(lazy_gettext("Who took the %(card)s?", card=card))
            seat_fields.append(f"{prefix}_taker")
            if doubling:
                attrs[f"{prefix}_doubled_by"] = _seat(
                    lazy_gettext("Doubled? By its holder"), none_label=lazy_gettext("No")
                )
                seat_fields.append(f"{prefix}_doubled_by")
                if leader_credit:
                    attrs[f"{prefix}_led_by"] = _seat(
                        lazy_gettext("The holder took it: who led to that trick?")
                    )
                    seat_fields.append(f"{prefix}_led_by")
        if contract in COUNT_FIELDS:
            for s in SEATS:
                attrs[f"{COUNT_FIELDS[contract]}_{s}"] = PickField(
                    player_label(s), options=[(n, str(n)) for n in range(14)]
                )
        if contract is Contract.TREX:
            for p in PLACES:
                attrs[f"trex_{p}"] = _seat(PLACE_LABELS[p])
                seat_fields.append(f"trex_{p}")
    if sweeps and SWEEPABLE & set(contracts):
        attrs["sweep_kept"] = BooleanField(
            lazy_gettext(
                "If this is a sweep: the swept player did not ask for the replay, so the table "
                "keeps it as played"
            )
        )
    attrs["seat_fields"] = tuple(seat_fields)
    attrs["deal_contracts"] = contracts
    return type("EntryForm", (EntryForm,), attrs)


def form_class_for(contracts: tuple[Contract, ...], rules: HouseRules) -> type[DealForm]:
    if not contracts:
        return ThrowInForm
    return entry_form_class(
        contracts,
        rules.doubling,
        rules.self_capture == "leader-credit",
        rules.sweep_replay is not None,
    )


#: A redeal's reason when the table gives none: saying why is optional.
UNSAID_REASON = "other"


def reason_options(
    rules: HouseRules,
    possible: Sequence[str] = THROW_IN_REASONS,
) -> list[tuple[str, str]]:
    """The reasons a redeal may have, as the thrown-in form offers them: those the engine says
    are *possible* at that point of the game (``Progress.possible_throw_in_reasons``: a K♥
    redeal only while King of Hearts may still be announced, the 2s only while Trex may),
    read here and only here."""
    kh = (
        lazy_gettext("The K♥ alone or with one other heart, or the A♥ alone")
        if rules.kh_redeal_any_doubleton
        else lazy_gettext("The K♥ alone, the A♥ alone, or K♥ A♥")
    )
    labels = {
        "kh-redeal": kh,
        "trex-twos": lazy_gettext("Four 2s, or three 2s and a 3"),
        "misdeal": lazy_gettext("Misdeal"),
        "other": lazy_gettext("Other reason"),
    }
    return [(r, labels[r]) for r in THROW_IN_REASONS if r in possible]


class ThrowInForm(DealForm):
    """A deal thrown in or redealt: who asked, and why if the table says. It scores nothing and
    uses up nothing."""

    # Only the reasons possible at that point are offered; another of the engine's reasons is
    # taken, for the engine to say why it cannot be (a K♥ redeal after King of Hearts, say).
    reason = PickField(
        lazy_gettext("Why?"),
        coerce=str,
        options=reason_options(HouseRules()),
        accepted=THROW_IN_REASONS,
    )
    by = _seat(lazy_gettext("Who asked for the redeal?"))
    seat_fields = ("by",)

    def to_raw(self) -> dict[str, Any]:
        info: dict[str, Any] = {"reason": self.reason.data or UNSAID_REASON}
        if self.by.data is not None:
            info["by"] = self.by.data
        return {"king": self.context.king, "thrown_in": info}


def record_data(record: DealRecord) -> dict[str, Any]:
    """The form values that show *record* (to correct it)."""
    data: dict[str, Any] = {}
    captures: list[tuple[str, Capture]] = []
    if record.king_of_hearts is not None:
        captures.append(("kh", record.king_of_hearts))
    if record.queens is not None:
        captures += [(f"q_{s}", q) for s, q in zip(QUEEN_SUITS, record.queens)]
    for prefix, capture in captures:
        data[f"{prefix}_taker"] = capture.taker
        data[f"{prefix}_doubled_by"] = capture.doubled_by
        data[f"{prefix}_led_by"] = capture.led_by
    for key, counts in (("diamonds", record.diamonds), ("tricks", record.tricks)):
        for s, n in enumerate(counts or ()):
            data[f"{key}_{s}"] = n
    for p, seat in enumerate(record.trex_order or (), start=1):
        data[f"trex_{p}"] = seat
    if record.thrown_in is not None:
        data["reason"] = record.thrown_in.reason
        data["by"] = record.thrown_in.by
    if record.sweep_kept:
        data["sweep_kept"] = True
    return data
