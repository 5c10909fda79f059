"""What a printed scoresheet shows, as plain data for the templates.

Every number here comes from the engine's :class:`~scorekeeper.engine.gamefile.GameScore`; this
module only arranges rows: one per deal, the contracts still to play as open rows, a subtotal row
per kingdom, and the standings.
"""

from __future__ import annotations

import datetime as _dt
import gettext as _gettext
import unicodedata
from dataclasses import dataclass
from typing import Mapping, Sequence

from babel.dates import get_month_names

from ..engine.contracts import (
    ALL_CONTRACTS,
    DIAMOND_VALUE,
    DOUBLED_CONTRACTS,
    KING_OF_HEARTS_VALUE,
    NEGATIVE_CONTRACTS,
    QUEEN_VALUE,
    TREX_PLACES,
    TRICK_VALUE,
    CONTRACT_LABELS,
    Contract,
)
from ..engine.gamefile import Game, GameScore, confirmation_waiting
from ..engine.progression import KINGDOMS, Kingdom, Progress
from ..engine.records import Capture, DealRecord
from ..engine.rules import RULE, HouseRules
from ..engine.scoring import replay_reason
from ..languages import rules_line
from .language import words_for

#: Words of the sheet, translated when a sheet is built in a language (``t.gettext(word)``).
Words = _gettext.NullTranslations
ENGLISH: Words = _gettext.NullTranslations()


def _(message: str) -> str:
    """Marks a message for the catalog; it is translated where it is used."""
    return message


Scores = tuple[int, int, int, int]

QUEEN_CARDS = ("Q♠", "Q♥", "Q♦", "Q♣")
SHORT_LABELS = {
    Contract.KING_OF_HEARTS: _("K♥"),
    Contract.DIAMONDS: _("Diamonds"),
    Contract.QUEENS: _("Queens"),
    Contract.COLLECTIONS: _("Collections"),
    Contract.TREX: _("Trex"),
}
THROW_IN_REASONS = {
    "kh-redeal": _("K♥ redeal"),
    "trex-twos": _("2s for Trex"),
    "misdeal": _("misdeal"),
    "other": _("other reason"),
}


PAPER_SIZES = {"a4": "A4", "letter": "letter"}


def paper_size(paper: str) -> str:
    """The CSS page size for *paper*: "A4" or "Letter", in any case."""
    try:
        return PAPER_SIZES[str(paper).lower()]
    except KeyError:
        raise ValueError(f"paper must be 'A4' or 'Letter', not {paper!r}") from None


