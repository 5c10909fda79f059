"""A scorekeeper at the table, driving the web forms the way a browser without JavaScript does."""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup

PLAYERS = ("Aya", "Bilal", "Carla", "Dana")
COMPLEX = "king_of_hearts,diamonds,queens,collections"
#: What a browser sends with a tap on one of the app's own links (the language and digits
#: switches change the phone's cookie only then, or by a POST with the form's token).
OWN_LINK = {"Sec-Fetch-Site": "same-origin"}


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def edit_link(app, game_id: int) -> str:
    """The game's secret edit link (a path), as the phone that started it can show it."""
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        [row] = db.query("select edit_key from games where id = ?", [game_id])
    finally:
        db.close()
    return f"/e/{row['edit_key']}"


def admin_link(app) -> str:
    """The install's secret admin link (a path), as ``scorekeeper admin-link`` prints it."""
    from scorekeeper.store import keys
    from scorekeeper.store.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return f"/admin/{keys.install_key(db, 'admin')}"
    finally:
        db.close()


def be_admin(client, app) -> None:
    """Let *client* change the group's players (rename, merge, delete), through the admin link."""
    response = client.get(admin_link(app))
    assert response.status_code == 303, response.status_code


def keep_score(client, app, game_id: int) -> None:
    """Let *client* (another phone) change the game, through its edit link."""
    response = client.get(edit_link(app, game_id))
    assert response.status_code == 303, response.status_code


def hidden_fields(page: BeautifulSoup, form_selector: str = "form[method=post]") -> dict[str, str]:
    form = page.select_one(form_selector)
    assert form is not None, "no form on the page"
    return {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}


def checked_values(page: BeautifulSoup) -> dict[str, str]:
    """What the form shows as chosen: each checked radio's value, each text input's value."""
    out = {i["name"]: i["value"] for i in page.select("input[type=radio][checked]")}
    out.update({i["name"]: i.get("value", "") for i in page.select("input[type=text]")})
    return out


def error_next_to(page: BeautifulSoup, element_id: str) -> list[str]:
    """The error messages shown inside the field or group with this id."""
    box = page.find(id=element_id)
    assert box is not None, f"no element {element_id!r}"
    return [p.get_text(strip=True) for p in box.find_all("p", class_="error", recursive=True)]


def capture_fields(prefix: str, capture: dict[str, int]) -> dict[str, str]:
    out = {f"{prefix}_taker": str(capture["taker"])}
    if "doubled_by" in capture:
        out[f"{prefix}_doubled_by"] = str(capture["doubled_by"])
    if "led_by" in capture:
        out[f"{prefix}_led_by"] = str(capture["led_by"])
    return out


def form_fields(deal: dict[str, Any], *, leave_out_last: bool = False) -> dict[str, str]:
    """The posted fields that enter *deal* (a file-format deal); optionally without the 4th count
    and the last place, which the server fills in."""
    out: dict[str, str] = {}
    if "king_of_hearts" in deal:
        out.update(capture_fields("kh", deal["king_of_hearts"]))
    for suit, capture in deal.get("queens", {}).items():
        out.update(capture_fields(f"q_{suit}", capture))
    for key in ("diamonds", "tricks"):
        counts = deal.get(key)
        if counts is not None:
            out.update(
                {
                    f"{key}_{s}": str(n)
                    for s, n in enumerate(counts)
                    if not (leave_out_last and s == 3)
                }
            )
    for place, seat in enumerate(deal.get("trex_order", ()), start=1):
        if not (leave_out_last and place == 4):
            out[f"trex_{place}"] = str(seat)
    if "thrown_in" in deal:
        out["reason"] = deal["thrown_in"]["reason"]
        out["by"] = str(deal["thrown_in"]["by"])
    return out


