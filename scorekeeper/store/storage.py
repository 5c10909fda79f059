"""Games, players and deals in SQLite, through sqlite-utils.

Every write of a deal happens in one transaction that first takes the database's write lock, then
re-reads the game, has the engine check the whole game with the change, writes the deal and its
history row, and stores the game's summary (totals, ranks, finished) for reports to read by SQL.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from sqlite_utils import Database
from sqlite_utils.db import Table

from ..engine import DealRecord, Game, HouseRules, InvalidResult, read_game
from ..engine.gamefile import FORMAT
from ..engine.lookalike import skeleton
from . import checks, closing, confirmations, facts, gamecache, ratings
from .confirmations import Phone
from .refused import N_, Refused


#: A form's one-time token, stored with what the form saved (``deals.token``,
#: ``games.create_token``), so that the same form sent twice records nothing twice.
FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_form_token() -> str:
    """A fresh one-time token for an entry form (16 random bytes, as FORM_TOKEN reads them)."""
    return secrets.token_urlsafe(16)


def new_version_key() -> str:
    """A fresh key for one version of a deal (``deals.version_key``): 128 random bits, as the
    schema's triggers draw them, never drawn twice in practice."""
    return secrets.token_hex(16)


class DuplicateToken(Exception):
    """The form's one-time token was used already; ``saved`` says where that entry went."""

    def __init__(self, saved: dict[str, Any]):
        super().__init__(
            f"token already used (game {saved.get('game_id')}, deal {saved.get('number')})"
        )
        self.saved = saved


class Conflict(Refused):
    """The game changed since the form was opened (another phone, an old tab): a refusal with
    its message marked ``N_`` and the deal's ``number``, said by the page in its language."""


CHANGED_MEANWHILE = N_("Deal %(number)s has been changed meanwhile")


class NotFound(LookupError):
    """No such game or deal."""


@dataclass
class StoredGame:
    """A game as stored: its row, the engine's Game, and the rows of its current deals."""

    id: int
    row: dict[str, Any]
    game: Game
    deals: list[dict[str, Any]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.row["title"] or ""

    @property
    def played_on(self) -> str | None:
        return self.row["played_on"]

    def deal_row(self, number: int) -> dict[str, Any] | None:
        if 1 <= number <= len(self.deals):
            return self.deals[number - 1]
        return None


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def clean_name(name: str) -> str:
    """A player's name as stored: NFC, single spaces, no space around it, and any change of
    writing direction inside it ended inside it."""
    return balanced_bidi(" ".join(unicodedata.normalize("NFC", name).split()))


_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, each ended by PDF
_ISOLATES = "\u2066\u2067\u2068"  # LRI RLI FSI, each ended by PDI
_PDF, _PDI = "\u202c", "\u2069"


def balanced_bidi(text: str) -> str:
    """*text* with every direction override, embedding and isolate it opens closed at its end,
    and every stray closing mark dropped: a name can turn itself around, but never the text
    that follows it on a page, a printed sheet or a plain-text line (Unicode UAX #9)."""
    out: list[str] = []
    stack: list[str] = []
    for char in text:
        if char in _EMBEDDINGS or char in _ISOLATES:
            stack.append(char)
        elif char == _PDF:
            if not stack or stack[-1] not in _EMBEDDINGS:
                continue  # closes nothing of this name's own
            stack.pop()
        elif char == _PDI:
            if not any(c in _ISOLATES for c in stack):
                continue
            while stack[-1] in _EMBEDDINGS:
                out.append(_PDF)
                stack.pop()
            stack.pop()
        out.append(char)
    out.extend(_PDI if c in _ISOLATES else _PDF for c in reversed(stack))
    return "".join(out)


def name_key(name: str) -> str:
    return clean_name(name).casefold()


def new_id(table: Table) -> int:
    """The id of the row *table* has just inserted (sqlite-utils types it as optional)."""
    key = table.last_pk
    if key is None:  # an insert into a table with an integer key always gives one
        raise RuntimeError(f"no row was inserted into {table.name}")
    return int(key)


# -- players -------------------------------------------------------------------------------
def player_id(db: Database, name: str) -> int:
    """The id of the player called *name* (any case), added on first use."""
    key = name_key(name)
    for row in db.table("players").rows_where("name_key = ?", [key], limit=1):
        return row["id"]
    return new_id(
        db.table("players").insert({"name": clean_name(name), "name_key": key, "created_at": now()})
    )


def look_alike(db: Database, name: str) -> str | None:
    """The known player whose name looks like *name* but is not it (the same once hidden
    characters, case and letters of other scripts that look like Latin ones are set aside:
    ``engine.lookalike``), or None. A name the group knows as it is asks nothing."""
    key = name_key(name)
    if next(db.query("select 1 from players where name_key = ?", [key]), None) is not None:
        return None
    looks = skeleton(name)
    for row in db.query("select name, name_key from players"):
        if skeleton(row["name"]) == looks:
            return row["name"]
    return None


def known_names(db: Database) -> list[str]:
    """Everyone who has played, the most recent first."""
    sql = """select p.name from players p
             left join game_players gp on gp.player_id = p.id
             left join games g on g.id = gp.game_id
             group by p.id order by max(g.updated_at) desc, max(g.id) desc, p.name"""
    return [row["name"] for row in db.query(sql)]


# -- games ---------------------------------------------------------------------------------
def game_document(
    title: str,
    played_on: str | None,
    players: Sequence[str],
    rules: dict[str, Any],
    first_king: Any,
    deals: Sequence[Any] = (),
) -> dict:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "title": title,
        "players": list(players),
        "rules": rules,
        "first_king": first_king,
        "deals": list(deals),
    }
    if played_on:
        doc["played_on"] = played_on
    return doc


