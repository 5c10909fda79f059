"""What the pages show, worked out from the engine's answers: standings, the kingdom grid, the
next deal's choices, a deal told in words. Nothing here scores: the numbers come from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from flask import Flask
from flask_babel import gettext, lazy_gettext
from markupsafe import Markup, escape

from ...engine import NEGATIVE_CONTRACTS, Contract, DealRecord, Game, GameScore, Progress
from ...engine.contracts import ALL_CONTRACTS, QUEEN_SUITS
from ...engine.scoring import replay_reason, score_deal
from .dealforms import SUIT_SYMBOLS
from .i18n import isolated, num
from .messages import contract_label

MINUS = "\u2212"
#: Why a deal was thrown in, as the table says it (lazy: read in the page's language).
REASON_LABELS = {
    "kh-redeal": lazy_gettext("K♥ redeal"),
    "trex-twos": lazy_gettext("Trex: the 2s"),
    "misdeal": lazy_gettext("misdeal"),
    "other": lazy_gettext("other reason"),
}


def reason_label(reason: str) -> str:
    """A throw-in's reason in the current language (an unknown one as the file gave it)."""
    label = REASON_LABELS.get(reason)
    return str(label) if label is not None else reason


def signed(value: int) -> str:
    """+75, −150, 0: the sign always shown, a true minus sign."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def score_html(value: int) -> Markup:
    """``score(value)`` in the templates: the signed score in a span coloured by its sign."""
    tone = "neg" if value < 0 else "pos" if value > 0 else ""
    return Markup(f'<span class="{tone}">{num(signed(value))}</span>')  # signs and digits only


def contracts_label(contracts: Sequence[Contract]) -> str:
    if len(contracts) == len(NEGATIVE_CONTRACTS) and Contract.TREX not in contracts:
        return gettext("Complex")
    return " + ".join(contract_label(c) for c in contracts)


def contracts_query(contracts: Sequence[Contract]) -> str:
    return ",".join(c.value for c in contracts)


def parse_contracts(values: Sequence[str]) -> tuple[Contract, ...] | None:
    """Contracts named in a query or a hidden field (comma-separated or repeated), or None."""
    names = [n for v in values for n in v.split(",") if n]
    try:
        found = [Contract(n) for n in names]
    except ValueError:
        return None
    if not found or len(set(found)) != len(found):
        return None
    return tuple(sorted(found, key=ALL_CONTRACTS.index))


def tell_apart(games: Sequence[dict[str, Any]]) -> Sequence[dict[str, Any]]:
    """Give each game of a list its ``label``: its title, and where other games of the same
    night share that title, "…, game 2" and on in the order they were started."""
    seen: dict[tuple[Any, str], list[dict[str, Any]]] = {}
    for game in sorted(games, key=lambda g: g["id"]):
        game["label"] = game.get("title") or ""
        if game["label"]:
            seen.setdefault((game.get("night"), game["label"]), []).append(game)
    for same in seen.values():
        for number, game in enumerate(same[1:], start=2):
            game["label"] = gettext(
                "%(title)s, game %(number)s", title=game["label"], number=num(number)
            )
    return games


# -- standings ---------------------------------------------------------------------------
@dataclass
class Standing:
    seat: int
    name: str
    total: int
    rank: int  # the place: 1 to 4, level totals share one
    winner: bool


def standings(names: Sequence[str], scored: GameScore) -> list[Standing]:
    """The players in seat order, as a paper sheet keeps them, each with their place: the rows
    do not move under the scorer's thumb when a deal changes the order."""
    totals = scored.totals
    return [
        Standing(s, names[s], totals[s], scored.places[s], s in scored.winners) for s in range(4)
    ]  # in seat order; places by RULES.md "Who wins"


