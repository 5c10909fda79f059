"""``/healthz``: whether the app can answer and read its database (on a box of many groups,
its register of groups), for a container's health
check, a service monitor or a reverse proxy. It says nothing about any game."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, jsonify

from ..database import get_db
from ..groupspace import host, many

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    try:
        if many():  # a box of many groups: its register of groups
            register = host().register()
            try:
                register.execute("select count(*) from groups").fetchone()
            finally:
                register.close()
        else:
            get_db().execute("select count(*) from games").fetchone()
    except sqlite3.Error:
        response = jsonify(status="unavailable")
        response.status_code = 503
    else:
        response = jsonify(status="ok")
    response.headers["Cache-Control"] = "no-store"
    return response