def create_game(
    db: Database,
    *,
    title: str,
    played_on: str | None,
    players: Sequence[str],
    rules: HouseRules,
    first_king: int,
    token: str | None = None,
    pin_hash: str | None = None,
    confirm: bool = False,
    started_by: str | None = None,
) -> int:
    """Store a new game (checked by the engine first); return its id.

    *token* is the new-game form's one-time token: a form sent twice raises DuplicateToken
    with the game the first one started. *pin_hash* is the table PIN's hash, if one was set.
    *confirm*: each deal waits for the other side's confirmation (store.confirmations);
    *started_by*: the identity of the phone that starts it, the game's admin.
    """
    names = [clean_name(n) for n in players]
    game = read_game(game_document(title, played_on, names, rules.to_dict(), first_king))
    stamp = now()
    with db.atomic():
        if token:
            for row in db.query("select id from games where create_token = ?", [token]):
                raise DuplicateToken({"game_id": row["id"], "number": None})
        ids = [player_id(db, n) for n in names]
        game_id = new_id(
            db.table("games").insert(
                {
                    "title": title,
                    "played_on": played_on,
                    "rules_json": json.dumps(rules.to_dict()),
                    "first_king": first_king,
                    "created_at": stamp,
                    "updated_at": stamp,
                    "create_token": token or None,
                    "pin_hash": pin_hash,
                    "confirm": int(confirm),
                    "started_by": started_by,
                }
            )
        )
        db.table("game_players").insert_all(
            {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids)
        )
        store_summary(db, game_id, game)
    return game_id


def document_strings(
    row: dict[str, Any], names: Sequence[str], records: Sequence[str]
) -> tuple[Any, ...]:
    """Everything a stored game's document is made of, as stored (*records*: each deal's
    record_json): the key its Game is kept under in gamecache."""
    return (
        "stored",
        row["title"] or "",
        row["played_on"],
        tuple(names),
        row["rules_json"],
        row["first_king"],
        tuple(records),
    )


