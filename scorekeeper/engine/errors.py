"""Errors and problems, each with a message a player can read.

A :class:`Problem` carries a message *code* and its parameters, so that a translating layer can
render it in another language; ``str(problem)`` renders it in English.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import render


class RuleError(ValueError):
    """A move or a setting that the rules do not allow; the message says why."""


class IllegalPlay(RuleError):
    """A card or action that is not legal at this point of a deal."""


class RulesError(RuleError):
    """An unknown or malformed house-rule setting.

    Like a :class:`Problem` it carries a message code and parameters, so that a translating layer
    can say it in another language; ``str(error)`` is the English sentence.
    """

    def __init__(self, code: str, params: dict[str, Any] | None = None):
        self.code = code
        self.params = dict(params or {})
        super().__init__(render(code, self.params))

    def problem(self, **context: Any) -> Problem:
        """The same message as a :class:`Problem`, with *context* (``field=...``, ...)."""
        return Problem(self.code, self.params, **context)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entered result or a game file.

    Whatever a person reads as a number counts from 1: the deal, the game, and a player named
    by number (the ``seat`` parameter of the name problems).
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    deal: int | None = None  # counted from 1
    contract: str | None = None  # a contract name, when the problem concerns one
    field: str | None = None  # the result field it concerns, for forms
    game: int | None = None  # counted from 1, in a document holding several games

    @property
    def text(self) -> str:
        """The problem alone, without the deal and contract prefix."""
        return render(self.code, self.params)

    def __str__(self) -> str:
        return render_problem(self, self.text)


def render_problem(
    problem: Problem, text: str, *, deal_word: str = "Deal", contract_label: str | None = None
) -> str:
    """Prefix *text* with "Deal N, Contract: " as the problem's context says."""
    from .contracts import Contract

    parts = []
    if problem.game is not None:
        parts.append(f"Game {problem.game}")
    if problem.deal is not None:
        parts.append(f"{deal_word} {problem.deal}")
    if problem.contract is not None:
        parts.append(contract_label or Contract(problem.contract).label)
    if parts:
        return f"{', '.join(parts)}: {text}"
    return text[:1].upper() + text[1:]


def no_longer_passes_text(problem: Problem) -> str:
    """A problem of a later check found in a stored game (``Game.no_longer_passes``), in English:
    "Deal 3 no longer passes: ..." (message code ``no_longer_passes``)."""
    text = render("no_longer_passes", {"deal": problem.deal, "why": problem.text})
    if problem.game is not None:
        return f"Game {problem.game}: {text}"
    return text[:1].upper() + text[1:]


class InvalidResult(RuleError):
    """A result or game that cannot have happened; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