def text_direction(text: str) -> str:
    """``"rtl"`` or ``"ltr"`` from the first strong character, as HTML's ``dir="auto"`` does."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return "rtl"
        if kind == "L":
            return "ltr"
    return "ltr"


@dataclass(frozen=True)
class Mark:
    """A doubled card: K♥ or a queen, the seat that doubled it, and who led (leader-credit)."""

    card: str
    doubled_by: int
    led_by: int | None = None


@dataclass(frozen=True)
class Row:
    """One line of the grid.

    ``kind`` is ``"deal"`` (scored), ``"void"`` (thrown in or replayed: no points) or ``"open"``
    (a contract still to play: blank cells).
    """

    kind: str
    label: str
    number: int | None = None
    marks: tuple[Mark, ...] = ()
    note: str = ""
    note_by: int | None = None
    struck: bool = False
    points: Scores | None = None


@dataclass(frozen=True)
class KingdomBlock:
    number: int
    king: int | None  # None while the table has still to pick the King
    rows: tuple[Row, ...]
    subtotal: Scores | None
    running: Scores | None  # the game's totals after this kingdom's last deal
    complete: bool
    show_running: bool = False


@dataclass(frozen=True)
class Standing:
    place: int
    seat: int
    total: int
    winner: bool


@dataclass(frozen=True)
class Sheet:
    """Everything the scoresheet template needs."""

    title: str
    played_on: str
    players: tuple[str, ...]
    first_king: int
    kingdoms: tuple[KingdomBlock, ...]
    totals: Scores
    is_over: bool
    deals_played: int
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    partnership: bool
    team_totals: tuple[int, int] | None
    team_result: str | None
    team_rule: str
    rules_summary: str
    values: tuple[str, ...]
    lang: str = "en"
    waiting: tuple[int, ...] = ()  # the deals waiting for the other side's confirmation


def build_sheet(
    game: Game,
    scored: GameScore | None = None,
    *,
    lang: str = "en",
    contract_words: Mapping[Contract, str] | None = None,
) -> Sheet:
    """Arrange *game* and its score (computed by the engine when not given) for printing.

    Every word the sheet holds (contract names, notes, values, rules) is in *lang*;
    *contract_words* are the names a table uses for some contracts instead of the catalog's.
    """
    t = words_for(lang, contract_names(contract_words))
    scored = scored if scored is not None else game.score()
    progress = game.progress()
    blocks = []
    for index in range(KINGDOMS):
        if index < len(progress.kingdoms):
            blocks.append(_played_kingdom(index, progress.kingdoms[index], game, scored, t))
        else:
            blocks.append(_future_kingdom(index, progress, game.rules, t))
    return Sheet(
        title=game.title,
        played_on=format_date(game.played_on, lang),
        players=game.players,
        first_king=game.first_king,
        kingdoms=tuple(blocks),
        totals=scored.totals,
        is_over=scored.is_over,
        deals_played=len(game.deals),
        standings=standings(scored.totals, scored.places, scored.winners),
        winners=scored.winners,
        partnership=scored.partnership,
        team_totals=scored.team_totals,
        team_result=scored.team_result,
        team_rule=game.rules.team_result,
        rules_summary=rules_summary(game.rules, lang, t),
        values=value_key(game.rules, t),
        lang=lang,
        waiting=confirmation_waiting(game) or (),
    )


def _played_kingdom(
    index: int, kingdom: Kingdom, game: Game, scored: GameScore, t: Words = ENGLISH
) -> KingdomBlock:
    _unused, subtotal, complete = scored.kingdoms[index]
    rows = [
        deal_row(number, game.deals[number], game.rules, scored.deals[number], t)
        for number in kingdom.deals
    ]
    if not complete:
        rows += open_rows(kingdom.contracts_left, game.rules, t)
    last = kingdom.deals[-1]
    # The totals after a kingdom, but for the last one played: the sheet's total row shows it.
    show_running = complete and last != len(game.deals) - 1
    return KingdomBlock(
        index + 1, kingdom.king, tuple(rows), subtotal, scored.running[last], complete, show_running
    )


def _future_kingdom(
    index: int, progress: Progress, rules: HouseRules, t: Words = ENGLISH
) -> KingdomBlock:
    """A kingdom not begun: its King when already known, and every contract open."""
    kings = progress.kings_so_far
    king: int | None = None
    if rules.rotation == "right":
        anchor, at = (kings[-1], len(kings) - 1) if kings else (progress.first_king, 0)
        king = (anchor + index - at) % 4
    elif not kings and index == 0:
        king = progress.first_king
    elif len(kings) == KINGDOMS - 1:
        king = next(s for s in range(4) if s not in kings)
    return KingdomBlock(
        index + 1, king, tuple(open_rows(ALL_CONTRACTS, rules, t)), None, None, False
    )


def deal_row(
    index: int, deal: DealRecord, rules: HouseRules, points: Scores, t: Words = ENGLISH
) -> Row:
    """The row of the deal at *index* (0-based) with the engine's points."""
    number = index + 1
    if deal.thrown_in is not None:
        reason = deal.thrown_in.reason
        reason = t.gettext(THROW_IN_REASONS[reason]) if reason in THROW_IN_REASONS else reason
        return Row("void", t.gettext("Thrown in"), number, note=reason, note_by=deal.thrown_in.by)
    label = contracts_label(deal.contracts, t)
    why = replay_reason(deal, rules)
    if why is not None:
        note = REPLAYED_SPLIT if why == "split-queens" else REPLAYED_SWEEP
        return Row("void", label, number, note=t.gettext(note), struck=True)
    return Row("deal", label, number, marks=doubled_cards(deal, rules), points=points)


def contract_names(words: Mapping[Contract, str] | None) -> dict[str, str]:
    """A table's own contract names, keyed by the catalog's message."""
    return {CONTRACT_LABELS[Contract(c)]: name for c, name in (words or {}).items()}


def contract_name(contract: Contract, t: Words = ENGLISH) -> str:
    return t.gettext(CONTRACT_LABELS[contract])


def contracts_label(contracts: Sequence[Contract], t: Words = ENGLISH) -> str:
    if len(contracts) == 1:
        return contract_name(contracts[0], t)
    if set(contracts) == set(NEGATIVE_CONTRACTS):
        return t.gettext("Complex")
    ordered = sorted(contracts, key=ALL_CONTRACTS.index)
    return " + ".join(t.gettext(SHORT_LABELS[c]) for c in ordered)


def doubled_cards(deal: DealRecord, rules: HouseRules) -> tuple[Mark, ...]:
    """The doubled K♥ and queens of a deal, in the order the sheet names them."""
    if not rules.doubling:
        return ()
    captures: list[tuple[str, Capture]] = []
    if deal.king_of_hearts is not None:
        captures.append(("K♥", deal.king_of_hearts))
    if deal.queens is not None:
        captures += list(zip(QUEEN_CARDS, deal.queens))
    marks = []
    for card, capture in captures:
        if capture.doubled_by is None:
            continue
        led_by = None
        if (
            rules.self_capture == "leader-credit"
            and capture.taker == capture.doubled_by
            and capture.led_by not in (None, capture.doubled_by)
        ):
            led_by = capture.led_by
        marks.append(Mark(card, capture.doubled_by, led_by))
    return tuple(marks)


