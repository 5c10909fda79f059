"""The reference for the web benchmark: the smallest Flask page that reads one SQLite row and
renders a small Jinja template, served by waitress with the thread count ``scorekeeper serve``
uses.

    python benchmarks/reference_app.py --db PATH --port PORT

``GET /games/<id>`` reads the game's row from the scorekeeper database (opened per request, as
the Flask tutorial does) and renders its title, night and totals. ``GET /`` answers 200 without
touching the database (for the benchmark's readiness check).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from flask import Flask, abort, g, render_template
from jinja2 import DictLoader

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.web.serve import THREADS  # noqa: E402

PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ game.title or 'Game' }}</title></head>
<body>
<h1>{{ game.title or 'Game ' ~ game.id }}</h1>
<p>Played on {{ game.played_on or 'an unknown night' }}; totals {{ game.totals_json }}.</p>
</body>
</html>
"""


def create_app(database: str) -> Flask:
    app = Flask(__name__)
    app.jinja_loader = DictLoader({"page.html": PAGE})  # compiled once, like a file template

    def get_db() -> sqlite3.Connection:
        if "db" not in g:
            g.db = sqlite3.connect(database)
            g.db.row_factory = sqlite3.Row
        return g.db

    @app.teardown_appcontext
    def close_db(exc: BaseException | None = None) -> None:
        db = g.pop("db", None)
        if db is not None:
            db.close()

    @app.get("/")
    def ready():
        return "ok"

    @app.get("/games/<int:game_id>")
    def page(game_id: int):
        game = (
            get_db()
            .execute("select id, title, played_on, totals_json from games where id = ?", [game_id])
            .fetchone()
        )
        if game is None:
            abort(404)
        return render_template("page.html", game=game)

    return app


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    from waitress import serve

    serve(create_app(args.db), host=args.host, port=args.port, threads=THREADS, ident="reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
