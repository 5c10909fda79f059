"""Every entry that RULES.md makes impossible is refused, and every possible one is accepted.

Simulated games (valid by construction) are changed one result field at a time: counts, takers,
doubled_by, led_by, the Trex order, the contracts, the King, redeal reasons, kept sweeps, and
what export adds (totals, places, winners). Each changed game goes through the engine's read
path (``read_game``) and through the oracle below, written from RULES.md and GAME_FORMAT.md
alone: it imports nothing from the engine and shares none of its code. Both kinds of answer are
counted, and a single disagreement fails the test.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Iterator

import pytest

from scorekeeper.engine import HouseRules, InvalidResult, game_to_dict, read_game
from scorekeeper.engine.simulate import simulate_game

NEGATIVES = ["king_of_hearts", "diamonds", "queens", "collections"]
CONTRACTS = NEGATIVES + ["trex"]
FIELD_OF = {
    "king_of_hearts": "king_of_hearts",
    "diamonds": "diamonds",
    "queens": "queens",
    "collections": "tricks",
    "trex": "trex_order",
}
SUITS = ["spades", "hearts", "diamonds", "clubs"]
REASONS = ["kh-redeal", "trex-twos", "misdeal", "other"]


# === the oracle: RULES.md, read directly ======================================================
class Impossible(Exception):
    """The game could not have happened."""


def seat(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise Impossible(f"{value!r} is not a seat")
    return value


@dataclass
class Table:
    """The house rules, as GAME_FORMAT.md spells them, with RULES.md's defaults."""

    rules: dict[str, Any]

    def get(self, key: str, default: Any) -> Any:
        return self.rules.get(key, default)

    @property
    def doubling(self) -> bool:
        return self.get("doubling", True)

    @property
    def leader_credit(self) -> bool:
        return self.get("self_capture", "single") == "leader-credit"

    @property
    def combining(self) -> str:
        return self.get("combining", "none")

    @property
    def split_queens(self) -> bool:
        """RULES.md "Partnership": Queens split two and two is replayed (partnership only)."""
        return self.get("split_queens_replay", False) and self.get("partnership", False)

    @property
    def sweep_tricks(self) -> int | None:
        sweep = self.get("sweep_replay", None)
        return None if sweep is None else sweep["collections_tricks"]


def counts(deal: dict[str, Any], key: str) -> list[int]:
    value = deal[key]
    if not isinstance(value, list) or len(value) != 4:
        raise Impossible("four counts")
    if any(type(n) is not int or n < 0 for n in value):
        raise Impossible("whole counts, none negative")
    if sum(value) != 13:
        raise Impossible("thirteen diamonds, thirteen tricks")
    return value


def capture(value: Any, table: Table) -> dict[str, int]:
    """Who took the K♥ or a queen; doubled_by only with doubling; led_by exactly when the
    leader-credit rule needs it (the holder doubled it and took it back)."""
    if not isinstance(value, dict) or "taker" not in value:
        raise Impossible("who took it")
    if set(value) - {"taker", "doubled_by", "led_by"}:
        raise Impossible("unknown capture key")
    out = {key: seat(v) for key, v in value.items()}
    if "doubled_by" in out and not table.doubling:
        raise Impossible("doubling is off")
    needs_leader = table.leader_credit and "doubled_by" in out and out["doubled_by"] == out["taker"]
    if needs_leader != ("led_by" in out):
        raise Impossible("who led, exactly when the leader-credit rule needs it")
    return out


@dataclass
class Played:
    """What the oracle reads from one played deal."""

    contracts: list[str]
    king: int
    kh: dict[str, int] | None = None
    diamonds: list[int] | None = None
    queens: dict[str, dict[str, int]] | None = None
    tricks: list[int] | None = None


