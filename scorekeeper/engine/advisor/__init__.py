"""The contract advisor: with this hand, what does each open choice cost the King?

The other 39 cards are dealt at random to the other three seats, many times, and each open
choice is played to its end with the heuristic bots on the same deals (common random numbers);
the choices are ranked by their gain over a King on an average hand. Pure Python, like the rest
of the engine; the work is spread over one process per core when there is enough of it.

- :func:`advise` answers; :class:`Advice` and :class:`ChoiceAdvice` hold the answer;
- :func:`parse_hand` and :func:`parse_contracts` read a hand and open contracts from text;
- :func:`warm_up` starts the worker processes ahead of the question.
"""

from __future__ import annotations

from .core import DEFAULT_SEED, TARGET, Advice, ChoiceAdvice, advise
from .hand import AdviceError, parse_contracts, parse_hand
from .pool import warm_up

__all__ = [
    "DEFAULT_SEED",
    "TARGET",
    "Advice",
    "AdviceError",
    "ChoiceAdvice",
    "advise",
    "parse_contracts",
    "parse_hand",
    "warm_up",
]
