"""Simulated nights of Trex for the history, statistics and import tests and the benchmark."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Iterator

from scorekeeper.engine import PRESETS
from scorekeeper.engine.simulate import simulate_game

POOL = (
    "Aya",
    "Bilal",
    "Carla",
    "Dana",
    "Elias",
    "Farah",
    "Ghassan",
    "Hala",
    "Imad",
    "ليلى",
    "Nour",
    "Omar",
)
PRESET_WEIGHTS = {"standard": 6, "complex": 2, "partnership": 2}


def simulated_games(
    count: int,
    seed: int = 0,
    *,
    per_night: int = 3,
    pool=POOL,
    last_night: str = "2026-11-20",
    unfinished_every: int = 0,
) -> Iterator[dict[str, Any]]:
    """*count* whole games played by random bots: four players drawn from *pool*, *per_night*
    games a night going back from *last_night*, under a mix of the presets. With
    *unfinished_every* N, every Nth game stops part-way (a game still in progress)."""
    rng = random.Random(seed)
    last = dt.date.fromisoformat(last_night)
    names, weights = list(PRESET_WEIGHTS), list(PRESET_WEIGHTS.values())
    for i in range(count):
        preset = rng.choices(names, weights)[0]
        doc = simulate_game(
            seed * 1_000_003 + i, PRESETS[preset], "random", players=rng.sample(list(pool), 4)
        )
        doc["played_on"] = (last - dt.timedelta(days=i // per_night)).isoformat()
        doc["title"] = f"Game {i % per_night + 1}"
        if unfinished_every and i % unfinished_every == unfinished_every - 1:
            doc["deals"] = doc["deals"][: rng.randrange(1, len(doc["deals"]))]
        yield doc


def import_docs(app, docs) -> list[int]:
    """Store game documents in the app's database through the importer; their ids."""
    import json

    from scorekeeper.store import transfer
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        text = json.dumps({"format": "trex-games/1", "games": list(docs)}, ensure_ascii=False)
        return transfer.import_text(db, text).ids
    finally:
        db.close()


def query(app, sql: str, params=()) -> list[dict]:
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return list(db.query(sql, list(params)))
    finally:
        db.close()


def number(text: str) -> float:
    """A number as the pages print it: a true minus sign, maybe a plus, maybe a percent."""
    return float(text.strip().replace("\u2212", "-").replace("+", "").rstrip("%"))


def keep_score(client, app, game_id: int) -> None:
    """Let the test client's phone change the game, through the game's edit link."""
    [row] = query(app, "select edit_key from games where id = ?", [game_id])
    assert client.get(f"/e/{row['edit_key']}").status_code == 303