def load_game(db: Database, game_id: int) -> StoredGame | None:
    """The game with this id as the engine reads it, or None."""
    row = next(db.query("select * from games where id = ?", [game_id]), None)
    if row is None:
        return None
    names = [
        r["name"]
        for r in db.query(
            "select p.name from game_players gp join players p on p.id = gp.player_id "
            "where gp.game_id = ? order by gp.seat",
            [game_id],
        )
    ]
    deals = list(db.query("select * from deals where game_id = ? order by number", [game_id]))
    key = document_strings(row, names, [d["record_json"] for d in deals])
    game = gamecache.games.get(key)
    if game is None:
        # Leniently: a game stored before a later check of the rules still opens, and says
        # which deal no longer passes (Game.no_longer_passes). Every write checks strictly.
        game = read_game(
            game_document(
                row["title"] or "",
                row["played_on"],
                names,
                json.loads(row["rules_json"]),
                row["first_king"],
                [json.loads(d["record_json"]) for d in deals],
            ),
            strict=False,
        )
        gamecache.games.put(key, game)
    return StoredGame(game_id, row, game, deals)


def _remember(stored: StoredGame, records: Sequence[str], game: Game) -> None:
    """After a write: keep *game*, the engine's reading of the game as now stored (its deals'
    record_json *records*), for the page that follows to find."""
    gamecache.games.put(document_strings(stored.row, stored.game.players, records), game)


def list_games(db: Database, *, finished: bool, limit: int = 20) -> list[dict[str, Any]]:
    """Games in progress or finished, the latest first, with their players' names in seat order."""
    sql = """select g.*, (select json_group_array(name) from (
                 select p.name from game_players gp join players p on p.id = gp.player_id
                 where gp.game_id = g.id order by gp.seat)) as names_json
             from games g where g.finished = ? order by g.updated_at desc, g.id desc limit ?"""
    out = []
    for row in db.query(sql, [int(finished), limit]):
        row["names"] = json.loads(row.pop("names_json"))
        row["totals"] = json.loads(row["totals_json"] or "[0, 0, 0, 0]")
        row["winners"] = json.loads(row["winners_json"] or "[]")
        out.append(row)
    return out


def store_summary(
    db: Database, game_id: int, game: Game, *, touch: bool = True, rate: bool = True
) -> None:
    """Totals, places (RULES.md "Who wins": the lowest total is first under reverse_scores, and
    partners share their team's place), the next King and whether the game is over, for reports
    to read by SQL."""
    scored = game.score()
    summary = {
        "deal_count": len(game.deals),
        "finished": int(scored.is_over),
        "totals_json": json.dumps(list(scored.totals)),
        "winners_json": json.dumps(list(scored.winners)),
        "team_totals_json": json.dumps(list(scored.team_totals)) if scored.team_totals else None,
        "team_result": scored.team_result,
        "next_king": game.standing.king,
    }
    if touch:  # a change of the game; reading it again (a migration) is not
        summary["updated_at"] = now()
    # Plain SQL: sqlite-utils' update() first reads the row and, twice, the table's schema.
    db.execute(
        f"update games set {', '.join(f'{k} = ?' for k in summary)} where id = ?",
        [*summary.values(), game_id],
    )
    db.conn.executemany(
        "update game_players set total = ?, rank = ? where game_id = ? and seat = ?",
        [
            (total, place, game_id, seat)
            for seat, (total, place) in enumerate(zip(scored.totals, scored.places))
        ],
    )
    facts.refresh_game(db, game_id, game)
    facts.refresh_feats(db, game_id, game, scored.deals)
    if rate:  # the ratings stay equal to rating every finished game again (store.ratings)
        ratings.after_change(db, game_id)


# -- deals ---------------------------------------------------------------------------------
def find_token(db: Database, token: str) -> dict[str, Any] | None:
    """Where the entry sent with *token* went: game, deal id, its number now (None if undone),
    and what was sent: the number it was entered as, its action and its record."""
    if not token:
        return None
    sql = """select h.game_id, h.deal_id, h.action, d.number, h.number as entered,
             h.record_json from deal_history h
             left join deals d on d.id = h.deal_id where h.token = ? limit 1"""
    for row in db.query(sql, [token]):
        return row
    return None


