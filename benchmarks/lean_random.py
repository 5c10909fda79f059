"""The reference for the engine benchmark: a lean, hand-tuned pure-Python random Trex player.

Cards are ints 0..51 (suit * 13 + rank, rank 0 = the 2), hands are lists, and nothing is
validated, recorded or scored beyond the bare tally. It plays a standard game: four kingdoms of
four trick deals and one Trex deal, every choice uniformly random among the legal ones.
"""

from __future__ import annotations

import random

JACK = 9  # rank index of the jack (2=0 ... A=12)


def play_tricks(hands: list[list[int]], leader: int, rng: random.Random) -> list[int]:
    tricks = [0, 0, 0, 0]
    choice = rng.choice
    for _ in range(13):
        hand = hands[leader]
        card = choice(hand)
        hand.remove(card)
        suit = card // 13
        best, winner = card, leader
        seat = leader
        for _ in range(3):
            seat = (seat + 1) & 3
            hand = hands[seat]
            follow = [c for c in hand if c // 13 == suit]
            c = choice(follow or hand)
            hand.remove(c)
            if c // 13 == suit and c > best:
                best, winner = c, seat
        tricks[winner] += 1
        leader = winner
    return tricks


def play_trex(hands: list[list[int]], leader: int, rng: random.Random) -> list[int]:
    low = [JACK + 1] * 4  # lowest rank laid per suit (JACK + 1 = suit not opened)
    high = [JACK - 1] * 4
    order: list[int] = []
    seat = leader
    while len(order) < 4:
        hand = hands[seat]
        if hand:
            legal = [
                c
                for c in hand
                if (c % 13 == JACK)
                or (
                    low[c // 13] <= JACK
                    and (c % 13 == low[c // 13] - 1 or c % 13 == high[c // 13] + 1)
                )
            ]
            if legal:
                c = rng.choice(legal)
                hand.remove(c)
                s, r = divmod(c, 13)
                if r == JACK:
                    low[s] = high[s] = JACK
                elif r < low[s]:
                    low[s] = r
                else:
                    high[s] = r
                if not hand:
                    order.append(seat)
        seat = (seat + 1) & 3
    return order


def play_game(rng: random.Random) -> list[int]:
    totals = [0, 0, 0, 0]
    deck = list(range(52))
    king = rng.randrange(4)
    for _ in range(4):
        for deal in range(5):
            rng.shuffle(deck)
            hands = [deck[i::4] for i in range(4)]
            if deal == 4:
                for place, seat in enumerate(play_trex(hands, king, rng)):
                    totals[seat] += (200, 150, 100, 50)[place]
            else:
                for seat, n in enumerate(play_tricks(hands, king, rng)):
                    totals[seat] -= 15 * n
        king = (king + 1) & 3
    return totals


def main() -> None:
    """Play games as a whole process, as ``scorekeeper simulate`` is run: the benchmark's
    reference for the command, start-up and imports included."""
    import argparse
    import time

    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    rng = random.Random(args.seed)
    totals = [0, 0, 0, 0]
    for _ in range(args.games):
        for seat, points in enumerate(play_game(rng)):
            totals[seat] += points
    seconds = time.perf_counter() - start
    print(f"{args.games} games in {seconds:.2f} s: {args.games / max(seconds, 1e-9):.1f} games/s")
    print(
        "Average final score by seat: "
        + ", ".join(f"seat {s}: {t / max(args.games, 1):+.1f}" for s, t in enumerate(totals))
    )


if __name__ == "__main__":
    main()