def teams(names: Sequence[str], scored: GameScore) -> list[dict[str, Any]] | None:
    if scored.team_totals is None:
        return None
    keys = ("0+2", "1+3")
    pair = escape(gettext("%(first)s & %(second)s"))  # each name isolated in the pair
    return [
        {
            "names": pair % {"first": isolated(names[a]), "second": isolated(names[a + 2])},
            "total": scored.team_totals[a],
            "won": scored.is_over and scored.team_result == keys[a],
        }
        for a in (0, 1)
    ]


# -- the scoresheet ------------------------------------------------------------------------
@dataclass
class SheetRow:
    """One deal on the sheet: its contracts, each player's points and total after it."""

    number: int
    label: str
    scores: tuple[int, ...] | None = None  # None: it scores nothing (see note)
    running: tuple[int, ...] | None = None
    note: str | None = None  # why it scores nothing: thrown in, a sweep replayed (markup)


@dataclass
class SheetKingdom:
    index: int
    king: int | None
    rows: list[SheetRow] = field(default_factory=list)
    subtotal: tuple[int, ...] | None = None
    complete: bool = False
    current: bool = False
    left: str = ""  # the contracts the King has still to play, while the kingdom is under way


@dataclass
class Sheet:
    """The game as a paper sheet: a row per deal, kingdom by kingdom, with the totals and each
    player's place at its head."""

    kingdoms: list[SheetKingdom]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool


def not_played_note(
    record: DealRecord, names: Sequence[str], game: Game, markup: bool = False
) -> str | None:
    """Why a deal scores nothing (thrown in, a sweep replayed, Queens split two and two and
    replayed), or None when it scores."""
    if record.thrown_in is not None:
        return _say(
            markup,
            gettext("thrown in (%(reason)s), asked by %(name)s"),
            reason=reason_label(record.thrown_in.reason),
            name=_who(names[record.thrown_in.by], markup),
        )
    why = replay_reason(record, game.rules)
    if why == "split-queens":
        return _say(
            markup,
            gettext("%(contracts)s: split two and two, replayed"),
            contracts=contracts_label(record.contracts),
        )
    if why is not None:
        return _say(
            markup,
            gettext("%(contracts)s: a sweep, replayed"),
            contracts=contracts_label(record.contracts),
        )
    return None


def current_kingdom(progress: Progress) -> int | None:
    """The index of the kingdom under way, or of the next one between kingdoms."""
    if progress.is_over:
        return None
    return len(progress.kingdoms) - (1 if progress.current is not None else 0)


def short_label(contracts: Sequence[Contract]) -> str:
    """The contracts of a deal as the sheet names them: "K♥", "Queens", "Complex"."""
    if len(contracts) > 1:
        complex_deal = contracts_label(contracts)
        if complex_deal == gettext("Complex"):
            return complex_deal
    return " + ".join(contract_label(c, short=True) for c in contracts)


def scoresheet(game: Game, progress: Progress, scored: GameScore) -> Sheet:
    """The sheet of *game*: the kingdoms played or under way, and the one whose King is known
    next; every number is the engine's."""
    kingdoms = []
    current = current_kingdom(progress)
    for i, kingdom in enumerate(progress.kingdoms):
        view = SheetKingdom(
            i + 1,
            kingdom.king,
            subtotal=scored.kingdoms[i][1],
            complete=kingdom.is_complete,
            current=i == current,
        )
        for index in kingdom.deals:
            record = game.deals[index]
            note = not_played_note(record, game.players, game, markup=True)
            row = SheetRow(
                index + 1,
                deal_title(record)
                if record.thrown_in is not None
                else short_label(record.contracts),
            )
            if note is None:
                row.scores, row.running = scored.deals[index], scored.running[index]
            else:
                row.note = note
            view.rows.append(row)
        kingdoms.append(view)
    if current == len(progress.kingdoms) and progress.king is not None:  # its King is known
        kingdoms.append(SheetKingdom(current + 1, progress.king, current=True))
    if current is not None and current < len(kingdoms):
        kingdoms[current].left = gettext(", ").join(
            contract_label(c, short=True) for c in progress.contracts_left()
        )
    return Sheet(kingdoms, scored.totals, scored.places, scored.winners, scored.is_over)