def _begin_write(db: Database, game_id: int, token: str | None) -> StoredGame:
    """Inside a transaction: take the write lock, refuse a used token, read the game."""
    cursor = db.execute("update games set updated_at = ? where id = ?", [now(), game_id])
    if cursor.rowcount == 0:
        raise NotFound(f"no game {game_id}")
    closing.check_open(db, game_id)  # the next round is seated on it: Closed
    if token:
        saved = find_token(db, token)
        if saved is not None:
            raise DuplicateToken(saved)
    stored = load_game(db, game_id)
    assert stored is not None  # the update above found it
    return stored


def deal_values(record: DealRecord, scores: Sequence[int]) -> dict[str, Any]:
    return {
        "king": record.king,
        "contracts": ",".join(c.value for c in record.contracts) or None,
        "thrown_in": record.thrown_in.reason if record.thrown_in else None,
        "record_json": json.dumps(record.to_dict(), ensure_ascii=False),
        **{f"score_{s}": scores[s] for s in range(4)},
    }


def record_history(
    db: Database,
    deal_id: int,
    game_id: int,
    number: int,
    version: int,
    record: DealRecord | dict[str, Any],
    scores: Sequence[int],
    action: str,
    token: str | None,
    *,
    by: Phone | None = None,
    key: str | None = None,
) -> None:
    """A row of the deal's history: its version (and that version's *key*), what it was, what
    was done (``create``, ``correct``, ``undo``, ``confirm``, ``admin_confirm``), by which
    phone and player."""
    raw = record.to_dict() if isinstance(record, DealRecord) else record
    db.table("deal_history").insert(
        {
            "deal_id": deal_id,
            "game_id": game_id,
            "number": number,
            "version": version,
            "record_json": json.dumps(raw, ensure_ascii=False),
            "scores_json": json.dumps(list(scores)),
            "action": action,
            "token": token or None,
            **({"version_key": key} if key else {}),  # none from an import into an old schema
            "at": now(),
            # who, when known (an import or an older database's rows name no phone)
            **({"phone": by.id, "seat": by.seat} if by else {}),
        }
    )


def insert_deal(
    db: Database, values: dict[str, Any], *, keyed: bool = True
) -> tuple[int, str | None]:
    """Inside a transaction: insert the row of a new deal (*values*); return its id and its
    version's key. The id is one no deal of the database ever had (an undone deal's stays in
    the history), so that a form or a history naming an undone deal never names the deal
    entered in its place. Not *keyed* (an import into a database that may predate the keys),
    the key is left to the schema (its trigger, or the migration that adds it): None."""
    last = db.execute(
        "select max(coalesce((select max(id) from deals), 0), "
        "coalesce((select max(deal_id) from deal_history), 0))"
    ).fetchone()[0]
    key = new_version_key() if keyed else None
    db.table("deals").insert({"id": last + 1, **values, **({"version_key": key} if key else {})})
    return last + 1, key


def check_version(row: dict[str, Any], version: int, key: str | None) -> None:
    """Refuse (Conflict) a form made for another version of the deal of *row* than the one
    stored: its version, or, when the form names one (every page's form does), its version's
    key, drawn anew for every version and never given twice."""
    if row["version"] != version or (key is not None and row["version_key"] != key):
        raise Conflict(CHANGED_MEANWHILE, number=row["number"])


def add_deal(
    db: Database, game_id: int, raw: Any, *, token: str, number: int, by: Phone | None = None
) -> int:
    """Record *raw* (a file-format deal) as deal *number*, the game's next; return the number.
    *by*: the phone that enters it (in a game that asks for confirmations, it then waits for
    the other side: store.confirmations).

    Raises DuplicateToken (nothing recorded: the same form was sent twice), Conflict (another
    deal *number* was recorded meanwhile), InvalidResult (the engine refuses it), NotFound.
    """
    with db.atomic():
        stored = _begin_write(db, game_id, token)
        if len(stored.game.deals) + 1 != number:
            raise Conflict(N_("Deal %(number)s has been recorded meanwhile"), number=number)
        record, problems, new_game = checks.check_new_deal(stored.game, raw)
        if record is None or new_game is None:
            raise InvalidResult(problems)
        scores = new_game.score().deals[-1]
        stamp = now()
        values = deal_values(record, scores)
        by = confirmations.settled(db, game_id, by)
        deal_id, key = insert_deal(
            db,
            {
                "game_id": game_id,
                "number": number,
                **values,
                "token": token,
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
            },
        )
        record_history(
            db, deal_id, game_id, number, 1, record, scores, "create", token, by=by, key=key
        )
        _entered(
            db, stored, deal_id, number, 1, record, scores, by=by, was_confirmed=False, key=key
        )
        store_summary(db, game_id, new_game)
    _remember(stored, [d["record_json"] for d in stored.deals] + [values["record_json"]], new_game)
    return number


