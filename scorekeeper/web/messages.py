"""The one place where the web wing turns an engine Problem into words.

A translation plugs in here later: it maps ``problem.code`` to its own template and formats it
with the same parameters.
"""
from __future__ import annotations

from typing import Any

from ..engine import Problem
from ..engine.errors import render_problem
from ..engine.messages import render

#: Where a form says things better than the file-format wording (the form has buttons, not keys).
FORM_MESSAGES: dict[str, str] = {
    "bad_thrown_in_reason": "say why the deal was thrown in",
    "no_first_king": "say who holds the 7♥",
    "bad_first_king": "say who holds the 7♥",
}


def _params(problem: Problem) -> dict[str, Any]:
    params = dict(problem.params)
    if "seat" in params and isinstance(params["seat"], int):
        params["seat"] = params["seat"] + 1  # people count players from 1
    return params


def problem_text(problem: Problem, *, context: bool = False) -> str:
    """The problem as a sentence; with *context*, prefixed by its deal and contract."""
    params = _params(problem)
    if problem.code == "bad_seat" and params.get("value") is None:
        text = f"say {params.get('what', 'who')}"
    elif problem.code in FORM_MESSAGES:
        text = FORM_MESSAGES[problem.code].format(**params)
    else:
        text = render(problem.code, params)
    if context:
        text = render_problem(problem, text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
