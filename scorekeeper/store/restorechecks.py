"""What a restore holds each row to beyond its column's type: the checks and the size limits of
the form, the import or the command that makes such a row. A value that one of them would not
have stored can still hurt later (a club night whose rules are not JSON made its page answer
500; a title of 1 MB made the home page weigh 1 MB), so the restore is refused instead, in one
line, and nothing is changed: each check raises ``Unsound`` saying what is wrong, and the
restore (``backup.py``) says it of the file.
"""

from __future__ import annotations

import json
import re

from sqlite_utils import Database

from ..engine import bracket, read_deal
from ..engine.errors import RulesError
from ..engine.gamefile import EXTRA_LIMIT, has_control, is_date
from ..engine.rules import HouseRules
from . import clubnights, groupsettings, members, seasons, seating, tournaments
from .keys import INSTALL_KEYS, KEY

#: The longest text a column that does not hold JSON may have: a title or a name is at most
#: 120 characters, a key, a token or a PIN's hash a few hundred, a moment 25.
SHORT_TEXT = 1024
HISTORY_ACTIONS = frozenset({"create", "correct", "undo", "confirm", "admin_confirm"})
#: A moment as the app writes one (``2026-12-05T02:55:00+00:00``), or a day.
MOMENT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]{5,15}(Z|[+-][0-9]{2}:?[0-9]{2})?)?")
PHONE = re.compile(r"[0-9a-f]{64}")
#: The most a phone's state may hold in one group, as JSON (its links to a few hundred games).
STATE_LIMIT = 64 * 1024


class Unsound(Exception):
    """A restored row that its form would not have made; the message says which and why."""


def text_limit(column: str, long: int) -> int:
    """How long a restored text may be in *column*: JSON up to *long*, anything else short."""
    return long if column.endswith("_json") else SHORT_TEXT


def check_settings(db: Database) -> None:
    """Each setting one that ``groupsettings`` declares, with a value it may hold."""
    for row in db.query("select key, value from settings"):
        key, value = row["key"], row["value"]
        if not groupsettings.fits(key, value):
            raise Unsound(f"the setting {key[:40]!r} cannot be {value[:40]!r}.")


def check_club_nights(db: Database) -> None:
    """Each club night as the form that starts it would have it, and readable by its page."""
    for row in list(db.query("select * from club_nights order by id")):
        where = f"club night {row['id']}"
        _check_title_and_day(row, where, clubnights.TITLE_LIMIT, "night")
        if not 1 <= row["rounds_planned"] <= clubnights.MAX_ROUNDS:
            raise Unsound(f"{where} does not have 1 to {clubnights.MAX_ROUNDS} rounds.")
        _check_rules(row["rules_json"], where)
        if "edit_key" in row and not KEY.fullmatch(row["edit_key"] or ""):
            raise Unsound(f"{where}: its organiser key is not one.")
        _check_wall_key(row, where)
        club = clubnights.load(db, row["id"])
        assert club is not None
        if not seating.MIN_PLAYERS <= len(club.players) <= seating.MAX_PLAYERS:
            raise Unsound(
                f"{where} does not have {seating.MIN_PLAYERS} to {seating.MAX_PLAYERS} players."
            )
        numbers = [r.number for r in club.rounds]
        if numbers != list(range(1, len(numbers) + 1)) or len(numbers) > club.rounds_planned:
            raise Unsound(f"{where}: its rounds are not numbered 1 to {club.rounds_planned}.")
        for round_ in club.rounds:
            if [t.number for t in round_.tables] != list(range(1, len(round_.tables) + 1)):
                raise Unsound(
                    f"{where}: the tables of round {round_.number} are not numbered from 1."
                )


def _check_title_and_day(
    row: dict, where: str, limit: int, day: str, day_word: str | None = None
) -> None:
    """A title of at most *limit* characters that can be printed, and a date in *day*."""
    title = row["title"]
    if not title.strip() or len(title) > limit or has_control(title):
        raise Unsound(
            f"{where}: its title is not one of at most {limit} characters that can be printed."
        )
    if not is_date(row[day]):
        raise Unsound(f"{where}: its {day_word or day} is not a date.")


