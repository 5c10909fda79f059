"""The database's schema as sqlite-utils migrations, applied in order and idempotently: at the
app's start, by every command that opens a database, and to a restored backup.

A migration changes the schema and nothing else: it imports nothing of the store's other
modules nor of the engine, so it does what it did the day it was written. What the store
derives from the games by today's code (each game's summary and facts, the ratings) is made
again by the backfill (``store/backfill.py``), after the last migration.

Each migration has its own number, one more than the one before. Those that were renumbered
keep their former name (``formerly=``): a database that recorded it has applied the migration
under its new name, and is never migrated twice."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from sqlite_utils import Database
from sqlite_utils import Migrations as _Migrations


class Migrations(_Migrations):
    """sqlite-utils' migrations, where a migration may be registered with the name a database
    recorded it by before it was renumbered (``formerly``): that name is read as the new one."""

    def __init__(self, name: str):
        super().__init__(name)
        #: Each former name, with the migration's name now.
        self.formerly: dict[str, str] = {}

    def __call__(
        self, *, name: str | None = None, formerly: str | None = None, transactional: bool = True
    ) -> Callable[[Any], Any]:
        register = super().__call__(name=name, transactional=transactional)

        def inner(func: Any) -> Any:
            register(func)
            if formerly is not None:
                self.formerly[formerly] = self._migrations[-1].name
            return func

        return inner

    def current_name(self, name: str) -> str:
        """The name a migration recorded as *name* has now."""
        return self.formerly.get(name, name)

    def applied(self, db: Database) -> list[_Migrations._AppliedMigration]:
        return [
            self._AppliedMigration(name=self.current_name(m.name), applied_at=m.applied_at)
            for m in super().applied(db)
        ]

    def apply(self, db: Database, *, stop_before: str | Iterable[str] | None = None) -> None:
        if stop_before is not None:
            names = [stop_before] if isinstance(stop_before, str) else list(stop_before)
            stop_before = [self.current_name(n) for n in names]
        super().apply(db, stop_before=stop_before)


migrations = Migrations("scorekeeper")
#: 128 random bits as 32 hex digits, drawn by SQLite (the same expression fills the keys of a
#: game inserted by any path: the new-game form, an import, a restored backup).
RANDOM_KEY_SQL = "lower(hex(randomblob(16)))"
#: The moment now, in UTC, to the second, written as the store writes it (``storage.now``).
NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"


@migrations()
def m001_initial(db: Database) -> None:
    """Players, games and their seats, the current version of each deal, and every version."""
    db.table("players").create(
        {"id": int, "name": str, "name_key": str, "created_at": str},
        pk="id",
        not_null=["name", "name_key"],
    )
    db.table("players").create_index(["name_key"], unique=True)
    db.table("games").create(
        {
            "id": int,
            "title": str,
            "played_on": str,
            "rules_json": str,
            "first_king": int,
            "created_at": str,
            "updated_at": str,
            # the summary, rewritten on every write so that reports can read it by SQL
            "deal_count": int,
            "finished": int,
            "totals_json": str,
            "winners_json": str,
            "team_totals_json": str,
            "team_result": str,
            "next_king": int,
        },
        pk="id",
        not_null=["rules_json", "first_king", "created_at", "updated_at"],
        defaults={"deal_count": 0, "finished": 0},
    )
    db.table("games").create_index(["finished", "updated_at"])
    db.table("game_players").create(
        {"game_id": int, "seat": int, "player_id": int, "total": int, "rank": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null=["player_id"],
        defaults={"total": 0, "rank": 1},
    )
    db.table("game_players").create_index(["player_id"])
    db.table("deals").create(
        {
            "id": int,
            "game_id": int,
            "number": int,
            "king": int,
            "contracts": str,
            "thrown_in": str,
            "record_json": str,
            "score_0": int,
            "score_1": int,
            "score_2": int,
            "score_3": int,
            "token": str,
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "number", "king", "record_json", "version"],
    )
    db.table("deals").create_index(["game_id", "number"], unique=True)
    db.table("deals").create_index(["token"], unique=True)
    db.table("deal_history").create(
        {
            "id": int,
            "deal_id": int,
            "game_id": int,
            "number": int,
            "version": int,
            "record_json": str,
            "scores_json": str,
            "action": str,
            "token": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["deal_id", "game_id", "number", "version", "record_json", "action", "at"],
    )
    db.table("deal_history").create_index(["game_id", "id"])
    db.table("deal_history").create_index(["token"], unique=True)


@migrations()
def m002_history_stats(db: Database) -> None:
    """What the history, player and leaderboard pages add up by SQL: the night, preset and
    finished flag of each game copied onto its seats, and one row of facts per seat and contract
    of every played deal. The indexes cover the pages' queries, so that they read narrow index
    pages in order rather than whole rows here and there. The facts of the games stored
    already are the backfill's."""
    games = db.table("games")
    games.add_column("night", str)  # played_on, else the day the game was started
    games.add_column("preset", str)  # the preset the rules are, or "custom"
    games.add_column("partnership", int)
    games.add_column("fingerprint", str)  # the game's content without names, to spot a re-import
    games.add_column("extra_json", str)  # keys of an imported file that the format does not name
    games.create_index(["night"])
    games.create_index(["fingerprint"])
    seats = db.table("game_players")
    seats.add_column("night", str)
    seats.add_column("preset", str)
    seats.add_column("finished", int)
    seats.create_index(
        ["finished", "night", "preset", "player_id", "total", "rank", "game_id"],
        index_name="idx_game_players_results",
    )
    seats.create_index(
        ["player_id", "finished", "night", "game_id", "seat", "total", "rank", "preset"],
        index_name="idx_game_players_player_results",
    )
    seats.create_index(
        ["game_id", "seat", "player_id", "total", "rank"],
        index_name="idx_game_players_game_results",
    )
    # Clustered by game and seat: one player's rows of one game sit together on disk.
    db.execute("""create table seat_contract_stats (
        game_id integer not null references games(id), seat integer not null,
        deal_number integer not null, contract text not null, is_king integer not null,
        combined integer, points integer not null, took_kh integer, doubles_made integer,
        doubles_passed integer, doubles_back integer, took_doubled integer, trex_place integer,
        primary key (game_id, seat, deal_number, contract)) without rowid""")