def correct_deal(
    db: Database,
    game_id: int,
    number: int,
    raw: Any,
    *,
    token: str,
    version: int,
    deal_id: int | None = None,
    key: str | None = None,
    by: Phone | None = None,
) -> int:
    """Replace deal *number* with *raw*; the earlier version stays in the history. *by*: the
    phone that corrects it (in a game that asks for confirmations, the deal then waits again,
    unless the game's admin corrected a confirmed deal: store.confirmations).

    *version* is the version the form was opened on, *key* that version's key (every page's
    form names it), *deal_id* the deal it was opened on; another correction since then, or an
    undo that gave the number to another deal, is a Conflict. Returns the new version.
    """
    with db.atomic():
        stored = _begin_write(db, game_id, token)
        row = stored.deal_row(number)
        if row is None:
            raise NotFound(f"no deal {number}")
        if deal_id is not None and row["id"] != deal_id:
            raise Conflict(
                N_(
                    "Deal %(number)s is another deal now: the one being corrected has "
                    "been undone meanwhile"
                ),
                number=number,
            )
        check_version(row, version, key)
        by = confirmations.settled(db, game_id, by)
        record, problems, new_game = checks.check_correction(stored.game, number, raw)
        if record is None or new_game is None:
            raise InvalidResult(problems)
        scores = new_game.score().deals[number - 1]
        values = deal_values(record, scores)
        new_key = new_version_key()
        db.table("deals").update(
            row["id"],
            {**values, "version": version + 1, "version_key": new_key, "updated_at": now()},
        )
        record_history(
            db,
            row["id"],
            game_id,
            number,
            version + 1,
            record,
            scores,
            "correct",
            token,
            by=by,
            key=new_key,
        )
        was = row["confirmed_at"] is not None
        _entered(
            db,
            stored,
            row["id"],
            number,
            version + 1,
            record,
            scores,
            by=by,
            was_confirmed=was,
            key=new_key,
        )
        store_summary(db, game_id, new_game)
    records = [d["record_json"] for d in stored.deals]
    records[number - 1] = values["record_json"]
    _remember(stored, records, new_game)
    return version + 1


def _entered(
    db: Database,
    stored: StoredGame,
    deal_id: int,
    number: int,
    version: int,
    record: DealRecord,
    scores: Sequence[int],
    *,
    by: Phone | None,
    was_confirmed: bool,
    key: str | None,
) -> None:
    """Inside the write of a deal: who entered it, and whether it waits for the other side."""
    action = confirmations.entered(
        db,
        deal_id,
        by,
        asked=confirmations.is_on(stored.row),
        was_confirmed=was_confirmed,
        thrown_in=record.is_thrown_in,
        stamp=now(),
    )
    if action is not None:
        record_history(
            db, deal_id, stored.id, number, version, record, scores, action, None, by=by, key=key
        )