def _check_wall_key(row: dict, where: str) -> None:
    """A wall key is one where the backup has one (an older backup's is drawn by migrating)."""
    if row.get("wall_key") is not None and not KEY.fullmatch(row["wall_key"]):
        raise Unsound(f"{where}: its wall key is not one.")


def check_seasons(db: Database) -> None:
    """Each season as the Settings form would keep it: a name and two dates in order."""
    for row in db.query("select * from seasons order by id"):
        found = seasons.problems(row["name"], row["first_night"], row["last_night"])
        if found:
            raise Unsound(f"season {row['id']}: {next(iter(found.values()))}")


def check_tournaments(db: Database) -> None:
    """Each tournament as New tournament would have it, and readable by its bracket page."""
    for row in list(db.query("select * from tournaments order by id")):
        where = f"tournament {row['id']}"
        _check_title_and_day(row, where, tournaments.TITLE_LIMIT, "played_on", "day")
        if (
            row["format"] not in bracket.FORMATS
            or row["seeding"] not in bracket.SEEDINGS
            or bracket.best_of_problem(row["format"], row["best_of"]) is not None
            or row["confirm"] not in (0, 1)
        ):
            raise Unsound(
                f"{where}: its format, seeding, games a match or confirmation is not one it knows."
            )
        _check_rules(row["rules_json"], where)
        pairs = row["format"] == "pairs"
        if HouseRules.from_dict(json.loads(row["rules_json"])).partnership != pairs:
            raise Unsound(f"{where}: pairs play under partnership, and only pairs do.")
        if not KEY.fullmatch(row["edit_key"] or ""):
            raise Unsound(f"{where}: its organiser key is not one.")
        _check_wall_key(row, where)
        entrants = list(
            db.query(
                "select seed, partner_id from tournament_entrants where tournament_id = ? "
                "order by seed",
                [row["id"]],
            )
        )
        if [e["seed"] for e in entrants] != list(range(len(entrants))) or any(
            (e["partner_id"] is not None) != pairs for e in entrants
        ):
            raise Unsound(f"{where}: its entrants are not seeded 1 to {len(entrants)}.")
        if bracket.count_problem(len(entrants), row["format"]) is not None:
            raise Unsound(f"{where}: {len(entrants)} entrants cannot make its bracket.")
        _check_tournament_tables(db, row["id"], len(entrants), row["format"], where)


def _check_tournament_tables(db: Database, tid: int, count: int, fmt: str, where: str) -> None:
    seats = 2 if fmt == "pairs" else 4
    numbers: dict[int, list[int]] = {}
    games: dict[tuple[int, int], list[int]] = {}
    for t in db.query(
        "select round, table_number, game_number, entrants_json, final from tournament_tables "
        "where tournament_id = ? order by round, table_number, game_number",
        [tid],
    ):
        try:
            entrants = json.loads(t["entrants_json"])
        except ValueError:
            entrants = None
        if (
            not isinstance(entrants, list)
            or len(entrants) != seats
            or not all(type(e) is int and 0 <= e < count for e in entrants)
            or t["final"] not in (0, 1)
        ):
            raise Unsound(f"{where}: a table of round {t['round']} does not seat its entrants.")
        played = games.setdefault((t["round"], t["table_number"]), [])
        if not played:
            numbers.setdefault(t["round"], []).append(t["table_number"])
        played.append(t["game_number"])
    if (
        sorted(numbers) != list(range(1, len(numbers) + 1))
        or any(n != list(range(1, len(n) + 1)) for n in numbers.values())
        or any(n != list(range(1, len(n) + 1)) or len(n) > 3 for n in games.values())
    ):
        raise Unsound(f"{where}: its rounds and tables are not numbered from 1.")