@migrations()
def m003_access(db: Database) -> None:
    """Who may change a game: its secret edit key, the view key the QR code carries, an optional
    table PIN (hashed), the new-game form's one-time token, and the PIN tries of the last
    minutes (kept in the database so that the limit holds across threads and restarts)."""
    games = db.table("games")
    for column in ("edit_key", "view_key", "pin_hash", "create_token"):
        games.add_column(column, str)
    db.execute(f"update games set edit_key = {RANDOM_KEY_SQL} where edit_key is null")
    db.execute(f"update games set view_key = {RANDOM_KEY_SQL} where view_key is null")
    games.create_index(["edit_key"], unique=True)
    games.create_index(["view_key"], unique=True)
    games.create_index(["create_token"], unique=True)
    db.execute(f"""create trigger games_keys after insert on games
        when new.edit_key is null or new.view_key is null
        begin
            update games set edit_key = coalesce(edit_key, {RANDOM_KEY_SQL}),
                             view_key = coalesce(view_key, {RANDOM_KEY_SQL})
            where id = new.id;
        end""")
    db.table("pin_attempts").create(
        {"id": int, "game_id": int, "client": str, "at": float},
        pk="id",
        not_null=["game_id", "client", "at"],
    )
    db.table("pin_attempts").create_index(["game_id", "at"])


@migrations()
def m004_places_by_who_wins(db: Database) -> None:
    """Each seat's stored place follows RULES.md "Who wins": under reverse_scores the lowest
    total is first, and under partnership both partners take their team's place. No change of
    the schema: the places of the games stored already are the backfill's (it once stored
    them here)."""


