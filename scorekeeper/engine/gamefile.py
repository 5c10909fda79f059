"""A whole game: read from and written to the file format (GAME_FORMAT.md), checked and scored.

Strict and lenient reading
--------------------------
:func:`read_game` refuses a game with any problem: that is what import, ``scorekeeper score`` and
every new entry use. The rule book has grown checks since games were first stored (those in
:data:`LATER_CHECKS`, such as a K♥ redeal after King of Hearts was played), and a stored game
that breaks one is not lost: ``read_game(doc, strict=False)`` reads it as recorded and lists
what those checks find in :attr:`Game.no_longer_passes`, one problem per deal naming it, for a
page to show (:func:`~.errors.no_longer_passes_text` says it in English). Every other problem
refuses the game in both modes.
"""

from __future__ import annotations

import datetime as _dt
import json
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping, Sequence

from .errors import InvalidResult, Problem, RulesError
from .lookalike import BLANK_LETTERS, has_hidden
from .jsontext import IndentedText
from .messages import N_
from .progression import DEAL_LIMIT, Progress
from .records import DealRecord, read_deal
from .rules import HouseRules
from .scoring import Scores, add, places, score_deal, team_result, team_totals, winners
from .validation import check_deal

FORMAT = "trex-game/1"
MULTI_FORMAT = "trex-games/1"
NAME_LIMIT = 40
TITLE_LIMIT = 120
#: Fields the format does not name are kept, as it asks, up to this many bytes (as compact
#: JSON) per game, its deals' own included; a file with more is refused.
EXTRA_LIMIT = 64 * 1024
#: Duplicate keys named at most in one refusal.
_DUPLICATES_SHOWN = 10
_KNOWN = ("format", "title", "played_on", "players", "rules", "first_king", "deals")
_COMPUTED = ("totals", "team_totals", "team_result", "places", "winners")
#: Message codes of the checks added after games could be stored without them. A stored game
#: that breaks one is read by ``read_game(doc, strict=False)``, which lists the problem instead
#: of refusing the game.
LATER_CHECKS = frozenset({"kh_redeal_closed", "trex_twos_closed", "leader_no_trick"})
#: What a lenient reading lists instead of refusing: those checks, and the bound on a game's
#: deal rows (``progression.DEAL_LIMIT``), which games stored before it may pass.
_LAPSES = LATER_CHECKS | {"too_many_deals"}


class InvariantError(RuntimeError):
    """An identity the rules guarantee does not hold: a defect, never the player's mistake."""


@dataclass(frozen=True)
class Game:
    players: tuple[str, ...]
    rules: HouseRules
    first_king: int
    deals: tuple[DealRecord, ...] = ()
    title: str = ""
    played_on: str | None = None
    rules_given: Mapping[str, Any] | None = None  # the file's own rules object, for round trips
    extra: tuple[tuple[str, Any], ...] = ()
    #: Read with ``strict=False``: what the checks of LATER_CHECKS find, each naming its deal.
    no_longer_passes: tuple[Problem, ...] = ()

    def progress(self) -> Progress:
        """A fresh fold of the game's deals, which the caller may extend."""
        return Progress.of(self.rules, self.first_king, self.deals, self.players)

    @cached_property
    def standing(self) -> Progress:
        """The fold of the game's deals, computed once; do not extend it."""
        return self.progress()

    @cached_property
    def scored(self) -> GameScore:
        return score_game(self)

    def score(self) -> GameScore:
        return self.scored


@dataclass(frozen=True)
class GameScore:
    """A game scored. *places* stand for the totals so far (RULES.md "Who wins": 1 is first,
    tied sides share a place, a side being a team under partnership); *winners* are the seats in
    first place once the game is over, and empty before."""

    deals: tuple[Scores, ...]
    running: tuple[Scores, ...]
    kingdoms: tuple[tuple[int, Scores, bool], ...]  # (King, subtotal, complete)
    totals: Scores
    is_over: bool
    partnership: bool = False
    team_totals: tuple[int, int] | None = None
    team_result: str | None = None
    winners: tuple[int, ...] = field(default=())
    places: Scores = (1, 1, 1, 1)