class Table:
    def __init__(self, client):
        self.client = client

    def new_game(
        self,
        names=PLAYERS,
        *,
        first_king: int = 0,
        preset: str = "standard",
        title: str = "Test night",
        played_on: str = "2026-11-20",
        **settings: Any,
    ) -> int:
        data = {f"player_{s}": n for s, n in enumerate(names)}
        data.update(first_king=str(first_king), preset=preset, title=title, played_on=played_on)
        data.update({k: v for k, v in settings.items()})
        response = self.client.post("/games/new", data=data)
        assert response.status_code == 303, soup(response).get_text(" ", strip=True)[:2000]
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def open_form(self, game_id: int, contracts: str, king: int | None = None):
        url = f"/games/{game_id}/deals/new?contracts={contracts}"
        if king is not None:
            url += f"&king={king}"
        response = self.client.get(url)
        assert response.status_code == 200, response.status_code
        return soup(response)

    def post_entry(
        self,
        game_id: int,
        contracts: str,
        fields: dict[str, str],
        *,
        king: int | None = None,
        step: str = "preview",
    ):
        hidden = hidden_fields(self.open_form(game_id, contracts, king))
        return self.client.post(
            f"/games/{game_id}/deals/new", data={**hidden, **fields, "step": step}
        )

    def enter(self, game_id: int, deal: dict[str, Any], *, leave_out_last: bool = False):
        """Enter a played deal as a person does: the form, the preview, then save."""
        contracts = ",".join(deal["contracts"])
        preview = self.post_entry(
            game_id, contracts, form_fields(deal, leave_out_last=leave_out_last), king=deal["king"]
        )
        assert preview.status_code == 200, soup(preview).get_text(" ", strip=True)[:3000]
        page = soup(preview)
        assert page.find("button", attrs={"value": "save"}) is not None, "no preview"
        saved = self.client.post(
            f"/games/{game_id}/deals/new", data={**hidden_fields(page), "step": "save"}
        )
        assert saved.status_code == 303, soup(saved).get_text(" ", strip=True)[:3000]
        return saved

    def throw_in(self, game_id: int, king: int, reason: str, by: int):
        page = soup(self.client.get(f"/games/{game_id}/thrown-in?king={king}"))
        response = self.client.post(
            f"/games/{game_id}/thrown-in",
            data={**hidden_fields(page), "reason": reason, "by": str(by), "step": "save"},
        )
        assert response.status_code == 303, soup(response).get_text(" ", strip=True)[:2000]
        return response

    def play(self, game_id: int, deals) -> None:
        """Enter file-format *deals* in order: scored deals and redeals."""
        for entered in deals:
            if "thrown_in" in entered:
                info = entered["thrown_in"]
                self.throw_in(game_id, king=entered["king"], reason=info["reason"], by=info["by"])
            else:
                self.enter(game_id, entered)

    def correct(self, game_id: int, number: int, deal: dict[str, Any]):
        url = f"/games/{game_id}/deals/{number}/edit"
        contracts = ",".join(deal.get("contracts", ()))
        page = soup(self.client.get(url + (f"?contracts={contracts}" if contracts else "")))
        hidden = hidden_fields(page)
        fields = form_fields(deal)
        if "thrown_in" in deal:
            return self.client.post(url, data={**hidden, **fields, "step": "save"})
        preview = self.client.post(url, data={**hidden, **fields, "step": "preview"})
        if preview.status_code != 200:
            return preview
        return self.client.post(url, data={**hidden_fields(soup(preview)), "step": "save"})

    def undo(self, game_id: int, number: int):
        url = f"/games/{game_id}/deals/{number}/undo"
        page = soup(self.client.get(url))
        return self.client.post(url, data=hidden_fields(page))

    def standings(self, game_id: int) -> dict[str, int]:
        """Each player's total as the game page shows it: at the head of the sheet."""
        return sheet_totals(soup(self.client.get(f"/games/{game_id}")))


def sheet_totals(page: BeautifulSoup) -> dict[str, int]:
    """Each player's total at the head of the page's scoresheet, by name in seat order."""
    sheet = page.select_one("table.sheet")
    names = [b.get_text(strip=True) for b in sheet.select("thead tr:first-child th bdi")]
    totals = [
        int(span.get_text(strip=True).replace("\u2212", "-"))
        for span in sheet.select("thead tr.totals td > span")
    ]
    assert len(names) == len(totals) == 4
    return dict(zip(names, totals))


def first_load(client, html: bytes) -> int:
    """The bytes a phone loads first for the page *html*: the page and the stylesheets and
    scripts it names, as the app sends them."""
    import re

    assets = re.findall(rb'(?:href|src)="/static/([\w.]+\.(?:css|js))"', html)
    return len(html) + sum(len(client.get(f"/static/{a.decode()}").get_data()) for a in assets)