@migrations()
def m005_ratings(db: Database) -> None:
    """The group's settings (ratings on or off), each player's rating, and each rated seat's
    rating before and after its game (store.ratings); every finished game is rated by the
    backfill."""
    db.table("settings").create({"key": str, "value": str}, pk="key", not_null=["value"])
    db.table("ratings").create(
        {"player_id": int, "mu": float, "sigma": float, "games": int},
        pk="player_id",
        foreign_keys=[("player_id", "players", "id")],
        not_null=["mu", "sigma", "games"],
    )
    db.table("rating_changes").create(
        {
            "game_id": int,
            "player_id": int,
            "place": int,
            "mu_before": float,
            "sigma_before": float,
            "mu_after": float,
            "sigma_after": float,
        },
        pk=("game_id", "player_id"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null=["place", "mu_before", "sigma_before", "mu_after", "sigma_after"],
    )
    db.table("rating_changes").create_index(["player_id", "game_id"])


@migrations()
def m006_club_nights(db: Database) -> None:
    """Club nights (store.clubnights): their players, each round's tables (each an ordinary
    game) and who sat a round out."""
    db.table("club_nights").create(
        {
            "id": int,
            "title": str,
            "night": str,
            "rounds_planned": int,
            "rules_json": str,
            "seed": int,
            "created_at": str,
        },
        pk="id",
        not_null=["title", "night", "rounds_planned", "rules_json", "created_at"],
    )
    db.table("club_night_players").create(
        {"club_night_id": int, "player_id": int, "entry_order": int},
        pk=("club_night_id", "player_id"),
        foreign_keys=[("club_night_id", "club_nights", "id"), ("player_id", "players", "id")],
        not_null=["entry_order"],
    )
    db.table("club_tables").create(
        {"club_night_id": int, "round": int, "table_number": int, "game_id": int},
        pk=("club_night_id", "round", "table_number"),
        foreign_keys=[("club_night_id", "club_nights", "id"), ("game_id", "games", "id")],
        not_null=["game_id"],
    )
    db.table("club_tables").create_index(["game_id"], unique=True)
    db.table("club_sitting_out").create(
        {"club_night_id": int, "round": int, "player_id": int},
        pk=("club_night_id", "round", "player_id"),
        foreign_keys=[("club_night_id", "club_nights", "id"), ("player_id", "players", "id")],
    )


@migrations(formerly="m005_install_keys")
def m007_install_keys(db: Database) -> None:
    """The install's own keys, drawn here and replaced by the command line (``admin-link
    --rotate``, ``join-link --rotate``): the admin key, whose link lets a phone rename, merge
    and delete the group's players, and the join key, whose link lets a phone start games and
    import them on a hosted box. ``shown_at``: when the server first printed the admin link."""
    db.table("install_keys").create(
        {"name": str, "key": str, "created_at": str, "shown_at": str},
        pk="name",
        not_null=["key", "created_at"],
    )
    for name in ("admin", "join"):
        db.execute(
            "insert into install_keys (name, key, created_at) "
            f"values (?, {RANDOM_KEY_SQL}, {NOW_SQL})",
            [name],
        )


#: 64 random bits as 16 hex digits: a game's version tag (m008_version_tags).
RANDOM_TAG_SQL = "lower(hex(randomblob(8)))"


@migrations(formerly="m007_version_tags")
def m008_version_tags(db: Database) -> None:
    """Each game's version tag, ``games.version_tag``: a random tag that SQLite draws again,
    in the same transaction, on every change of what a page of the game shows: its row (title,
    night, rules, keys, PIN, summary), its deals (a save, a correction, an undo), its seats
    (a merge, a name fixed in one game) and its players' names (a rename). Triggers do it, so
    every path that writes (the pages, the command line, an import, a restore, another
    process) changes it, and a tag is never drawn for two contents: the web wing answers a
    phone that has the page of a tag with 304 (web/keeping/validators.py). The tag of every game is
    drawn here; a game inserted later gets one from its insert trigger."""
    db.table("games").add_column("version_tag", str)
    db.execute(f"update games set version_tag = {RANDOM_TAG_SQL}")
    draw = f"update games set version_tag = {RANDOM_TAG_SQL} where id"
    db.execute(f"""create trigger games_version_insert after insert on games
        begin {draw} = new.id; end""")
    # Any other change of the row (the inner update changes the tag, so it stops there).
    db.execute(f"""create trigger games_version_update after update on games
        when new.version_tag is old.version_tag
        begin {draw} = new.id; end""")
    db.execute(f"""create trigger deals_version_insert after insert on deals
        begin {draw} = new.game_id; end""")
    db.execute(f"""create trigger deals_version_update after update on deals
        begin {draw} in (old.game_id, new.game_id); end""")
    db.execute(f"""create trigger deals_version_delete after delete on deals
        begin {draw} = old.game_id; end""")
    db.execute(f"""create trigger seats_version_insert after insert on game_players
        begin {draw} = new.game_id; end""")
    db.execute(f"""create trigger seats_version_update
        after update of game_id, seat, player_id on game_players
        begin {draw} in (old.game_id, new.game_id); end""")
    db.execute(f"""create trigger seats_version_delete after delete on game_players
        begin {draw} = old.game_id; end""")
    db.execute(f"""create trigger players_version_rename after update of name on players
        begin {draw} in (select game_id from game_players where player_id = new.id); end""")


@migrations(formerly="m008_members")
def m009_members(db: Database) -> None:
    """The group's members: each phone admitted by the join link (or the admin link, or by
    starting the group) holds a member's token in its session. Ending a membership (the
    admin's Members page) takes that phone's reading and writing back; rotating the join link
    admits no one new but leaves the members as they are."""
    db.table("members").create(
        {
            "id": int,
            "token": str,
            "via": str,
            "device": str,
            "joined_at": str,
            "seen_on": str,
            "ended_at": str,
        },
        pk="id",
        not_null=["token", "via", "joined_at"],
    )
    db.table("members").create_index(["token"], unique=True)


@migrations(formerly="m008_names_show_every_character")
def m010_names_show_every_character(db: Database) -> None:
    """Names no longer hold characters that do not show (issue 27: four players that all read
    "Aya"). No change of the schema: the names stored already are the backfill's
    (``backfill.show_every_character``; it once cleaned them here)."""


@migrations(formerly="m008_club_night_keys")
def m011_club_night_keys(db: Database) -> None:
    """Who may run a club night (seat its rounds, take one back): the phone that started it,
    any phone that opened its secret organiser link, and the install's admin (web/access/rights.py).
    Its key is drawn here for the nights stored already, and by the insert trigger for any
    night inserted later (the form, a restored backup)."""
    club_nights = db.table("club_nights")
    club_nights.add_column("edit_key", str)
    db.execute(f"update club_nights set edit_key = {RANDOM_KEY_SQL} where edit_key is null")
    club_nights.create_index(["edit_key"], unique=True)
    db.execute(f"""create trigger club_nights_key after insert on club_nights
        when new.edit_key is null
        begin
            update club_nights set edit_key = {RANDOM_KEY_SQL} where id = new.id;
        end""")


@migrations(formerly="m009_confirmation")
def m012_confirmation(db: Database) -> None:
    """Confirmation by the other side (store/confirmations.py): a game's setting, off for
    every game stored already, and the phone that started it (the game's admin); each deal's
    phone and player that entered it and the phone, player and time that confirmed it; and
    each history row's phone and player. A deal stored already counts as confirmed."""
    games = db.table("games")
    games.add_column("confirm", int, not_null_default=0)
    games.add_column("started_by", str)
    deals = db.table("deals")
    for column, kind in (
        ("entered_by", str),
        ("entered_seat", int),
        ("confirmed_by", str),
        ("confirmed_seat", int),
        ("confirmed_at", str),
    ):
        deals.add_column(column, kind)
    db.execute("update deals set confirmed_at = coalesce(updated_at, created_at)")
    history = db.table("deal_history")
    history.add_column("phone", str)
    history.add_column("seat", int)


@migrations(formerly="m009_seasons")
def m013_seasons(db: Database) -> None:
    """The group's seasons (store.seasons): a name and the first and last night of a range,
    both included. What their hall of records reads of each game, kept with its summary
    (``facts.refresh_feats``): the biggest comeback of its winners and the deal it began
    after, and each seat's K♥ taken and Trex deals finished first; the backfill fills them
    for the games stored already."""
    db.table("seasons").create(
        {"id": int, "name": str, "first_night": str, "last_night": str, "created_at": str},
        pk="id",
        not_null=["name", "first_night", "last_night", "created_at"],
    )
    db.table("games").add_column("comeback", int, not_null_default=0)
    db.table("games").add_column("comeback_deal", int)
    db.table("game_players").add_column("kh_taken", int, not_null_default=0)
    db.table("game_players").add_column("trex_firsts", int, not_null_default=0)


@migrations(formerly="m009_tournaments")
def m014_tournaments(db: Database) -> None:
    """Knockout tournaments (store.tournaments): their entrants in seed order (a player, or a
    pair's two), and each round's tables, each an ordinary game with the entrants (seeds) at
    it. Who goes through is read from the games by the engine's bracket, never stored. The
    organiser's key is drawn by the insert trigger, as a club night's. A match is one game, or
    under the best of three (``best_of``) up to three, numbered by ``game_number``. With
    ``confirm`` (on unless turned off), its games ask for confirmation by the other side."""
    db.table("tournaments").create(
        {
            "id": int,
            "title": str,
            "played_on": str,
            "format": str,
            "seeding": str,
            "seed": int,
            "best_of": int,
            "confirm": int,
            "rules_json": str,
            "created_at": str,
            "edit_key": str,
        },
        pk="id",
        not_null=[
            "title",
            "played_on",
            "format",
            "seeding",
            "best_of",
            "confirm",
            "rules_json",
            "created_at",
        ],
        defaults={"best_of": 1, "confirm": 1},
    )
    db.table("tournaments").create_index(["edit_key"], unique=True)
    db.execute(f"""create trigger tournaments_key after insert on tournaments
        when new.edit_key is null
        begin
            update tournaments set edit_key = {RANDOM_KEY_SQL} where id = new.id;
        end""")
    db.table("tournament_entrants").create(
        {
            "tournament_id": int,
            "seed": int,
            "player_id": int,
            "partner_id": int,
            "entry_order": int,
        },
        pk=("tournament_id", "seed"),
        foreign_keys=[
            ("tournament_id", "tournaments", "id"),
            ("player_id", "players", "id"),
            ("partner_id", "players", "id"),
        ],
        not_null=["player_id", "entry_order"],
    )
    db.table("tournament_tables").create(
        {
            "tournament_id": int,
            "round": int,
            "table_number": int,
            "game_number": int,
            "game_id": int,
            "entrants_json": str,
            "final": int,
        },
        pk=("tournament_id", "round", "table_number", "game_number"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("game_id", "games", "id")],
        not_null=["game_id", "entrants_json", "final"],
        defaults={"game_number": 1},
    )
    db.table("tournament_tables").create_index(["game_id"], unique=True)


@migrations(formerly="m010_wall_keys")
def m015_wall_keys(db: Database) -> None:
    """Each club night's and tournament's wall link, ``/w/<wall key>`` (store/keys.py): a TV
    that is no member of the group opens the wall with it, and nothing else. Drawn here for
    those stored already, and by an insert trigger for any inserted later (the forms, a
    restored backup), as the organiser's key is."""
    for table in ("club_nights", "tournaments"):
        db.table(table).add_column("wall_key", str)
        db.execute(f"update {table} set wall_key = {RANDOM_KEY_SQL} where wall_key is null")
        db.table(table).create_index(["wall_key"], unique=True)
        db.execute(f"""create trigger {table}_wall_key after insert on {table}
            when new.wall_key is null
            begin
                update {table} set wall_key = {RANDOM_KEY_SQL} where id = new.id;
            end""")


@migrations(formerly="m011_tournament_reopened")
def m016_tournament_reopened(db: Database) -> None:
    """The round of a tournament its organiser reopened (``store.reopening``): the round
    after it waits for the organiser to seat it again, instead of being seated as soon as its
    matches are decided. Null while no round is held open."""
    db.table("tournaments").add_column("reopened", int)


@migrations(formerly="m012_phone_states")
def m017_phone_states(db: Database) -> None:
    """A phone's state in the group (its rights, its membership's token, its identity, who it
    said it is in each game), kept here rather than in its cookie, which holds only a random
    key: the row is found by a digest of that key, so a copy of the file hands out no phone.
    ``member`` repeats the membership's token, so that ending it finds the phone's row."""
    db.table("phone_states").create(
        {"phone": str, "member": str, "state": str, "seen_on": str},
        pk="phone",
        not_null=["state", "seen_on"],
    )
    db.table("phone_states").create_index(["member"])


@migrations(formerly="m013_deal_version_keys")
def m018_deal_version_keys(db: Database) -> None:
    """Each deal version's key, ``deals.version_key``: 128 random bits drawn for every version
    of every deal (an entry, a correction, an import), so that a form names the exact version
    it was made for, and no version is ever named by a key another had, not even the deal
    entered in the place of an undone one (it once took that one's id and version again).
    Each history row keeps the key of the version it is about. The keys of the deals stored
    already are drawn here; the triggers draw one for a deal inserted without one, or whose
    version changes without a new key (a path other than ``storage``'s writes). The index on
    the history's deal ids lets ``storage`` give every new deal an id no deal ever had."""
    db.table("deals").add_column("version_key", str)
    db.execute(f"update deals set version_key = {RANDOM_KEY_SQL}")
    history = db.table("deal_history")
    history.add_column("version_key", str)
    db.execute("""update deal_history set version_key = (
        select d.version_key from deals d where d.id = deal_history.deal_id
        and d.game_id = deal_history.game_id and d.version = deal_history.version)
        where action != 'undo' and id > coalesce((select max(u.id) from deal_history u
            where u.deal_id = deal_history.deal_id and u.action = 'undo'), 0)""")
    history.create_index(["deal_id"])
    draw = f"update deals set version_key = {RANDOM_KEY_SQL} where id = new.id"
    db.execute(f"""create trigger deals_version_key_insert after insert on deals
        when new.version_key is null
        begin {draw}; end""")
    db.execute(f"""create trigger deals_version_key_update after update of version on deals
        when new.version is not old.version and new.version_key is old.version_key
        begin {draw}; end""")


#: The sums m019's triggers keep, as (column, what one fact row adds).
_PLAY_SUMS = (
    ("deals", "1"),
    ("points", "{f}.points"),
    ("took_kh", "coalesce({f}.took_kh, 0)"),
    ("made", "coalesce({f}.doubles_made, 0)"),
    ("passed", "coalesce({f}.doubles_passed, 0)"),
    ("back", "coalesce({f}.doubles_back, 0)"),
    ("took_doubled", "coalesce({f}.took_doubled, 0)"),
    ("p1", "({f}.trex_place is 1)"),
    ("p2", "({f}.trex_place is 2)"),
    ("p3", "({f}.trex_place is 3)"),
    ("p4", "({f}.trex_place is 4)"),
)


def _play_sums_step(sign: str, seat: str, facts: str, where: str, per_row: bool) -> str:
    """The statement that adds (*sign* ``+``) or takes away (``-``) facts from the sums of
    the seat *seat* (a ``game_players`` row: ``gp``, ``new`` or ``old``) where it is a
    finished seat: one fact row (*per_row*, *facts* ``new``/``old``) or all of the seat's
    (``seat_contract_stats f`` read by *where*), then drops the rows left at no deal."""
    key = "player_id, night, preset, contract, is_king"
    if per_row:
        values = ", ".join(f"{sign}{expr.format(f=facts)}" for _, expr in _PLAY_SUMS)
        source = (
            f"select {seat}.player_id, {seat}.night, {seat}.preset, {facts}.contract, "
            f"{facts}.is_king, {values} from game_players {seat} where {where}"
        )
    else:
        values = ", ".join(f"{sign}sum({expr.format(f='f')})" for _, expr in _PLAY_SUMS)
        source = (
            f"select {seat}.player_id, {seat}.night, {seat}.preset, f.contract, f.is_king, "
            f"{values} from seat_contract_stats f where {where} group by f.contract, f.is_king"
        )
    columns = ", ".join(name for name, _ in _PLAY_SUMS)
    update = ", ".join(f"{name} = {name} + excluded.{name}" for name, _ in _PLAY_SUMS)
    upsert = (
        f"insert into player_contract_nights ({key}, {columns}) {source} "
        f"on conflict ({key}) do update set {update}"
    )
    if sign == "+":
        return upsert
    if per_row:  # the one (player, night) taken from, read off its primary key
        found = f"from game_players {seat} where {where}"
        player, night = f"(select {seat}.player_id {found})", f"(select {seat}.night {found})"
    else:
        player, night = f"{seat}.player_id", f"{seat}.night"
    return (
        f"{upsert}; delete from player_contract_nights "
        f"where player_id = {player} and night = {night} and deals = 0"
    )


@migrations()
def m019_player_contract_nights(db: Database) -> None:
    """What a player's page adds up of how they play each contract, summed per player, night,
    preset, contract and whether they were King (``store.playsums``): the facts of their
    finished seats, kept by triggers in the transaction of every write of the facts
    (``seat_contract_stats``) or of a seat (its player, night, preset, finished flag), so that
    the page adds up a row per night instead of one per deal. And ``player_nights``: each
    player's finished games, places and points per night (a season's standings and best night
    add up a row per player and night instead of one per seat). The backfill fills both for
    the games stored already."""
    sums = ", ".join(f"{name} integer not null" for name, _ in _PLAY_SUMS)
    db.execute(f"""create table player_contract_nights (
        player_id integer not null, night text not null, preset text not null,
        contract text not null, is_king integer not null, {sums},
        primary key (player_id, night, preset, contract, is_king)) without rowid""")
    finished = "{s}.finished = 1 and {s}.night is not null and {s}.preset is not null"
    one_seat = "gp.game_id = {f}.game_id and gp.seat = {f}.seat and " + finished.format(s="gp")
    whole_seat = "f.game_id = {s}.game_id and f.seat = {s}.seat and " + finished
    steps = {
        "facts_insert": ("after insert on seat_contract_stats", [("+", "gp", "new", True)]),
        "facts_delete": ("after delete on seat_contract_stats", [("-", "gp", "old", True)]),
        "seat_insert": ("after insert on game_players", [("+", "new", "", False)]),
        "seat_delete": ("after delete on game_players", [("-", "old", "", False)]),
        "seat_update": (
            "after update of player_id, night, preset, finished, game_id, seat on game_players",
            [("-", "old", "", False), ("+", "new", "", False)],
        ),
    }
    for name, (event, parts) in steps.items():
        body = "; ".join(
            _play_sums_step(
                sign,
                seat,
                facts,
                one_seat.format(f=facts) if per_row else whole_seat.format(s=seat),
                per_row,
            )
            for sign, seat, facts, per_row in parts
        )
        db.execute(f"create trigger player_contract_nights_{name} {event} begin {body}; end")
    # What a season adds up of each player's finished seats, per night: the games, the places
    # (p4: fourth or below) and the points; a row per player and night (a season's standings
    # and best night), kept by the seats' own triggers.
    db.execute("""create table player_nights (
        player_id integer not null, night text not null, games integer not null,
        p1 integer not null, p2 integer not null, p3 integer not null, p4 integer not null,
        points integer not null, primary key (player_id, night)) without rowid""")
    db.execute("create index player_nights_by_night on player_nights (night, player_id)")
    columns = "games, p1, p2, p3, p4, points"
    for name, event, signed in (
        ("insert", "after insert on game_players", ["+new"]),
        ("delete", "after delete on game_players", ["-old"]),
        (
            "update",
            "after update of player_id, night, finished, rank, total on game_players",
            ["-old", "+new"],
        ),
    ):
        night_steps = []
        for part in signed:
            sign, seat = part[0], part[1:]
            values = ", ".join(
                f"{sign}{value}"
                for value in (
                    "1",
                    f"({seat}.rank is 1)",
                    f"({seat}.rank is 2)",
                    f"({seat}.rank is 3)",
                    f"coalesce({seat}.rank >= 4, 0)",
                    f"coalesce({seat}.total, 0)",
                )
            )
            update = ", ".join(f"{c} = {c} + excluded.{c}" for c in columns.split(", "))
            step = (
                f"insert into player_nights (player_id, night, {columns}) "
                f"select {seat}.player_id, {seat}.night, {values} "
                f"where {seat}.finished = 1 and {seat}.night is not null "
                f"on conflict (player_id, night) do update set {update}"
            )
            if sign == "-":
                step += (
                    f"; delete from player_nights where player_id = {seat}.player_id "
                    f"and night = {seat}.night and games = 0"
                )
            night_steps.append(step)
        db.execute(
            f"create trigger player_nights_{name} {event} begin {'; '.join(night_steps)}; end"
        )


#: The tables of what a group looks back at (its games, deals, seats, players, ratings,
#: settings, seasons, club nights and tournaments): every change of one of them draws the
#: group's version tag again (``m020_group_version``). The web wing keeps a page of the group
#: only when it read nothing else (``web/keeping/validators.py``).
_M020_TABLES = (
    "games",
    "deals",
    "deal_history",
    "game_players",
    "players",
    "seat_contract_stats",
    "settings",
    "ratings",
    "rating_changes",
    "club_nights",
    "club_night_players",
    "club_tables",
    "club_sitting_out",
    "seasons",
    "tournaments",
    "tournament_entrants",
    "tournament_tables",
    "player_contract_nights",
    "player_nights",
)
#: The tables of the players' sums m021 adds (``store.playsums``), drawing the tag too.
M021_TABLES = (
    "player_pair_nights",
    "player_pairs",
    "player_rivals",
    "player_contracts",
    "player_totals",
    "player_rating_nights",
    "player_run_nights",
)
GROUP_VERSION_TABLES = _M020_TABLES + M021_TABLES


def _version_triggers(db: Database, tables: tuple[str, ...]) -> None:
    """Every insert, update or delete of a row of *tables* draws the group's tag again."""
    draw = f"update group_version set tag = {RANDOM_TAG_SQL}"
    for table in tables:
        for event in ("insert", "update", "delete"):
            db.execute(f"""create trigger {table}_group_version_{event}
                after {event} on {table} begin {draw}; end""")


@migrations()
def m020_group_version(db: Database) -> None:
    """The group's version tag, ``group_version.tag`` (one row): a random tag that SQLite
    draws again, in the same transaction, on every insert, update or delete of a row of
    :data:`GROUP_VERSION_TABLES` (the tables m021 adds: its own triggers), whatever wrote it (the pages, the command line, an import,
    a restore, the backfill, another process). The pages a group looks back at (history,
    home, the leaderboard, a player's page, a night, a season, the charts) are kept and
    validated under it: a phone that has the page of the current tag is answered 304."""
    db.execute("create table group_version (id integer primary key check (id = 1), tag text)")
    db.execute(f"insert into group_version (id, tag) values (1, {RANDOM_TAG_SQL})")
    _version_triggers(db, _M020_TABLES)


class MigrationFailed(Exception):
    """A migration raised: the database was left as it was before (``migrate``)."""

    def __init__(self, name: str, cause: BaseException):
        super().__init__(f"the migration {name} failed: {cause}")
        self.name = name
        self.cause = cause


def migrate(db: Database, migration_set: Migrations = migrations) -> list[str]:
    """Apply every pending migration of *migration_set*, all of them in one transaction: when
    one fails (``MigrationFailed``), the database is left as it was, none of them applied.
    The names of those applied; running it again changes nothing (and takes no write lock
    when nothing is pending). The schema only: a group's database is brought up to date by
    ``backfill.up_to_date``, which runs this and then the backfill, in one transaction."""
    if not migration_set.pending(db):
        return []
    with db.atomic():  # the outermost transaction: each migration's own is a savepoint in it
        names = [m.name for m in migration_set.pending(db)]  # again, once the lock is held
        for at, name in enumerate(names):
            try:
                migration_set.apply(db, stop_before=names[at + 1 : at + 2] or None)
            except Exception as exc:
                raise MigrationFailed(name, exc) from exc
    return names


def newer_migrations(db: Database, migration_set: Migrations = migrations) -> list[str]:
    """The migrations *db* has applied that this version does not know: a newer version
    wrote it (a read; an empty list for a database without migrations)."""
    known = {m.name for m in migration_set._migrations}
    return [m.name for m in migration_set.applied(db) if m.name not in known]


def latest(migration_set: Migrations = migrations) -> str:
    """The name of this version's last migration: the schema a database up to date is at."""
    return migration_set._migrations[-1].name


#: The register of a box of many groups (``groups.py``) has a schema of its own, as a set of
#: migrations of its own: a new table or column of the register is a new one at its end.
register_migrations = Migrations("scorekeeper-register")


@register_migrations()
def r001_register(db: Database) -> None:
    """The groups, the starts each address made (the limit on starting groups), and the
    operator's keys (the invitation). ``if not exists``: a register made before the register
    had migrations holds them already."""
    db.execute(
        "create table if not exists groups (id text primary key, "
        "name text not null, lang text not null, created_at text not null)"
    )
    db.execute("create table if not exists group_starts (client text not null, at real not null)")
    db.execute("create index if not exists group_starts_client on group_starts (client, at)")
    db.execute("create table if not exists host_keys (name text primary key, key text not null)")


#: The sums kept for each ordered pair of players of a finished game (m021), as (column,
#: what the pair adds): ``a`` the player's seat, ``b`` the other's, ``{P}`` and ``{T}`` the
#: game's partnership flag and team result.
_PAIR_SUMS = (
    ("games", "1"),
    ("ahead", "coalesce({a}.rank < {b}.rank, 0)"),
    ("behind", "coalesce({a}.rank > {b}.rank, 0)"),
    ("level", "coalesce({a}.rank = {b}.rank, 0)"),
    ("my_points", "coalesce({a}.total, 0)"),
    ("their_points", "coalesce({b}.total, 0)"),
    ("team_games", "({P} is 1 and {b}.seat = ({a}.seat + 2) % 4)"),
    (
        "team_won",
        "({P} is 1 and {b}.seat = ({a}.seat + 2) % 4 and "
        "{T} is (case {a}.seat % 2 when 0 then '0+2' else '1+3' end))",
    ),
    ("team_level", "({P} is 1 and {b}.seat = ({a}.seat + 2) % 4 and {T} is 'tie')"),
    (
        "team_points",
        "(case when {P} is 1 and {b}.seat = ({a}.seat + 2) % 4 "
        "then coalesce({a}.total, 0) + coalesce({b}.total, 0) else 0 end)",
    ),
)
_PAIR_KEY = ("player_id", "night", "preset", "other_id")
#: A seat counted in the players' sums: finished, with a night and a preset.
_COUNTED = "{s}.finished = 1 and {s}.night is not null and {s}.preset is not null"


def _upsert(table: str, key: tuple[str, ...], sums: tuple[str, ...], source: str) -> str:
    """Add the rows *source* selects (the key's columns, then the sums') to *table*'s."""
    update = ", ".join(f"{name} = {name} + excluded.{name}" for name in sums)
    return (
        f"insert into {table} ({', '.join(key + sums)}) {source} "
        f"on conflict ({', '.join(key)}) do update set {update}"
    )


def _pair_step(sign: str, where: str, *, game: str = "g", a: str = "a", b: str = "b") -> str:
    """Add (*sign* ``+``) or take away (``-``) the pairs of seats *where* selects (``a``'s
    player against ``b``'s) to ``player_pair_nights``; *game* the games' row (``g``, joined,
    or ``new``/``old``), *a* and *b* the seats (tables, or ``new``/``old``)."""
    values = ", ".join(
        f"{sign}{expr.format(P=f'{game}.partnership', T=f'{game}.team_result', a=a, b=b)}"
        for _, expr in _PAIR_SUMS
    )
    tables = [f"game_players {t}" for t in (a, b) if t not in ("new", "old")]
    if game == "g":
        tables.append("games g")
    source = (
        f"select {a}.player_id, {a}.night, {a}.preset, {b}.player_id, {values} "
        f"from {', '.join(tables)} where {where} and {_COUNTED.format(s=a)}"
    )
    return _upsert("player_pair_nights", _PAIR_KEY, tuple(n for n, _ in _PAIR_SUMS), source)


def _seat_pairs(sign: str, seat: str, others: str) -> list[str]:
    """The steps that add or take away every pair the seat *seat* (``new``/``old``) makes with
    the other seats of its game (*others*: which rows of ``o`` they are), both ways."""
    steps = []
    for mine, theirs in ((seat, "o"), ("o", seat)):
        where = f"o.game_id = {seat}.game_id and {others} and g.id = {seat}.game_id"
        steps.append(_pair_step(sign, where, a=mine, b=theirs))
    if sign == "-":
        steps.append(
            f"delete from player_pair_nights where night = {seat}.night and games = 0 and "
            f"player_id in (select o.player_id from game_players o where o.game_id = "
            f"{seat}.game_id union all select {seat}.player_id)"
        )
    return steps


def _game_pairs(sign: str, game: str) -> list[str]:
    """The steps that add or take away every pair of seats of the game *game*
    (``new``/``old``), as its partnership flag and team result make them."""
    steps = [
        _pair_step(
            sign, f"a.game_id = {game}.id and b.game_id = a.game_id and b.seat != a.seat", game=game
        )
    ]
    if sign == "-":
        steps.append(
            f"delete from player_pair_nights where games = 0 and player_id in "
            f"(select o.player_id from game_players o where o.game_id = {game}.id) and night in "
            f"(select o.night from game_players o where o.game_id = {game}.id)"
        )
    return steps


def _rollup(db: Database, source: str, table: str, key: tuple[str, ...], sums: tuple[str, ...]):
    """*table*: *source*'s sums over every night (its key without ``night``), kept by
    triggers on *source*; a row goes when its first sum (a count) is back to 0."""
    columns = ", ".join(f"{name} integer not null" for name in sums)
    keys = ", ".join(
        f"{name} {'integer' if name.endswith('_id') or name == 'is_king' else 'text'} not null"
        for name in key
    )
    db.execute(
        f"create table {table} ({keys}, {columns}, primary key ({', '.join(key)})) without rowid"
    )

    def step(sign: str, row: str) -> str:
        values = ", ".join([f"{row}.{k}" for k in key] + [f"{sign}{row}.{s}" for s in sums])
        upsert = _upsert(table, key, sums, f"select {values} where true")
        if sign == "+":
            return upsert
        match = " and ".join(f"{k} = {row}.{k}" for k in key)
        return f"{upsert}; delete from {table} where {match} and {sums[0]} = 0"

    for event, parts in (
        ("insert", [("+", "new")]),
        ("delete", [("-", "old")]),
        ("update", [("-", "old"), ("+", "new")]),
    ):
        body = "; ".join(step(sign, row) for sign, row in parts)
        db.execute(f"create trigger {table}_{event} after {event} on {source} begin {body}; end")


#: The settings row that says every game is being rated again, inside the transaction that
#: does it (``ratings.recompute``): m021's triggers leave the ratings per night to its end.
RATINGS_RECOMPUTING = "ratings_recomputing"
#: Each player's rating before their first and after their last finished game of each night
#: (m021), for the players *{players}* and the nights *{nights}* (SQL conditions on
#: ``c.player_id`` and ``g.night``): the rows the triggers make again, and the backfill.
RATING_NIGHTS_SQL = """insert into player_rating_nights (player_id, night, mu_before,
    sigma_before, mu_after, sigma_after)
    select distinct c.player_id, g.night, first_value(c.mu_before) over w,
    first_value(c.sigma_before) over w, last_value(c.mu_after) over w,
    last_value(c.sigma_after) over w
    from games g join rating_changes c on c.game_id = g.id
    where g.finished = 1 and g.night is not null and {nights} and {players}
    window w as (partition by c.player_id, g.night order by g.created_at, g.id
    rows between unbounded preceding and unbounded following)"""

#: Each player's winning runs of each night (m021), in order of play: the games, the run at
#: the start (``lead``) and the game it ends on, the run at the end (``trail``) and the
#: night's last game, and the longest run inside (``inner``, touching neither end) and the
#: game it ends on (the first, on a tie); for the players *{players}* and the nights
#: *{nights}* (SQL conditions on ``gp.player_id`` and ``gp.night``).
RUN_NIGHTS_SQL = """insert into player_run_nights (player_id, night, games, lead, lead_game,
    trail, last_game, inner, inner_game)
    with s as (select gp.player_id as p, gp.night as n, g.id as game, gp.rank is 1 as won,
        row_number() over (partition by gp.player_id, gp.night
            order by g.created_at, g.id) as i
        from game_players gp join games g on g.id = gp.game_id
        where gp.finished = 1 and g.finished = 1 and gp.night is not null
        and {nights} and {players}),
    nights as (select p, n, max(i) as games, game as last_game from s group by p, n),
    runs as (select p, n, max(i) as b, game, count(*) as len
        from (select p, n, i, game, i - row_number() over (partition by p, n order by i) as k
            from s where won) group by p, n, k),
    placed as (select r.p, r.n, r.b - r.len + 1 as a, r.b, r.len, r.game, t.games,
        t.last_game, row_number() over (partition by r.p, r.n
            order by (r.b - r.len + 1 > 1 and r.b < t.games) desc, r.len desc, r.b) as pick
        from runs r join nights t on t.p = r.p and t.n = r.n)
    select t.p, t.n, t.games,
        coalesce(max(case when x.a = 1 then x.len end), 0),
        max(case when x.a = 1 then x.game end),
        coalesce(max(case when x.b = t.games then x.len end), 0), t.last_game,
        coalesce(max(case when x.pick = 1 and x.a > 1 and x.b < t.games then x.len end), 0),
        max(case when x.pick = 1 and x.a > 1 and x.b < t.games then x.game end)
    from nights t left join placed x on x.p = t.p and x.n = t.n group by t.p, t.n"""


def _remade(table: str, sql: str, player: str, night: str, players: str, nights: str) -> str:
    """The steps that make *table*'s rows of the players *players* and the nights *nights*
    (SQL lists) again by *sql*, whose conditions are on the columns *player* and *night*."""
    return f"delete from {table} where player_id in {players} and night in {nights}; " + sql.format(
        players=f"{player} in {players}", nights=f"{night} in {nights}"
    )


@migrations()
def m021_looking_back_sums(db: Database) -> None:
    """What the pages a group looks back at add up, kept in the transaction of every write
    (``store.playsums``), so that they read a row per player and night, or per player, instead
    of one per seat: ``player_pair_nights``, each player's games against each other player per
    night and preset (head-to-head, and the partnership games with them as partner);
    ``player_pairs``, ``player_contracts`` and ``player_totals``, the sums of the per-night
    tables over every night (``player_rivals``: the pairs over every preset too);
    ``player_rating_nights``, each player's rating before their first and after their last
    game of each night; ``player_run_nights``, each player's winning runs of each night (at
    the start, at the end, the longest inside); and the indexes of a player's totals, of the
    records' figures and of each night's wins. Schema, indexes and triggers only: the
    backfill fills the tables for the games stored already."""
    pair_sums = tuple(name for name, _ in _PAIR_SUMS)
    db.execute(f"""create table player_pair_nights (player_id integer not null,
        night text not null, preset text not null, other_id integer not null,
        {", ".join(f"{name} integer not null" for name in pair_sums)},
        primary key (player_id, night, preset, other_id)) without rowid""")
    moved = "not (o.game_id = new.game_id and o.seat = new.seat)"
    for name, event, steps in (
        (
            "seat_insert",
            "after insert on game_players",
            _seat_pairs("+", "new", "o.seat != new.seat"),
        ),
        (
            "seat_delete",
            "after delete on game_players",
            _seat_pairs("-", "old", "o.seat != old.seat"),
        ),
        (
            "seat_update",
            "after update of player_id, night, preset, finished, rank, total, game_id, seat "
            "on game_players",
            _seat_pairs("-", "old", moved) + _seat_pairs("+", "new", "o.seat != new.seat"),
        ),
        ("game_insert", "after insert on games", _game_pairs("+", "new")),
        ("game_delete", "after delete on games", _game_pairs("-", "old")),
        (
            "game_update",
            "after update of partnership, team_result on games",
            _game_pairs("-", "old") + _game_pairs("+", "new"),
        ),
    ):
        db.execute(
            f"create trigger player_pair_nights_{name} {event} begin {'; '.join(steps)}; end"
        )
    _rollup(
        db, "player_pair_nights", "player_pairs", ("player_id", "preset", "other_id"), pair_sums
    )
    # and over every preset too: a player's page without a filter reads a row per other player
    _rollup(db, "player_pairs", "player_rivals", ("player_id", "other_id"), pair_sums)
    _rollup(
        db,
        "player_contract_nights",
        "player_contracts",
        ("player_id", "preset", "contract", "is_king"),
        tuple(name for name, _ in _PLAY_SUMS),
    )
    _rollup(
        db,
        "player_nights",
        "player_totals",
        ("player_id",),
        ("games", "p1", "p2", "p3", "p4", "points"),
    )
    # the best and worst final score of a player's record, off an index (not summable)
    db.execute(
        "create index idx_game_players_player_totals on game_players (player_id, finished, total)"
    )
    db.execute("create index player_nights_by_wins on player_nights (p1, games) where p1 > 0")
    # a season's records over most of the record, read from the best figure down
    for table, column in (
        ("game_players", "kh_taken"),
        ("game_players", "trex_firsts"),
        ("games", "comeback"),
    ):
        db.execute(f"create index idx_{table}_{column} on {table} ({column}) where {column} > 0")

    db.execute("""create table player_rating_nights (player_id integer not null,
        night text not null, mu_before real not null, sigma_before real not null,
        mu_after real not null, sigma_after real not null,
        primary key (player_id, night)) without rowid""")
    db.execute(
        "create index player_rating_nights_by_night on player_rating_nights (night, player_id)"
    )
    rated = _partial_remade("player_rating_nights", RATING_NIGHTS_SQL, "+c.player_id", "g.night")
    # while every game is rated again (``ratings.recompute``, its settings row of the moment),
    # the rows are made once at its end instead of once per rating change
    one_by_one = f"when not exists (select 1 from settings where key = '{RATINGS_RECOMPUTING}')"
    of_game = "(select player_id from rating_changes where game_id = {g}.id)"
    for name, event, body in (
        (
            "change_insert",
            "after insert on rating_changes",
            rated("(new.player_id)", "(select night from games where id = new.game_id)"),
        ),
        (
            "change_delete",
            "after delete on rating_changes",
            rated("(old.player_id)", "(select night from games where id = old.game_id)"),
        ),
        (
            "change_update",
            "after update on rating_changes",
            rated(
                "(old.player_id, new.player_id)",
                "(select night from games where id in (old.game_id, new.game_id))",
            ),
        ),
        (
            "game_update",
            "after update of night, created_at, finished on games",
            rated(of_game.format(g="new"), "(old.night, new.night)"),
        ),
        ("game_delete", "after delete on games", rated(of_game.format(g="old"), "(old.night)")),
    ):
        when = one_by_one if name.startswith("change_") else ""
        db.execute(f"create trigger player_rating_nights_{name} {event} {when} begin {body}; end")

    db.execute("""create table player_run_nights (player_id integer not null,
        night text not null, games integer not null, lead integer not null, lead_game integer,
        trail integer not null, last_game integer not null, inner integer not null,
        inner_game integer, primary key (player_id, night)) without rowid""")
    db.execute("create index player_run_nights_by_night on player_run_nights (night, player_id)")
    runs = _partial_remade("player_run_nights", RUN_NIGHTS_SQL, "gp.player_id", "gp.night")
    seats = "(select {c} from game_players where game_id = {g}.id)"
    for name, event, body in (
        ("seat_insert", "after insert on game_players", runs("(new.player_id)", "(new.night)")),
        ("seat_delete", "after delete on game_players", runs("(old.player_id)", "(old.night)")),
        (
            "seat_update",
            "after update of player_id, night, finished, rank, game_id, seat on game_players",
            runs("(old.player_id, new.player_id)", "(old.night, new.night)"),
        ),
        (
            "game_update",
            "after update of created_at, finished on games",
            runs(seats.format(c="player_id", g="new"), seats.format(c="night", g="new")),
        ),
        (
            "game_delete",
            "after delete on games",
            runs(seats.format(c="player_id", g="old"), seats.format(c="night", g="old")),
        ),
    ):
        db.execute(f"create trigger player_run_nights_{name} {event} begin {body}; end")
    _version_triggers(db, M021_TABLES)


def _partial_remade(table: str, sql: str, player: str, night: str) -> Callable[[str, str], str]:
    """:func:`_remade` for *table*, of the players and nights given."""
    return lambda players, nights: _remade(table, sql, player, night, players, nights)
