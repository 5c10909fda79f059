"""Hands for tests: the cards a test names, and the rest of the pack dealt in order."""

from __future__ import annotations

from scorekeeper.engine.cards import CARDS, Card, parse_cards


def fill_hands(fixed: dict[int, str]) -> list[list[Card]]:
    """Thirteen cards each: the *fixed* cards where given, the rest of the pack in order."""
    hands = {s: list(parse_cards(fixed.get(s, ""))) for s in range(4)}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in CARDS if c not in used]
    for seat in range(4):
        while len(hands[seat]) < 13:
            hands[seat].append(rest.pop(0))
    return [hands[s] for s in range(4)]