def open_rows(left: Sequence[Contract], rules: HouseRules, t: Words = ENGLISH) -> list[Row]:
    """Blank rows for the contracts still to play in a kingdom."""
    if rules.fixed_order is not None:
        left = [c for c in rules.fixed_order if c in left]
    negatives = [c for c in left if c.is_negative]
    if rules.combining == "complex" and negatives:
        rows = [Row("open", t.gettext("Complex"))]
        if Contract.TREX in left:
            rows.append(Row("open", contract_name(Contract.TREX, t)))
        if left and left[0] is Contract.TREX:
            rows.reverse()
        return rows
    return [Row("open", contract_name(c, t)) for c in left]


def standings(
    totals: Scores, places: Sequence[int], winners: Sequence[int]
) -> tuple[Standing, ...]:
    """Players by their place (the engine's, RULES.md "Who wins": the lowest total first under
    reverse_scores), then by seat; tied players share a place."""
    order = sorted(range(4), key=lambda s: (places[s], s))
    return tuple(Standing(places[seat], seat, totals[seat], seat in winners) for seat in order)


def format_date(value: str | None, lang: str = "en") -> str:
    """ "20 November 2026", with the month's name in *lang*."""
    if not value:
        return ""
    day = _dt.date.fromisoformat(value)
    if lang == "en":
        return f"{day.day} {day:%B %Y}"
    return f"{day.day} {get_month_names('wide', locale=lang)[day.month]} {day.year}"


DOUBLING_RULE = _(
    "×2: doubled by its holder (named); another player who takes it scores twice "
    "its value and the holder gains its value"
)
REVERSED = _("all values reversed")
REPLAYED_SWEEP = _("sweep, replayed")
REPLAYED_SPLIT = _("split 2–2, replayed")
NOT_DOUBLED = _("Only the K♥ and the queens can be doubled.")
NO_DOUBLING = RULE["doubling"].line  # the rules line's own words


def contract_values(rules: HouseRules, t: Words = ENGLISH) -> dict[Contract, str]:
    """What each contract costs under the game's rules, from the engine's value table: the
    sheet's footer and each contract's rules page say these same lines."""
    swap = rules.swap_diamonds_collections
    return {
        Contract.KING_OF_HEARTS: f"{contract_name(Contract.KING_OF_HEARTS, t)} {_signed(KING_OF_HEARTS_VALUE)}",
        Contract.DIAMONDS: t.gettext("each diamond %(value)s")
        % {"value": _signed(DIAMOND_VALUE[swap])},
        Contract.QUEENS: t.gettext("each queen %(value)s") % {"value": _signed(QUEEN_VALUE)},
        Contract.COLLECTIONS: t.gettext("each trick %(value)s")
        % {"value": _signed(TRICK_VALUE[swap])},
        Contract.TREX: f"{contract_name(Contract.TREX, t)} {'/'.join(_signed(p) for p in TREX_PLACES)}",
    }


def value_key(rules: HouseRules, t: Words = ENGLISH) -> tuple[str, ...]:
    """The value of each contract under the game's rules, from the engine's table."""
    key = list(contract_values(rules, t).values())
    if rules.doubling:
        key.append(t.gettext(DOUBLING_RULE))
    if rules.reverse_scores:
        key.append(t.gettext(REVERSED))
    return tuple(key)


@dataclass(frozen=True)
class ContractRules:
    """One contract's rules as the sheet states them: what it costs, the doubling rule, and the
    house rules line, in the words of *t*."""

    contract: Contract
    name: str
    costs: str
    doubling: str
    reversed: str | None
    house_rules: str


def contract_rules(
    contract: Contract, rules: HouseRules, lang: str = "en", t: Words | None = None
) -> ContractRules:
    """*contract* under *rules*, from the lines the printed sheet prints (``contract_values``,
    ``value_key``'s doubling and reversal lines, ``rules_summary``): nothing said twice."""
    t = t if t is not None else (ENGLISH if lang == "en" else words_for(lang))
    if contract not in DOUBLED_CONTRACTS:
        doubling = t.gettext(NOT_DOUBLED)
    elif rules.doubling:
        doubling = t.gettext(DOUBLING_RULE)
    else:
        doubling = t.gettext(NO_DOUBLING)
    return ContractRules(
        contract,
        contract_name(contract, t),
        contract_values(rules, t)[contract],
        doubling,
        t.gettext(REVERSED) if rules.reverse_scores else None,
        rules_summary(rules, lang, t),
    )


def rules_summary(rules: HouseRules, lang: str = "en", t: Words | None = None) -> str:
    """The house rules in one line, in *lang* (the engine's ``summary()`` in English)."""
    if lang == "en" and t is None:
        return rules.summary()
    t = t if t is not None else words_for(lang)
    return rules_line(rules, lang, t.gettext, lambda contract: contract_name(contract, t))


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


def format_points(value: int | None) -> str:
    """A number as the sheet prints it: a true minus sign, no sign for positives."""
    if value is None:
        return ""
    return f"−{-value}" if value < 0 else str(value)