def read_played(deal: dict[str, Any], table: Table) -> Played:
    names = deal.get("contracts")
    if not isinstance(names, list) or not names:
        raise Impossible("no contracts")
    if any(n not in CONTRACTS for n in names) or len(set(names)) != len(names):
        raise Impossible("each contract known and named once")
    for name in CONTRACTS:
        if (FIELD_OF[name] in deal) != (name in names):
            raise Impossible("result fields exactly for the contracts played")
    out = Played(list(names), deal["king"])
    if "king_of_hearts" in names:
        out.kh = capture(deal["king_of_hearts"], table)
    if "diamonds" in names:
        out.diamonds = counts(deal, "diamonds")
    if "queens" in names:
        queens = deal["queens"]
        if not isinstance(queens, dict) or sorted(queens) != sorted(SUITS):
            raise Impossible("four queens")
        out.queens = {s: capture(queens[s], table) for s in SUITS}
    if "collections" in names:
        out.tricks = counts(deal, "tricks")
    if "trex" in names:
        order = deal["trex_order"]
        if not isinstance(order, list) or sorted(seat(s) for s in order) != [0, 1, 2, 3]:
            raise Impossible("a finishing order of the four players")
    return out


def cards_hold_together(p: Played) -> None:
    """RULES.md "Combined deals": the cross-checks that follow from the cards being the same."""
    if p.diamonds is not None and p.queens is not None:
        if p.diamonds[p.queens["diamonds"]["taker"]] == 0:
            raise Impossible("the taker of the Q♦ took a diamond")
    if p.tricks is None:
        return
    penalty = [0, 0, 0, 0]
    if p.diamonds is not None:
        penalty = list(p.diamonds)
    if p.queens is not None:
        for suit_name, queen in p.queens.items():
            if not (suit_name == "diamonds" and p.diamonds is not None):  # Q♦ counted once
                penalty[queen["taker"]] += 1
    if p.kh is not None:
        penalty[p.kh["taker"]] += 1
    for s in range(4):
        if p.tricks[s] == 0 and penalty[s]:
            raise Impossible("no trick, no penalty card")
        if penalty[s] > 4 * p.tricks[s]:
            raise Impossible("four cards a trick")
    leaders = [c["led_by"] for c in [p.kh, *(p.queens or {}).values()] if c and "led_by" in c]
    for leader in leaders:
        if leader != p.king and p.tricks[leader] == 0:
            raise Impossible("a leader is the King or took a trick")


def is_a_sweep(p: Played, table: Table) -> bool:
    n = table.sweep_tricks
    if n is None:
        return False
    return (
        (p.diamonds is not None and 13 in p.diamonds)
        or (p.queens is not None and len({q["taker"] for q in p.queens.values()}) == 1)
        or (p.tricks is not None and max(p.tricks) >= n)
    )


@dataclass
class Kingdoms:
    """Where the game stands: each kingdom's King and the contracts it has played."""

    table: Table
    first_king: int
    kings: list[int] = field(default_factory=list)
    played: list[set[str]] = field(default_factory=list)

    def over(self) -> bool:
        return len(self.kings) == 4 and len(self.played[-1]) == 5

    def open_kingdom(self) -> bool:
        return bool(self.kings) and len(self.played[-1]) < 5

    def left(self) -> list[str]:
        played = self.played[-1] if self.open_kingdom() else set()
        return [c for c in CONTRACTS if c not in played]

    def next_in_order(self) -> str | None:
        order = self.table.get("fixed_order", None)
        return None if order is None else next(c for c in order if c in self.left())

    def may_deal(self, king: int) -> bool:
        if self.open_kingdom():
            return king == self.kings[-1]
        if not self.kings:
            return king == self.first_king
        if self.table.get("rotation", "right") == "table-picks":
            return king not in self.kings
        return king == (self.kings[-1] + 1) % 4

    def may_announce(self, contracts: list[str]) -> bool:
        """May the King announce these contracts now (RULES.md "Game, kingdoms, deals",
        "Combined deals", fixed_order)?"""
        if any(c not in self.left() for c in contracts):
            return False
        if len(contracts) > 1:
            if "trex" in contracts or self.table.combining == "none":
                return False
            if self.table.combining == "complex" and len(contracts) != 4:
                return False
        elif self.table.combining == "complex" and contracts != ["trex"]:
            return False
        following = self.next_in_order()
        return following is None or following in contracts

    def announceable(self, contract: str) -> bool:
        """Could the King announce *contract* now, alone or in some combined deal?"""
        negatives = [c for c in NEGATIVES if c in self.left()]
        shapes = [[c] for c in self.left()]
        if self.table.combining == "complex":
            shapes = [negatives, ["trex"]]
        elif self.table.combining == "combination":
            shapes += [list(g) for n in range(2, 5) for g in combinations(negatives, n)]
        return any(contract in s and self.may_announce(s) for s in shapes if s)

    def add(self, king: int, used: list[str]) -> None:
        if not self.open_kingdom():
            self.kings.append(king)
            self.played.append(set())
        self.played[-1].update(used)