def score_game(game: Game) -> GameScore:
    """Score every deal; check that each complete kingdom sums to zero."""
    rules = game.rules
    progress = game.standing
    deal_scores = tuple(score_deal(d, rules) for d in game.deals)
    running: list[Scores] = []
    total: Scores = (0, 0, 0, 0)
    for scores in deal_scores:
        total = add(total, scores)
        running.append(total)
    kingdoms = []
    for kingdom in progress.kingdoms:
        sub: Scores = (0, 0, 0, 0)
        for index in kingdom.deals:
            sub = add(sub, deal_scores[index])
        if kingdom.is_complete and sum(sub) != 0:
            raise InvariantError(f"the kingdom of seat {kingdom.king} sums to {sum(sub)}, not 0")
        kingdoms.append((kingdom.king, sub, kingdom.is_complete))
    teams = team_totals(total) if rules.partnership else None
    return GameScore(
        deals=deal_scores,
        running=tuple(running),
        kingdoms=tuple(kingdoms),
        totals=total,
        is_over=progress.is_over,
        partnership=rules.partnership,
        team_totals=teams,
        team_result=team_result(total, rules) if rules.partnership else None,
        winners=winners(total, rules) if progress.is_over else (),
        places=places(total, rules),
    )


def has_control(text: str) -> bool:
    """Does *text* hold a control character (other than white space) or half a surrogate pair?
    Such characters cannot be shown, printed or stored as UTF-8 text."""
    return any(unicodedata.category(c) in ("Cc", "Cs") and not c.isspace() for c in text)