# -- the next deal -------------------------------------------------------------------------
@dataclass
class Option:
    label: str
    query: str


@dataclass
class NextDeal:
    number: int
    kings: tuple[int, ...]
    king: int | None
    options: list[Option]
    left: tuple[Contract, ...]
    negatives_left: tuple[Contract, ...]
    combination: bool


def next_deal(game: Game, progress: Progress, king: int | None = None) -> NextDeal | None:
    if progress.is_over:
        return None
    kings = progress.next_kings()
    chosen = king if king in kings else progress.king
    left = progress.contracts_left()
    options = [Option(contracts_label(o), contracts_query(o)) for o in progress.deal_options()]
    combination = game.rules.combining == "combination" and game.rules.fixed_order is None
    return NextDeal(
        progress.count + 1,
        kings,
        chosen,
        options,
        left,
        tuple(c for c in left if c.is_negative),
        combination,
    )


def options_after(progress: Progress) -> dict[str, Any]:
    """The engine's choices after each set of contracts that deals waiting on a phone could use
    up (``Progress.options_after``), for the game page to show only what is open
    (static/waiting.js; no rule is written there). Contracts are written as their places in
    ``ALL_CONTRACTS``: the set ``"03"``, the choice ``"0"``, to keep the page light."""

    def code(contracts: Any) -> str:
        return "".join(sorted(str(ALL_CONTRACTS.index(c)) for c in contracts))

    return {
        "n": progress.count + 1,
        "c": [c.value for c in ALL_CONTRACTS],
        "o": {
            code(used): [code(o) for o in options]
            for used, options in progress.options_after().items()
        },
    }


def preview_rows(
    names: Sequence[str], record: DealRecord, rules: Any, new_game: Game
) -> dict[str, Any]:
    """The live preview of an entry: each player's score for the deal and total after it,
    as the engine counts them, with the deal told in words."""
    deal = score_deal(record, rules)
    totals = new_game.score().totals
    rows = [
        {
            "seat": s,
            "name": names[s],
            "deal": deal[s],
            "deal_text": num(signed(deal[s])),
            "total": totals[s],
            "total_text": num(signed(totals[s])),
        }
        for s in range(4)
    ]
    note = not_played_note(record, names, new_game)
    if note is not None:
        note = gettext("%(note)s: it scores nothing and the contract is not used up.", note=note)
    return {"rows": rows, "lines": describe(record, names), "note": note}


# -- a deal in words -----------------------------------------------------------------------
def _say(markup: bool, text: str, **params: Any) -> str:
    """A translated *text* filled in with *params*: HTML-safe (names stay markup) or plain."""
    return escape(text) % params if markup else text % params


def _who(name: str, markup: bool) -> str:
    """A player's name, isolated in ``<bdi>`` for a page (names mix Arabic and Latin)."""
    return isolated(name) if markup else name


def _joined(parts: Sequence[str], separator: str, markup: bool) -> str:
    return escape(separator).join(parts) if markup else separator.join(parts)


def _capture_text(
    card: str,
    taker: int,
    holder: int | None,
    led: int | None,
    names: Sequence[str],
    markup: bool = False,
) -> str:
    if markup:  # K♥, Q♠: letter then suit, left to right in an Arabic line too
        card = Markup('<span class="ltr">%s</span>') % card
    words = {"card": card, "taker": _who(names[taker], markup)}
    if holder is None:
        return _say(markup, gettext("%(card)s: %(taker)s"), **words)
    words["holder"] = _who(names[holder], markup)
    if led is None:
        return _say(markup, gettext("%(card)s: %(taker)s (doubled by %(holder)s)"), **words)
    words["leader"] = _who(names[led], markup)
    return _say(
        markup, gettext("%(card)s: %(taker)s (doubled by %(holder)s, %(leader)s led)"), **words
    )


