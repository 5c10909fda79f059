"""``scorekeeper advise``: which open contract a King's hand is best for, from the command line.

scorekeeper advise --hand "AS KS 7H TD ..." [--open king_of_hearts,queens] [--rules JSON]
                   [--deals N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..engine import RulesError
from ..engine.advisor import DEFAULT_SEED, Advice, AdviceError, ChoiceAdvice, advise
from ..engine.advisor import parse_contracts, parse_hand
from ..engine.cards import format_cards, cards_of
from ..engine.contracts import ALL_CONTRACTS
from ..engine.play import KH_REDEAL, TREX_TWOS
from ..engine.progression import deal_options
from ..engine.rules import HouseRules
from ..languages import problem_sentence
from .common import fail

OWN_REDEALS = {
    KH_REDEAL: "With this hand you may ask for a redeal once King of Hearts is announced; "
    "the figures are for playing it.",
    TREX_TWOS: "With this hand you may throw in once Trex is announced; the figures are for "
    "playing it.",
}


def cmd_advise(args: argparse.Namespace) -> int:
    try:
        hand = parse_hand(args.hand)
        open_contracts = parse_contracts(args.open) if args.open is not None else ALL_CONTRACTS
    except AdviceError as exc:
        return fail([problem_sentence(exc.problem())])
    try:
        rules = HouseRules.from_dict(json.loads(args.rules)) if args.rules else HouseRules()
    except (ValueError, RulesError) as exc:
        return fail([f"--rules: {exc}"])
    if args.deals is not None and args.deals < 1:
        return fail([f"--deals must be 1 or more, not {args.deals}."])
    options = deal_options(open_contracts, rules)
    if not options:
        return fail(["Under these rules no deal can be chosen from the open contracts."])
    advice = advise(hand, options, rules, deals=args.deals, seed=args.seed)
    if args.json:
        print(json.dumps(advice.to_dict(), ensure_ascii=False, indent=1))
    else:
        print_advice(hand, advice, rules)
    return 0


def label(choice: ChoiceAdvice) -> str:
    if len(choice.contracts) == 4:
        return "Complex"
    return " + ".join(c.label for c in choice.contracts)


def seen(choice: ChoiceAdvice) -> list[str]:
    """What the deals showed, as on the page."""
    out = []
    if choice.king_of_hearts is not None:
        out.append(f"you take the K♥ in {100 * choice.king_of_hearts:.0f}% of deals")
    if choice.diamonds is not None:
        out.append(f"you take {choice.diamonds:.1f} diamonds on average")
    if choice.queens is not None:
        out.append(f"you take {choice.queens:.1f} queens on average")
    if choice.tricks is not None:
        out.append(f"you take {choice.tricks:.1f} tricks on average")
    if choice.first_out is not None and choice.place is not None:
        out.append(
            f"you go out first in {100 * choice.first_out:.0f}% of deals; your average "
            f"place is {choice.place:.1f}"
        )
    return out


def print_advice(hand: int, advice: Advice, rules: HouseRules) -> None:
    print(f"Hand: {format_cards(cards_of(hand), symbols=True)}")
    print(f"Rules: {rules.summary()}")
    side = "you and your partner" if rules.partnership else "you"
    print(
        f"Points for {side} per deal; gain = this hand minus an average hand. "
        f"At least {min(c.samples for c in advice.choices)} deals per choice, seed "
        f"{advice.seed}."
    )
    for rank, choice in enumerate(advice.choices, start=1):
        mark = " (best)" if choice.best else " (within the noise)" if choice.within_noise else ""
        print(f"{rank:>2}. {label(choice)}{mark}: gain {choice.gain:+.1f}")
        print(
            f"    this hand {choice.expected:+.1f} (90%: {choice.low:+.1f} to "
            f"{choice.high:+.1f}), an average hand {choice.average_hand:+.1f}"
        )
        for line in seen(choice):
            print(f"    {line}")
    if advice.close:
        print(
            f"{label(advice.best)} is best, but the deals cannot tell it apart from "
            + " and ".join(label(c) for c in advice.close)
            + "."
        )
    for reason in advice.own_redeals:
        print(OWN_REDEALS[reason])


def add_commands(sub: Any) -> None:
    cmd = sub.add_parser("advise", help="which open contract a King's hand is best for")
    cmd.add_argument(
        "--hand",
        required=True,
        help='the King\'s 13 cards, e.g. "AS KS 7H TD ..." (ranks 2-9, T or 10, J, '
        "Q, K, A; suits S H D C or ♠ ♥ ♦ ♣)",
    )
    cmd.add_argument(
        "--open", default=None, help="the contracts still open, comma-separated (default: all five)"
    )
    cmd.add_argument("--rules", default=None, help="the rules object as JSON text")
    cmd.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals played per choice (default: enough for ±10 points at 90%%)",
    )
    cmd.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help="seed of the random deals: the same seed gives the same advice",
    )
    cmd.add_argument("--json", action="store_true", help="print the advice as JSON")
    cmd.set_defaults(func=cmd_advise)
