"""Building valid game documents for tests, from a compact description of each deal."""

from __future__ import annotations

from typing import Any

ORDER = ["trex", "king_of_hearts", "diamonds", "queens", "collections"]


def standard_deal(king: int, contract: str) -> dict[str, Any]:
    """A plausible result for *contract* in a deal dealt by *king*."""
    other = (king + 1) % 4
    if contract == "trex":
        return {
            "king": king,
            "contracts": ["trex"],
            "trex_order": [king, other, (king + 2) % 4, (king + 3) % 4],
        }
    if contract == "king_of_hearts":
        return {"king": king, "contracts": ["king_of_hearts"], "king_of_hearts": {"taker": other}}
    if contract == "diamonds":
        return {"king": king, "contracts": ["diamonds"], "diamonds": [4, 3, 2, 4]}
    if contract == "queens":
        return {
            "king": king,
            "contracts": ["queens"],
            "queens": {
                "spades": {"taker": 0},
                "hearts": {"taker": 1},
                "diamonds": {"taker": 2},
                "clubs": {"taker": 3},
            },
        }
    return {"king": king, "contracts": ["collections"], "tricks": [3, 4, 3, 3]}


def complex_deal(king: int) -> dict[str, Any]:
    return {
        "king": king,
        "contracts": ["king_of_hearts", "diamonds", "queens", "collections"],
        "king_of_hearts": {"taker": 1},
        "diamonds": [0, 6, 3, 4],
        "queens": {
            "spades": {"taker": 1},
            "hearts": {"taker": 2},
            "diamonds": {"taker": 1},
            "clubs": {"taker": 3},
        },
        "tricks": [0, 6, 3, 4],
    }


def standard_game(
    first_king: int = 0, rules: dict | None = None, players: list[str] | None = None
) -> dict[str, Any]:
    """A whole valid 20-deal game under the default rotation."""
    deals = []
    for k in range(4):
        king = (first_king + k) % 4
        deals += [standard_deal(king, c) for c in ORDER]
    return {
        "format": "trex-game/1",
        "title": "Test night",
        "played_on": "2026-11-20",
        "players": players or ["Aya", "Bilal", "Carla", "Dana"],
        "rules": rules or {},
        "first_king": first_king,
        "deals": deals,
    }


def complex_game(first_king: int = 0, rules: dict | None = None) -> dict[str, Any]:
    deals = []
    for k in range(4):
        king = (first_king + k) % 4
        deals += [standard_deal(king, "trex"), complex_deal(king)]
    return {
        "format": "trex-game/1",
        "players": ["Aya", "Bilal", "Carla", "Dana"],
        "rules": {"combining": "complex", **(rules or {})},
        "first_king": first_king,
        "deals": deals,
    }
