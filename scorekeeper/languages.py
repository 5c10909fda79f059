"""The languages the app speaks, in one place for the web pages, the printed sheet and the
command line: which there are, which run right to left, where their catalog is, how each
separates the items of a list, the Arabic-Indic digits a phone may ask for, and how the rules
line and an engine's problem are said in words (by a catalog's gettext the caller passes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from babel import Locale
from babel.numbers import format_decimal

from .engine.contracts import CONTRACT_LABELS, Contract
from .engine.errors import Problem
from .engine.messages import MESSAGES, N_
from .engine.rules import RULES_TEXT, HouseRules

LANGUAGES: tuple[str, ...] = ("en", "ar")
RTL_LANGUAGES = frozenset({"ar"})
#: The catalogs (``ar/LC_MESSAGES/messages.po`` and ``.mo``); English is the messages themselves.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: How a language separates a list's items, and a description's parts.
SEPARATORS: dict[str, tuple[str, str]] = {"en": (", ", "; "), "ar": ("، ", "؛ ")}
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
#: How numbers are written in each digit setting: Babel's locale and numbering system, whose
#: separators and percent sign go with the digits (Arabic-Indic: "١٢٫٥", "٤٢٪؜").
NUMBERING = {"western": ("en", "latn"), "arabic": ("ar", "arab")}
MINUS = "\u2212"


def digits_text(value: object, arabic: bool) -> str:
    """*value* as text, its digits Arabic-Indic when *arabic*: the one way a page, a chart or the
    printed sheet writes a whole number, a date or a line that holds numbers."""
    text = "" if value is None else str(value)
    return text.translate(ARABIC_INDIC) if arabic else text


def number_text(
    value: float,
    arabic: bool,
    *,
    places: int = 0,
    percent: bool = False,
    plus: bool = False,
    trim: bool = False,
) -> str:
    """A figure (an average, a share) written with Babel's number formatting in the digit
    setting: its decimal separator and percent sign those of the numbering system ("12.5",
    "42%"; "١٢٫٥", "٤٢٪؜"), rounded to *places*; *trim* drops a fraction of zero ("3" for
    3.0). A true minus sign on the left; with *plus*, a plus sign on a positive figure. No
    grouping: the pages write 1234 as the sheet does."""
    locale, system = NUMBERING["arabic" if arabic else "western"]
    rounded = round(abs(value), places)
    if trim and rounded == int(rounded):
        places = 0
    pattern = "0." + "0" * places if places else "0"
    text = format_decimal(
        rounded, pattern, locale=locale, numbering_system=system, group_separator=False
    )
    if percent:
        text += Locale.parse(locale).number_symbols[system]["percentSign"]
    if arabic:
        text = text.translate(ARABIC_INDIC)
    if rounded and value < 0:
        return MINUS + text
    return "+" + text if rounded and plus else text


def rules_line(
    rules: HouseRules, lang: str, say: Callable[[str], str], name: Callable[[Contract], str]
) -> str:
    """The house rules in one line in *lang*: the engine's parts (``summary_parts``), each
    template said by *say* (a catalog's gettext) and each contract named by *name*."""
    items, parts = SEPARATORS.get(lang, SEPARATORS["en"])

    def part(code: str, params: Mapping[str, Any]) -> str:
        values = {
            key: items.join(name(c) for c in value) if key == "contracts" else value
            for key, value in params.items()
        }
        try:
            return say(RULES_TEXT[code]).format(**values)
        except (KeyError, IndexError, ValueError):
            return RULES_TEXT.get(code, code).format(**values)

    return parts.join(part(code, params) for code, params in rules.summary_parts())


# -- an engine problem in words ------------------------------------------------------------
#: Where a form says things better than the file-format wording (the form has buttons, not keys).
FORM_MESSAGES: dict[str, str] = {
    "bad_thrown_in_reason": N_("say why the deal was thrown in"),
    "no_first_king": N_("say who holds the 7♥"),
    "bad_first_king": N_("say who holds the 7♥"),
}
SAY_WHO = N_("say {what}")
_LABEL_TO_CONTRACT = {label: contract for contract, label in CONTRACT_LABELS.items()}


def english_label(contract: Contract) -> str:
    return CONTRACT_LABELS[contract]


def problem_sentence(
    problem: Problem,
    *,
    say: Callable[[str], str] = str,
    number: Callable[[int], str] = str,
    label: Callable[[Contract], str] = english_label,
    context: bool = False,
    lapsed: bool = False,
) -> str:
    """*problem* as a sentence: each template said by *say* (a catalog's gettext, unformatted),
    each number written by *number* (the reader's digits) and each contract named by *label*
    (the table's words); with *context*, prefixed by its game, deal and contract. With
    *lapsed*, said of a stored deal that a check added later refuses ("Deal 3 no longer
    passes: ..."). The defaults say it in English, as the command line does."""
    params = _problem_params(problem, say, label)
    params = {
        key: number(value) if type(value) is int and key != "value" else value
        for key, value in params.items()
    }
    if problem.code == "bad_seat" and params.get("value") is None:
        params.setdefault("what", "who")
        text = _formatted(say, SAY_WHO, params)
    elif problem.code in FORM_MESSAGES:
        text = _formatted(say, FORM_MESSAGES[problem.code], params)
    else:
        text = _formatted(say, MESSAGES.get(problem.code, problem.code), params)
    if lapsed:
        text = _formatted(
            say, MESSAGES["no_longer_passes"], {"deal": number(problem.deal or 0), "why": text}
        )
    elif context:
        where = _problem_where(problem, say, number, label)
        if where:
            text = say(N_("%(where)s: %(what)s")) % {"where": where, "what": text}
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _problem_params(
    problem: Problem, say: Callable[[str], str], label: Callable[[Contract], str]
) -> dict[str, Any]:
    params = dict(problem.params)
    if problem.code == "not_json" and isinstance(params.get("detail"), str):
        params["detail"] = say(params["detail"])
    question = params.get("question")
    if problem.code == "bad_seat" and isinstance(question, str):  # "K♥: who took it"
        what = say(question)
        card = params.get("card")
        params["what"] = (
            say(N_("%(where)s: %(what)s")) % {"where": card, "what": what} if card else what
        )
    card = params.get("card")
    if isinstance(card, str):  # the engine names cards in English: "the K♥", "a diamond"
        if card.startswith("the "):
            params["card"] = say(N_("the %(card)s")) % {"card": card[4:]}
        elif card == "a diamond":
            params["card"] = say(N_("a diamond"))
    for key in ("contract", "expected"):
        value = params.get(key)
        if isinstance(value, str) and value in _LABEL_TO_CONTRACT:
            params[key] = label(_LABEL_TO_CONTRACT[value])
    return params


def _formatted(say: Callable[[str], str], template: str, params: dict[str, Any]) -> str:
    try:
        return say(template).format(**params)
    except (KeyError, IndexError, ValueError):
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template


def _problem_where(
    problem: Problem,
    say: Callable[[str], str],
    number: Callable[[int], str],
    label: Callable[[Contract], str],
) -> str:
    """ "Game 2, Deal 3, Diamonds": which game, deal and contract a problem is about."""
    parts = []
    if problem.game is not None:
        parts.append(say(N_("Game %(number)s")) % {"number": number(problem.game)})
    if problem.deal is not None:
        parts.append(say(N_("Deal %(number)s")) % {"number": number(problem.deal)})
    if problem.contract is not None:
        parts.append(label(Contract(problem.contract)))
    return say(N_(", ")).join(parts)