def _check_rules(text: str, where: str) -> None:
    try:
        rules = json.loads(text)
        if not isinstance(rules, dict):
            raise TypeError(rules)
        HouseRules.from_dict(rules)
    except RulesError as exc:
        raise Unsound(f"{where}: its rules are not rules ({exc}).") from None
    except (ValueError, TypeError, AttributeError):
        raise Unsound(f"{where}: its rules are not rules (not a JSON object).") from None


def check_extra(text: str | None, where: str) -> None:
    if text is None:
        return
    try:
        value = json.loads(text)
    except ValueError:
        raise Unsound(f"{where}: the keys it keeps from an import are not JSON.") from None
    if not isinstance(value, dict) or len(text.encode("utf-8", "surrogatepass")) > EXTRA_LIMIT:
        raise Unsound(
            f"{where}: the keys it keeps from an import are not an object of at "
            f"most {EXTRA_LIMIT // 1024} KB."
        )


def check_history(row: dict, names: list | None) -> None:
    where = f"history row {row['id']}"
    try:
        record = json.loads(row["record_json"])
        scores = json.loads(row["scores_json"]) if row["scores_json"] is not None else None
    except ValueError:
        raise Unsound(f"{where} is not JSON.") from None
    if row["action"] not in HISTORY_ACTIONS or row["version"] < 1 or row["number"] < 1:
        raise Unsound(f"{where} is not a version of a deal.")
    if not (isinstance(scores, list) and len(scores) == 4 and all(type(s) is int for s in scores)):
        raise Unsound(f"{where} does not hold four scores.")
    if names is None or read_deal(record, row["number"], names)[0] is None:
        raise Unsound(f"{where} does not hold a deal of its game.")


def check_own(db: Database) -> None:
    """A packed group's own rows, as the app writes them (``groups adopt``): its keys (the join
    and admin links), its members and its phones' state."""
    for row in db.query("select name, key, created_at, shown_at from install_keys"):
        if row["name"] not in INSTALL_KEYS or not KEY.fullmatch(row["key"] or ""):
            raise Unsound(f"the group's {str(row['name'])[:20]!r} key is not one.")
        if not MOMENT.fullmatch(row["created_at"]) or not (
            row["shown_at"] is None or MOMENT.fullmatch(row["shown_at"])
        ):
            raise Unsound(f"the group's {row['name']} key has a moment that is not one.")
    for row in db.query("select * from members order by id"):
        where = f"member {row['id']}"
        if not (
            isinstance(row["token"], str)
            and len(row["token"]) == members.TOKEN_LENGTH
            and KEY.fullmatch(row["token"])
        ):
            raise Unsound(f"{where}: its token is not one.")
        if row["via"] not in members.VIA or len(row["device"] or "") > 80:
            raise Unsound(f"{where} did not come in by a way the app knows.")
        if not all(
            row[c] is None or MOMENT.fullmatch(row[c]) for c in ("joined_at", "seen_on", "ended_at")
        ) or not MOMENT.fullmatch(row["joined_at"] or ""):
            raise Unsound(f"{where}: a moment of it is not one.")
    tokens = {r[0] for r in db.execute("select token from members")}
    for row in db.query("select phone, member, state, seen_on from phone_states"):
        where = "a phone's state"
        if not PHONE.fullmatch(row["phone"]) or not MOMENT.fullmatch(row["seen_on"]):
            raise Unsound(f"{where}: its key or day is not one.")
        if row["member"] is not None and row["member"] not in tokens:
            raise Unsound(f"{where} names a member the group does not have.")
        if len(row["state"]) > STATE_LIMIT:
            raise Unsound(f"{where} holds more than {STATE_LIMIT // 1024} KB.")
        try:
            state = json.loads(row["state"])
        except ValueError:
            raise Unsound(f"{where} is not JSON.") from None
        if not isinstance(state, dict) or state.get("member") != row["member"]:
            raise Unsound(f"{where} is not an object of its member.")