def is_visible(text: str) -> bool:
    """Does *text* show at least one letter, digit, punctuation mark or symbol? A name made
    only of spaces, direction marks (U+202E), zero-width characters (U+200B) or fillers would
    be an invisible player."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in BLANK_LETTERS for c in text)


#: Marks one letter of a name may carry: Arabic writes a shadda, a vowel and a dagger alif on
#: one letter; more only stack up over the lines around (a name of marks 39 high drew over the
#: printed sheet's heading).
MARKS_LIMIT = 3


def stacks_marks(text: str) -> bool:
    """Does *text* put more than MARKS_LIMIT combining marks on one letter?"""
    run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if run > MARKS_LIMIT:
            return True
    return False


def name_problem(name: object) -> str | None:
    """Why *name* cannot be a player's name, as a message code, or None: the one check of a
    name, for a game file, the new-game form, a rename and a printed sheet alike."""
    if not isinstance(name, str) or not name.strip():
        return "player_name_empty"
    if len(name) > NAME_LIMIT:
        return "player_name_too_long"
    if has_control(name):
        return "player_name_control"
    if not is_visible(name):
        return "player_name_invisible"
    if has_hidden(name):
        return "player_name_hidden"
    if stacks_marks(name):
        return "player_name_marks"
    return None


def check_players(value: Any) -> list[Problem]:
    """Four names, each a fit name (``name_problem``), none twice. Players are numbered from 1
    in the problems (``seat``), as people count them."""
    if not isinstance(value, list) or len(value) != 4:
        return [Problem("players_not_four", field="players")]
    problems = []
    seen: dict[str, int] = {}
    for seat, name in enumerate(value):
        code = name_problem(name)
        if code is not None:
            params = {
                "seat": seat + 1,
                **({"limit": NAME_LIMIT} if code == "player_name_too_long" else {}),
            }
            problems.append(Problem(code, params, field=f"players.{seat}"))
        elif name.strip().casefold() in seen:
            problems.append(
                Problem("player_name_twice", {"name": name.strip()}, field=f"players.{seat}")
            )
        else:
            seen[name.strip().casefold()] = seat
    return problems


def read_game(data: Any, *, strict: bool = True) -> Game:
    """Read and check a ``trex-game/1`` document; raise InvalidResult with every problem.

    With ``strict=False`` (for games stored before a check in :data:`LATER_CHECKS` existed), the
    problems those checks find do not refuse the game: its deals are kept as recorded and the
    problems are listed in :attr:`Game.no_longer_passes`.
    """
    if not isinstance(data, Mapping):
        raise InvalidResult([Problem("not_an_object")])
    problems: list[Problem] = []
    if data.get("format") != FORMAT:
        problems.append(Problem("bad_format", {"found": data.get("format")}))
    problems += check_players(data.get("players"))
    try:
        rules = HouseRules.from_dict(data.get("rules"))
    except RulesError as exc:
        problems.append(exc.problem(field="rules"))
        rules = HouseRules()
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > TITLE_LIMIT:
        problems.append(Problem("bad_title", {"limit": TITLE_LIMIT}, field="title"))
    elif has_control(title):
        problems.append(Problem("title_control", field="title"))
    played_on = data.get("played_on")
    if played_on is not None and not is_date(played_on):
        problems.append(Problem("bad_date", field="played_on"))
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, list):
        raise InvalidResult(problems + [Problem("deals_not_list", field="deals")])
    if strict and len(raw_deals) > DEAL_LIMIT:  # refused before a deal is read: one line
        raise InvalidResult(
            problems + [Problem("too_many_deals", {"limit": DEAL_LIMIT}, field="deals")]
        )
    first_king = _first_king(data, raw_deals, problems)
    if problems:
        raise InvalidResult(problems)
    names = tuple(data["players"])
    lapses: list[Problem] | None = None if strict else []
    deals = _read_deals(raw_deals, rules, first_king, names, problems, lapses)
    if problems:
        raise InvalidResult(problems)
    game = Game(
        players=names,
        rules=rules,
        first_king=first_king,
        deals=tuple(deals),
        title=title,
        played_on=played_on,
        rules_given=data.get("rules"),
        extra=tuple((k, v) for k, v in data.items() if k not in _KNOWN + _COMPUTED),
        no_longer_passes=tuple(lapses or ()),
    )
    _check_extra_size(game)
    _check_given_scores(data, raw_deals, game)
    return game


def _check_extra_size(game: Game) -> None:
    """The unknown fields of a game and of its deals together stay under EXTRA_LIMIT; beyond
    it, the game is refused with the largest of them named."""
    sizes: list[tuple[int, str, int | None]] = [
        (_json_size(key, value), key, None) for key, value in game.extra
    ]
    sizes += [
        (_json_size(key, value), key, number)
        for number, deal in enumerate(game.deals, start=1)
        for key, value in deal.extra
    ]
    total = sum(size for size, _, _ in sizes)
    if total > EXTRA_LIMIT:
        _, key, deal = max(sizes, key=lambda item: item[0])
        raise InvalidResult(
            [
                Problem(
                    "extra_too_big",
                    {"key": key, "size": -(-total // 1024), "limit": EXTRA_LIMIT // 1024},
                    deal,
                )
            ]
        )


def _json_size(key: str, value: Any) -> int:
    text = json.dumps({key: value}, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-8", "surrogatepass"))


def is_date(value: Any) -> bool:
    """Is *value* a date as the format writes one, ``2026-11-20``?"""
    try:
        _dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return len(value) == 10


def _first_king(data: Mapping[str, Any], raw_deals: list[Any], problems: list[Problem]) -> int:
    value = data.get("first_king")
    if value is None and raw_deals and isinstance(raw_deals[0], Mapping):
        value = raw_deals[0].get("king")
    if value is None:
        problems.append(Problem("no_first_king", field="first_king"))
    elif not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3):
        problems.append(Problem("bad_first_king", field="first_king"))
    else:
        return value
    return 0


def _read_deals(
    raw_deals: list[Any],
    rules: HouseRules,
    first_king: int,
    names: Sequence[str],
    problems: list[Problem],
    lapses: list[Problem] | None = None,
) -> list[DealRecord]:
    """Read and check each deal in turn, adding what is wrong to *problems*. When *lapses* is
    given (lenient reading), the problems of LATER_CHECKS go there instead, and a deal that has
    no other problem is kept as recorded."""
    progress = Progress(rules, first_king, names)
    deals = []
    for number, raw in enumerate(raw_deals, start=1):
        deal, found = read_deal(raw, number, names)
        if deal is None:
            problems += found
            continue
        found = check_deal(deal, rules, number, names)
        if not problems:  # the game's order means something only while every deal before is sound
            found = progress.check(deal, number) + found
        if lapses is not None:
            lapses += [p for p in found if p.code in _LAPSES]
            found = [p for p in found if p.code not in _LAPSES]
        problems += found
        if not found:
            progress.add(deal)
        deals.append(deal)
    return deals


def _check_given_scores(data: Mapping[str, Any], raw_deals: list[Any], game: Game) -> None:
    """Scores, totals, team keys, places and winners are recomputed; where given and
    different, refuse."""
    if not any(k in data for k in _COMPUTED) and not any("scores" in raw for raw in raw_deals):
        return
    scored = game.score()
    problems = []
    for number, (raw, scores) in enumerate(zip(raw_deals, scored.deals), start=1):
        if "scores" in raw and raw["scores"] != list(scores):
            problems.append(
                Problem("scores_differ", {"given": raw["scores"], "computed": list(scores)}, number)
            )
    expected = computed_keys(scored)
    for key in _COMPUTED:
        if key not in data:
            continue
        if key not in expected:
            problems.append(Problem("not_over_no_winner", {"key": key}, field=key))
        elif data[key] != expected[key]:
            problems.append(
                Problem(f"{key}_differ", {"given": data[key], "computed": expected[key]}, field=key)
            )
    if problems:
        raise InvalidResult(problems)


def computed_keys(scored: GameScore) -> dict[str, Any]:
    """What export adds to a game document (GAME_FORMAT.md): totals, the team keys under
    partnership, and places and winners once the game is over."""
    out: dict[str, Any] = {"totals": list(scored.totals)}
    if scored.partnership:
        out["team_totals"] = list(scored.team_totals or ())
        out["team_result"] = scored.team_result
    if scored.is_over:
        out["places"] = list(scored.places)
        out["winners"] = list(scored.winners)
    return out


def game_to_dict(game: Game, *, with_scores: bool = False) -> dict[str, Any]:
    """The game as a ``trex-game/1`` document; *with_scores* adds what export adds."""
    out: dict[str, Any] = {"format": FORMAT}
    if game.title:
        out["title"] = game.title
    if game.played_on:
        out["played_on"] = game.played_on
    out["players"] = list(game.players)
    given = game.rules_given
    out["rules"] = dict(given) if given is not None else game.rules.changed()
    out["first_king"] = game.first_king
    out["deals"] = [d.to_dict() for d in game.deals]
    out.update(dict(game.extra))
    if with_scores:
        scored = game.score()
        for deal, scores in zip(out["deals"], scored.deals):
            deal["scores"] = list(scores)
        out.update(computed_keys(scored))
    return out


def read_document(data: Any, *, strict: bool = True, most: int | None = None) -> list[Game]:
    """Read a ``trex-game/1`` or ``trex-games/1`` document; problems name the game too.
    *strict* as for :func:`read_game`; with ``strict=False`` each game's
    ``no_longer_passes`` problems name their game. *most*: a document with more games is
    refused in one line before any is read."""
    if isinstance(data, Mapping) and data.get("format") == MULTI_FORMAT:
        games_raw = data.get("games")
        if not isinstance(games_raw, list):
            raise InvalidResult([Problem("deals_not_list", field="games")])
        if most is not None and len(games_raw) > most:
            raise InvalidResult(
                [Problem("too_many_games", {"limit": most, "count": len(games_raw)})]
            )
        games, problems = [], []
        for number, raw in enumerate(games_raw, start=1):
            try:
                game = read_game(raw, strict=strict)
                games.append(
                    replace(
                        game,
                        no_longer_passes=tuple(
                            replace(p, game=number) for p in game.no_longer_passes
                        ),
                    )
                )
            except InvalidResult as exc:
                problems += [replace(p, game=number) for p in exc.problems]
        if problems:
            raise InvalidResult(problems)
        return games
    return [read_game(data, strict=strict)]


def loads(text: str | bytes, *, strict: bool = True, most: int | None = None) -> list[Game]:
    """Parse JSON text holding one game or several; bad JSON is one clear problem, and a key
    given twice in one object is refused with its name (JSON would keep the last silently).
    *strict* and *most* as for :func:`read_document`."""
    if not text.strip():
        raise InvalidResult([Problem("empty_file")])
    twice: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            seen: set[str] = set()
            for key, _ in items:
                if key in seen:
                    twice.append(key)
                seen.add(key)
        return out

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidResult([Problem("not_json", {"detail": str(exc)})]) from None
    except RecursionError:
        raise InvalidResult([Problem("not_json", {"detail": N_("nested too deeply")})]) from None
    if twice:
        keys = list(dict.fromkeys(twice))
        raise InvalidResult(
            [Problem("duplicate_key", {"key": key}) for key in keys[:_DUPLICATES_SHOWN]]
        )
    return read_document(data, strict=strict, most=most)


def dumps(games: Sequence[Game], *, with_scores: bool = True, several: bool = False) -> str:
    """JSON text of one game, or of several (``several`` forces the multi-game document)."""
    text = IndentedText()
    if len(games) == 1 and not several:
        doc: dict[str, Any] = _kept_compact(
            game_to_dict(games[0], with_scores=with_scores), games[0], text
        )
    else:
        doc = {
            "format": MULTI_FORMAT,
            "games": [
                _kept_compact(game_to_dict(g, with_scores=with_scores), g, text) for g in games
            ],
        }
    return text.dumps(doc)


def game_text(game: Game, *, with_scores: bool = True) -> str:
    """One game's document as JSON text: indented, the kept keys' values compact, as they
    came (:mod:`.jsontext`), so that no nesting makes the text much bigger than the file."""
    text = IndentedText()
    return text.dumps(_kept_compact(game_to_dict(game, with_scores=with_scores), game, text))


def _kept_compact(doc: dict[str, Any], game: Game, text: IndentedText) -> dict[str, Any]:
    for key, _ in game.extra:
        doc[key] = text.compact(doc[key])
    for deal_doc, deal in zip(doc["deals"], game.deals):
        for key, _ in deal.extra:
            deal_doc[key] = text.compact(deal_doc[key])
    return doc


#: A key the scorekeeper adds to a game that asks for confirmation by the other side (a state
#: of the game kept by the store, never a rule of scoring): ``{"waiting": [deal numbers]}``.
CONFIRMATION = "confirmation"


def confirmation_waiting(game: Game) -> tuple[int, ...] | None:
    """The deals of *game* its ``confirmation`` key says are waiting, when that key is as the
    scorekeeper writes it (one key, ``waiting``: numbers of the game's deals); else None, and
    the key, if any, is one the format does not name."""
    value = dict(game.extra).get(CONFIRMATION)
    waiting = value.get("waiting") if isinstance(value, dict) and len(value) == 1 else None
    if not isinstance(waiting, list) or not all(
        type(n) is int and 1 <= n <= len(game.deals) for n in waiting
    ):
        return None
    return tuple(waiting)
