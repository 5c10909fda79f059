"""RULES.md "Who wins" on a phone: a game played with reverse_scores is won by the lowest total,
and the game page says so where the table looks (the game-over line, the star, the places)."""

from __future__ import annotations


from history_helpers import import_docs
from phone_helpers import shoot
from test_rules_who_wins import reversed_game


def test_who_wins_reverse_scores_the_game_page_names_the_lowest_total(site, phone):
    doc = {**reversed_game(), "title": "Reversed night"}
    [game_id] = import_docs(site.seed, [doc])
    phone.goto(f"{site.url}/games/{game_id}")
    over = phone.locator("#game-over h2").inner_text()
    assert "Winner" in over and "Aya" in over
    head = phone.locator("table.sheet thead")
    names = head.locator("tr").first.locator("bdi").all_inner_texts()
    cells = head.locator("tr.totals td")
    star = [names[i] for i in range(4) if cells.nth(i).locator(".star").count()]
    assert star == ["Aya"]
    places = [cells.nth(i).locator("small.at").inner_text().split()[0] for i in range(4)]
    assert dict(zip(names, places)) == {"Aya": "1st", "Bilal": "3rd", "Carla": "4th", "Dana": "2nd"}
    assert cells.nth(0).inner_text().startswith("\u2212110")  # the lowest total, and first
    shoot(phone, "game-over-reversed")