def possible(doc: dict[str, Any], exported: list[int] | None = None) -> bool:
    """Could this game have happened, by RULES.md and GAME_FORMAT.md? *exported* is the totals
    that export wrote for the unchanged deals."""
    table = Table(doc.get("rules") or {})
    state = Kingdoms(table, doc["first_king"])
    try:
        for deal in doc["deals"]:
            play_deal(deal, table, state)
        check_computed(doc, table, state, exported)
    except Impossible:
        return False
    return True


def play_deal(deal: dict[str, Any], table: Table, state: Kingdoms) -> None:
    king = seat(deal.get("king"))
    if state.over() or not state.may_deal(king):
        raise Impossible("the King of the next deal")
    if "thrown_in" in deal:
        if set(deal) - {"king", "thrown_in"}:
            raise Impossible("a thrown-in deal has no results")
        info = deal["thrown_in"]
        seat(info["by"])
        reason = info["reason"]
        if reason not in REASONS:
            raise Impossible("a reason")
        follows = {"kh-redeal": "king_of_hearts", "trex-twos": "trex"}.get(reason)
        if follows and table.get("no_redeal_requests", False):
            raise Impossible("no K♥ redeal request and no Trex throw-in under no_redeal_requests")
        if follows and not state.announceable(follows):
            raise Impossible("a redeal request follows its announcement")
        state.add(king, [])
        return
    p = read_played(deal, table)
    cards_hold_together(p)
    swept = is_a_sweep(p, table)
    if "sweep_kept" in deal and (deal["sweep_kept"] is not True or not swept):
        raise Impossible("only a sweep can be kept")
    if not state.may_announce(p.contracts):
        raise Impossible("contracts the King may announce")
    split = (
        table.split_queens
        and p.contracts == ["queens"]
        and p.queens is not None
        and sum(1 for q in p.queens.values() if q["taker"] % 2 == 0) == 2
    )
    replayed = (swept and "sweep_kept" not in deal) or split
    state.add(king, [] if replayed else p.contracts)


def check_computed(
    doc: dict[str, Any], table: Table, state: Kingdoms, exported: list[int] | None
) -> None:
    """What export adds. Totals follow from the deals, which are not changed with them, so a
    changed total is impossible; places and winners follow from the totals (RULES.md "Who
    wins")."""
    if "totals" not in doc:
        return
    if doc["totals"] != exported:
        raise Impossible("the totals of these deals")
    totals = doc["totals"]
    reverse = table.get("reverse_scores", False)

    def better(a: int, b: int) -> bool:
        return a < b if reverse else a > b

    if table.get("partnership", False):
        teams = [totals[0] + totals[2], totals[1] + totals[3]]
        if table.get("team_result", "sum") == "worst-loses":
            worst = max(totals) if reverse else min(totals)
            losing = {s % 2 for s in range(4) if totals[s] == worst}
            won = {0, 1} - losing or {0, 1}
        else:
            won = (
                {0} if better(teams[0], teams[1]) else {1} if better(teams[1], teams[0]) else {0, 1}
            )
        places = [1 if s % 2 in won else 2 for s in range(4)]
        result = {0: "0+2", 1: "1+3"}[min(won)] if len(won) == 1 else "tie"
        if doc.get("team_result") != result:
            raise Impossible("the team result")
    else:
        places = [1 + sum(better(o, totals[s]) for o in totals) for s in range(4)]
    if state.over():  # each may be left out: import recomputes what export adds
        if doc.get("places", places) != places:
            raise Impossible("the places")
        winners = [s for s in range(4) if places[s] == 1]
        if doc.get("winners", winners) != winners:
            raise Impossible("the winners")
    elif "places" in doc or "winners" in doc:
        raise Impossible("nobody has won an unfinished game")


