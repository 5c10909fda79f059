"""Changes to the players themselves: renaming a player, and merging two spellings of one person.

Games name their players by id, so a rename changes every game's name at once and a merge moves
one spelling's games onto the other; neither touches a score. A change that cannot be made raises
:class:`Refused` with its reason as an English message (marked for the catalog with ``N_``) and
its values, for the page to say in its language.
"""
from __future__ import annotations

from sqlite_utils import Database

from ..engine.gamefile import NAME_LIMIT, has_control
from . import ratings, storage
from .refused import N_, Refused


def rename_player(db: Database, pid: int, new_name: str) -> str:
    """Rename player *pid*; return the name as stored, or raise Refused."""
    name = storage.clean_name(new_name)
    if not name:
        raise Refused(N_("Write the new name."))
    if len(name) > NAME_LIMIT:
        raise Refused(N_("A name has at most %(limit)s characters."), limit=NAME_LIMIT)
    if has_control(name):
        raise Refused(N_("A name cannot hold control characters."))
    key = storage.name_key(name)
    with db.atomic():
        other = next(db.query("select id, name from players where name_key = ? and id != ?",
                              [key, pid]), None)
        if other is not None:
            raise Refused(N_("%(name)s is another player already. If they are the same "
                             "person, merge the two instead."), names={"name": other["name"]})
        db.execute("update players set name = ?, name_key = ? where id = ?", [name, key, pid])
    return name


def shared_game(db: Database, keep: int, drop: int) -> int | None:
    """A game both players sat in, if any (then they are two people)."""
    row = next(db.query("select a.game_id from game_players a join game_players b "
                        "on b.game_id = a.game_id where a.player_id = ? and b.player_id = ? "
                        "limit 1", [keep, drop]), None)
    return row["game_id"] if row else None


def merge_players(db: Database, keep: int, drop: int) -> None:
    """Move every game of *drop* onto *keep* and remove *drop*, or raise Refused."""
    if keep == drop:
        raise Refused(N_("Choose another player to merge."))
    with db.atomic():
        game = shared_game(db, keep, drop)
        if game is not None:
            raise Refused(N_("They played in the same game (game %(number)s), so they are two "
                             "people and cannot be merged."), number=game)
        db.execute("update game_players set player_id = ? where player_id = ?", [keep, drop])
        ratings.after_players_changed(db)  # one player's games are now another's
        db.execute("delete from players where id = ?", [drop])
