"""``/healthz``: whether the app can answer and read its database, for a container's health
check, a service monitor or a reverse proxy. It says nothing about any game."""
from __future__ import annotations

import sqlite3

from flask import Blueprint, jsonify

from ..database import get_db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    try:
        get_db().execute("select count(*) from games").fetchone()
    except sqlite3.Error:
        response = jsonify(status="unavailable")
        response.status_code = 503
    else:
        response = jsonify(status="ok")
    response.headers["Cache-Control"] = "no-store"
    return response
