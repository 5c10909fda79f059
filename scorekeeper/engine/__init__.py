"""The Trex rules engine: pure Python, importable without the web wing."""

from __future__ import annotations

from .contracts import ALL_CONTRACTS, NEGATIVE_CONTRACTS, Contract
from .errors import (
    IllegalPlay,
    InvalidResult,
    Problem,
    RuleError,
    RulesError,
    no_longer_passes_text,
)
from .gamefile import (
    LATER_CHECKS,
    Game,
    GameScore,
    game_to_dict,
    loads,
    dumps,
    read_document,
    read_game,
    score_game,
)
from .progression import Progress
from .records import Capture, DealRecord, ThrowIn, read_deal
from .rules import PRESETS, HouseRules
from .scoring import is_replayed, is_sweep, score_deal
from .validation import check_deal, validate_entry

__all__ = [
    "ALL_CONTRACTS",
    "NEGATIVE_CONTRACTS",
    "Contract",
    "IllegalPlay",
    "InvalidResult",
    "Problem",
    "RuleError",
    "RulesError",
    "no_longer_passes_text",
    "LATER_CHECKS",
    "Game",
    "GameScore",
    "game_to_dict",
    "loads",
    "dumps",
    "read_document",
    "read_game",
    "score_game",
    "Progress",
    "Capture",
    "DealRecord",
    "ThrowIn",
    "read_deal",
    "PRESETS",
    "HouseRules",
    "is_sweep",
    "is_replayed",
    "score_deal",
    "check_deal",
    "validate_entry",
]