def _counts(label: str, counts: Sequence[int], names: Sequence[str], markup: bool) -> str:
    each = [
        _say(markup, gettext("%(name)s %(count)s"), name=_who(names[s], markup), count=num(n))
        for s, n in enumerate(counts)
    ]
    return _say(
        markup,
        gettext("%(contract)s: %(counts)s"),
        contract=label,
        counts=_joined(each, gettext(", "), markup),
    )


def _trex_places() -> dict[int, str]:
    return {
        1: gettext("first out %(name)s"),
        2: gettext("second %(name)s"),
        3: gettext("third %(name)s"),
        4: gettext("last %(name)s"),
    }


def thrown_in_text(record: DealRecord, names: Sequence[str], markup: bool = False) -> str:
    """ "Thrown in (misdeal), asked by Dana": why the deal was not played, and who asked."""
    reason = reason_label(record.thrown_in.reason)
    return _say(
        markup,
        gettext("Thrown in (%(reason)s), asked by %(name)s"),
        reason=reason,
        name=_who(names[record.thrown_in.by], markup),
    )


def describe(record: DealRecord, names: Sequence[str], markup: bool = False) -> list[str]:
    """What the table entered for a deal, one line per contract; with *markup* the names are
    isolated in ``<bdi>`` for a page, else plain text (for JSON)."""
    if record.thrown_in is not None:
        return [thrown_in_text(record, names, markup)]
    lines = []
    if record.king_of_hearts is not None:
        c = record.king_of_hearts
        lines.append(_capture_text("K♥", c.taker, c.doubled_by, c.led_by, names, markup))
    if record.diamonds is not None:
        lines.append(_counts(contract_label(Contract.DIAMONDS), record.diamonds, names, markup))
    if record.queens is not None:
        lines.append(
            _joined(
                [
                    _capture_text(
                        f"Q{SUIT_SYMBOLS[s]}", q.taker, q.doubled_by, q.led_by, names, markup
                    )
                    for s, q in zip(QUEEN_SUITS, record.queens)
                ],
                gettext("; "),
                markup,
            )
        )
    if record.tricks is not None:
        lines.append(_counts(gettext("Tricks"), record.tricks, names, markup))
    if record.trex_order is not None:
        places = _trex_places()
        order = [
            _say(markup, places[p], name=_who(names[s], markup))
            for p, s in enumerate(record.trex_order, start=1)
        ]
        lines.append(
            _say(
                markup,
                gettext("%(contract)s: %(counts)s"),
                contract=contract_label(Contract.TREX),
                counts=_joined(order, gettext(", "), markup),
            )
        )
    return lines


def describe_html(record: DealRecord, names: Sequence[str]) -> list[str]:
    """``describe(record, names)`` in the templates: the lines with names in ``<bdi>``."""
    return describe(record, names, markup=True)


def deal_title(record: DealRecord) -> str:
    if record.thrown_in is not None:
        return gettext("Thrown in")
    return contracts_label(record.contracts)


def extract(index: int, container: Sequence[Any]) -> Any:
    """``seats|map('extract', names)``: the names of some seats."""
    return container[index]


def names_and(seats: Sequence[int], names: Sequence[str]) -> Markup:
    """``seats|names_and(names)``: the names of some seats in a sentence, "A and B", each name
    isolated (``<bdi>``): a Latin name inside Arabic keeps its place, and "و" its side."""
    return Markup(escape(gettext(" and "))).join(isolated(names[s]) for s in seats)


def init_app(app: Flask) -> None:
    app.add_template_filter(names_and)
    app.add_template_filter(signed)
    app.add_template_global(score_html)
    app.add_template_filter(extract)
    app.add_template_global(contracts_label)
    app.add_template_global(contract_label)
    app.add_template_global(describe_html, "describe")
    app.add_template_global(deal_title)
    app.add_template_global(options_after)