def undo_deal(
    db: Database, game_id: int, deal_id: int, *, version: int, key: str | None = None
) -> int:
    """Take deal *deal_id* out of the game (it stays in the history); return its number.

    Raises NotFound when the deal is gone already (undone twice), Conflict when it was changed
    since the page was opened (another *version*, or another version's *key*: every page's
    form names it), InvalidResult when later deals would no longer make sense.
    """
    with db.atomic():
        stored = _begin_write(db, game_id, None)
        row = next((d for d in stored.deals if d["id"] == deal_id), None)
        if row is None:
            raise NotFound(f"no deal {deal_id} in game {game_id}")
        check_version(row, version, key)
        number = row["number"]
        problems, new_game = checks.check_undo(stored.game, number)
        if new_game is None:
            raise InvalidResult(problems)
        record = stored.game.deals[number - 1]
        scores = [row[f"score_{s}"] for s in range(4)]
        record_history(
            db,
            deal_id,
            game_id,
            number,
            version,
            record,
            scores,
            "undo",
            None,
            key=row["version_key"],
        )
        db.table("deals").delete(deal_id)
        for later in stored.deals[number:]:
            db.table("deals").update(later["id"], {"number": later["number"] - 1})
        store_summary(db, game_id, new_game)
    return number


def undone_version(db: Database, game_id: int, deal_id: int, key: str | None) -> bool:
    """Was the version of deal *deal_id* whose key is *key* undone, with no deal of the game
    entered, corrected or undone since (the same undo sent again, from this phone or another)?
    After another change, a form for it is stale: the deal at its number is another one."""
    if not key:
        return False
    found = db.execute(
        "select 1 from deal_history h where h.deal_id = ? and h.game_id = ? "
        "and h.action = 'undo' and h.version_key = ? and not exists (select 1 from "
        "deal_history l where l.game_id = h.game_id and l.id > h.id "
        "and l.action in ('create', 'correct', 'undo')) limit 1",
        [deal_id, game_id, key],
    ).fetchone()
    return found is not None


def deal_was_in(db: Database, game_id: int, deal_id: int) -> bool:
    """Was deal *deal_id* ever a deal of this game (it may have been undone since)?"""
    return (
        next(
            db.query(
                "select 1 from deal_history where deal_id = ? and game_id = ? limit 1",
                [deal_id, game_id],
            ),
            None,
        )
        is not None
    )


def history(db: Database, game_id: int, deal_id: int | None = None) -> list[dict[str, Any]]:
    """Every version of every deal of the game (or of one deal), oldest first."""
    where, params = "game_id = ?", [game_id]
    if deal_id is not None:
        where, params = where + " and deal_id = ?", params + [deal_id]
    rows = list(db.table("deal_history").rows_where(where, params, order_by="id"))
    for row in rows:
        row["record"] = json.loads(row["record_json"])
        row["scores"] = json.loads(row["scores_json"])
    return rows


def set_first_king(db: Database, game_id: int, seat: int) -> None:
    """Say again who holds the 7♥ (the first King) of game *game_id*, before its first deal: a
    club night's table is seated with player 1 first, and a table can mistap it at New game.
    The engine checks the game with the new first King; after a deal it is refused."""
    with db.atomic():
        stored = load_game(db, game_id)
        if stored is None:
            raise Refused(N_("There is no such game."))
        if stored.game.deals:
            raise Refused(N_("The first King can be changed only before the first deal."))
        game = read_game(
            game_document(
                stored.row["title"] or "",
                stored.row["played_on"],
                stored.game.players,
                json.loads(stored.row["rules_json"]),
                seat,
            )
        )  # InvalidResult: a seat that is not there
        db.execute(
            "update games set first_king = ?, updated_at = ? where id = ?",
            [game.first_king, now(), game_id],
        )


def delete_game(db: Database, game_id: int, *, rate: bool = True) -> bool:
    """Remove game *game_id* and everything stored of it (deals, their history, facts, PIN
    tries); the players stay. Returns whether there was such a game. *rate*: rate every game
    again (not needed for a game without deals, which was never rated)."""
    with db.atomic():
        if next(db.query("select id from games where id = ?", [game_id]), None) is None:
            return False
        for table in (
            "deal_history",
            "deals",
            "seat_contract_stats",
            "pin_attempts",
            "rating_changes",
            "game_players",
        ):
            db.execute(f"delete from {table} where game_id = ?", [game_id])
        db.execute("delete from games where id = ?", [game_id])
        if rate:
            ratings.after_players_changed(db)
    return True