# === the mutations =============================================================================
Mutation = tuple[str, Callable[[dict[str, Any]], None]]


def deal_mutations(index: int, deal: dict[str, Any]) -> Iterator[Mutation]:
    """One change at a time to deal *index*, each a function changing the game document."""

    def at(fn: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        return lambda doc: fn(doc["deals"][index])

    king = deal["king"]
    for other in range(4):
        if other != king:
            yield f"king->{other}", at(lambda d, o=other: d.__setitem__("king", o))
    for reason in REASONS:  # a redeal asked before this deal
        yield (
            f"insert {reason}",
            lambda doc, r=reason: doc["deals"].insert(
                index, {"king": king, "thrown_in": {"reason": r, "by": (king + 1) % 4}}
            ),
        )
    if "thrown_in" in deal:
        yield from thrown_in_mutations(index, deal, at)
        return
    for reason in REASONS:  # the deal thrown in instead
        yield (
            f"thrown in ({reason}) instead",
            lambda doc, r=reason: doc["deals"].__setitem__(
                index, {"king": king, "thrown_in": {"reason": r, "by": king}}
            ),
        )
    yield from contract_mutations(deal, at)
    for key in ("diamonds", "tricks"):
        if key in deal:
            yield from count_mutations(deal, key, at)
    if "king_of_hearts" in deal:
        yield from capture_mutations("K♥", lambda d: d["king_of_hearts"], at)
    if "queens" in deal:
        for suit_name in SUITS:
            yield from capture_mutations(
                f"Q {suit_name}", lambda d, s=suit_name: d["queens"][s], at
            )
    if "trex_order" in deal:
        yield from order_mutations(at)
    if "sweep_kept" in deal:
        yield "sweep not kept", at(lambda d: d.pop("sweep_kept"))
        yield "sweep_kept false", at(lambda d: d.__setitem__("sweep_kept", False))
    else:
        yield "sweep kept", at(lambda d: d.__setitem__("sweep_kept", True))


def thrown_in_mutations(index: int, deal: dict[str, Any], at: Any) -> Iterator[Mutation]:
    for reason in REASONS:
        if reason != deal["thrown_in"]["reason"]:
            yield (
                f"reason->{reason}",
                at(lambda d, r=reason: d["thrown_in"].__setitem__("reason", r)),
            )
    for by in range(4):
        if by != deal["thrown_in"]["by"]:
            yield f"by->{by}", at(lambda d, b=by: d["thrown_in"].__setitem__("by", b))
    yield "deleted", lambda doc: doc["deals"].pop(index)
    yield "with a result", at(lambda d: d.__setitem__("tricks", [4, 3, 3, 3]))


def contract_mutations(deal: dict[str, Any], at: Any) -> Iterator[Mutation]:
    names = deal["contracts"]
    yield "contract twice", at(lambda d: d["contracts"].append(d["contracts"][0]))
    yield "unknown contract", at(lambda d: d.__setitem__("contracts", ["slaps"]))
    if len(names) > 1:
        yield "contracts reversed", at(lambda d: d["contracts"].reverse())
        for name in names:  # one contract (and its result) left out
            yield (
                f"without {name}",
                at(lambda d, n=name: (d["contracts"].remove(n), d.pop(FIELD_OF[n]))),
            )
    for name in CONTRACTS:
        if name not in names:  # another contract named, without a result for it
            yield f"plus {name}", at(lambda d, n=name: d["contracts"].append(n))


def count_mutations(deal: dict[str, Any], key: str, at: Any) -> Iterator[Mutation]:
    values = deal[key]
    for a in range(4):
        for b in range(4):
            if a != b and values[a] > 0:
                yield (
                    f"{key}: one from {a} to {b}",
                    at(
                        lambda d, a=a, b=b: (
                            d[key].__setitem__(a, d[key][a] - 1),
                            d[key].__setitem__(b, d[key][b] + 1),
                        )
                    ),
                )
    yield f"{key}: one more", at(lambda d: d[key].__setitem__(0, d[key][0] + 1))
    yield (
        f"{key}: negative",
        at(lambda d: d.__setitem__(key, [-1, d[key][1], d[key][2], d[key][3] + d[key][0] + 1])),
    )
    yield f"{key}: not whole", at(lambda d: d[key].__setitem__(0, d[key][0] + 0.5))
    yield f"{key}: three counts", at(lambda d: d[key].pop())


def capture_mutations(
    card: str, get: Callable[[dict[str, Any]], dict[str, Any]], at: Any
) -> Iterator[Mutation]:
    for key in ("taker", "doubled_by", "led_by"):
        for value in range(4):
            yield f"{card} {key}->{value}", at(lambda d, k=key, v=value: get(d).__setitem__(k, v))
        yield f"{card} without {key}", at(lambda d, k=key: get(d).pop(k, None))
    yield f"{card} out of range", at(lambda d: get(d).__setitem__("taker", 4))
    yield f"{card} unknown key", at(lambda d: get(d).__setitem__("holder", 0))


def order_mutations(at: Any) -> Iterator[Mutation]:
    for i in range(3):
        yield (
            f"trex order swap {i}",
            at(
                lambda d, i=i: d["trex_order"].__setitem__(
                    slice(i, i + 2), d["trex_order"][i : i + 2][::-1]
                )
            ),
        )
    yield "trex order repeats", at(lambda d: d["trex_order"].__setitem__(1, d["trex_order"][0]))
    yield "trex order out of range", at(lambda d: d["trex_order"].__setitem__(3, 4))
    yield "trex order of three", at(lambda d: d["trex_order"].pop())


def export_mutations(doc: dict[str, Any]) -> Iterator[Mutation]:
    """Changes to what export adds, on an exported game."""
    for s in range(4):
        yield f"total {s} + 5", lambda d, s=s: d["totals"].__setitem__(s, d["totals"][s] + 5)
        for place in (1, 2, 3, 4):
            yield f"place {s}->{place}", lambda d, s=s, p=place: d["places"].__setitem__(s, p)
        yield (
            f"winners + {s}",
            lambda d, s=s: d.__setitem__("winners", sorted(set(d["winners"]) | {s})),
        )
        yield (
            f"winners - {s}",
            lambda d, s=s: d.__setitem__("winners", [w for w in d["winners"] if w != s]),
        )
        yield f"winner {s} alone", lambda d, s=s: d.__setitem__("winners", [s])
    if "team_result" in doc:
        for result in ("0+2", "1+3", "tie"):
            yield f"team result {result}", lambda d, r=result: d.__setitem__("team_result", r)
    yield "places removed", lambda d: d.pop("places")
    yield "unfinished", lambda d: d.__setitem__("deals", d["deals"][:-1])


# === the test ==================================================================================
FIXED = ["trex", "queens", "king_of_hearts", "diamonds", "collections"]
#: (rules, seed, bots): each game chosen for what it holds, noted where it matters.
GAMES = [
    ({}, 1, "heuristic"),
    ({"self_capture": "leader-credit", "combining": "combination"}, 2, "random"),  # a throw-in
    ({"self_capture": "leader-credit", "combining": "complex"}, 3, "random"),
    # two sweeps kept, two replayed, a K♥ redeal
    (
        {
            "sweep_replay": {"collections_tricks": 7},
            "combining": "combination",
            "kh_redeal_any_doubleton": True,
            "self_capture": "leader-credit",
        },
        4,
        "random",
    ),
    ({"rotation": "table-picks", "doubling": False, "reverse_scores": True}, 5, "heuristic"),
    (
        {"fixed_order": FIXED, "combining": "combination", "self_capture": "leader-credit"},
        6,
        "heuristic",
    ),  # a K♥ redeal
    (
        {
            "partnership": True,
            "team_result": "worst-loses",
            "reverse_scores": True,
            "sweep_replay": {"collections_tricks": 10},
        },
        7,
        "random",
    ),
    ({"partnership": True, "fixed_order": FIXED}, 8, "heuristic"),
    # Queens split two and two, replayed; the King credited for a doubled card taken back
    (
        {"partnership": True, "split_queens_replay": True, "self_capture": "king-credit"},
        9,
        "random",
    ),
    (
        {"no_redeal_requests": True, "self_capture": "king-credit", "combining": "combination"},
        10,
        "heuristic",
    ),
]


def engine_accepts(doc: dict[str, Any]) -> bool:
    try:
        read_game(doc)
    except InvalidResult:
        return False
    return True


@dataclass
class Tally:
    accepted: int = 0
    refused: int = 0
    wrong: list[str] = field(default_factory=list)

    def judge(self, what: str, doc: dict[str, Any], exported: list[int] | None = None) -> None:
        engine = engine_accepts(doc)
        oracle = possible(doc, exported)
        if engine != oracle:
            self.wrong.append(
                f"{what}: the engine {'accepts' if engine else 'refuses'}, "
                f"RULES.md says it is {'possible' if oracle else 'impossible'}"
            )
        if engine:
            self.accepted += 1
        else:
            self.refused += 1


def simulated(rules: dict[str, Any], seed: int, bots: str) -> dict[str, Any]:
    return simulate_game(seed, HouseRules.from_dict(rules), bots)


@pytest.mark.parametrize(
    "rules, seed, bots", GAMES, ids=lambda v: ",".join(v) if isinstance(v, dict) else str(v)
)
@pytest.mark.slow
def test_mutations_impossible_changes_refused_possible_ones_accepted(rules, seed, bots):
    tally = Tally()
    doc = simulated(rules, seed, bots)
    assert possible(doc) and engine_accepts(doc)
    for index, deal in enumerate(doc["deals"]):
        for what, change in deal_mutations(index, deal):
            changed = copy.deepcopy(doc)
            change(changed)
            tally.judge(f"deal {index + 1} {what}", changed)
    exported = game_to_dict(read_game(doc), with_scores=True)
    for deal in exported["deals"]:
        del deal["scores"]
    for what, change in export_mutations(exported):
        changed = copy.deepcopy(exported)
        change(changed)
        tally.judge(f"export: {what}", changed, exported["totals"])
    assert tally.wrong == [], f"{len(tally.wrong)} wrong of {tally.accepted + tally.refused}"
    assert tally.accepted >= 50 and tally.refused >= 200, tally


def test_mutations_the_oracle_is_not_trivial():
    """The oracle refuses what the rule book's own examples refuse, so agreement means
    something: a K♥ redeal after King of Hearts, a contract twice, 12 diamonds."""
    doc = simulated({}, 1, "heuristic")
    first_kh = next(
        i for i, d in enumerate(doc["deals"]) if d.get("contracts") == ["king_of_hearts"]
    )
    late = copy.deepcopy(doc)
    king = late["deals"][first_kh]["king"]
    late["deals"].insert(
        first_kh + 1, {"king": king, "thrown_in": {"reason": "kh-redeal", "by": king}}
    )
    assert not possible(late)
    twice = copy.deepcopy(doc)
    twice["deals"][first_kh]["contracts"] *= 2
    assert not possible(twice)
    rng = random.Random(0)
    short = copy.deepcopy(doc)
    deal = next(d for d in short["deals"] if "diamonds" in d)
    seat_ = rng.choice([s for s in range(4) if deal["diamonds"][s]])
    deal["diamonds"][seat_] -= 1
    assert not possible(short)
