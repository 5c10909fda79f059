"""Issue 28, "names are never mistaken for each other": on every control and header that shows
the four players, at 360 and 390 px, in English and Arabic, the four labels as drawn differ and
none is cut. What is drawn is read from the screen: each label's picture (an element
screenshot), and whether the box that draws it shows all of it."""

from __future__ import annotations

import pytest

from phone_helpers import NARROW, PHONE, chip, keep_score, shoot

#: Names that begin alike, as Arab tables (and others) have them.
NAME_SETS = {
    "moh": ["Mohammed", "Mohannad", "Mohamed", "Mahmoud"],
    "abd": ["عبد الرحمن", "عبد الرحيم", "عبد الله", "عبدو"],
    "chris": ["Christina", "Christine", "Chris", "Kristina"],
}

#: Each label's box, and the box it sits in: is any of it hidden (cut by its own box, or
#: drawn outside the chip, cell or button that holds it)?
CUT_SCRIPT = """(labels) => labels.map(el => {
  const own = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const r = el.getBoundingClientRect();
  const box = el.parentElement.getBoundingClientRect();
  const out = r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
              || r.bottom > box.bottom + 1;
  return own || out;
})"""


def look(page, control: str, what: str) -> None:
    """Each group of labels that *control* matches: four (or five) labels drawn apart, none
    cut. Fails naming the control and what is drawn the same."""
    groups = page.locator(control)
    assert groups.count(), f"{what}: nothing matches {control}"
    for g in range(groups.count()):
        labels = groups.nth(g).locator("bdi")
        assert labels.count() >= 3, f"{what}: {labels.count()} names in {control}"
        cut = labels.evaluate_all(CUT_SCRIPT)
        drawn = [labels.nth(i).screenshot(animations="disabled") for i in range(labels.count())]
        texts = labels.all_inner_texts()
        assert not any(cut), f"{what}: cut in {control}: " + ", ".join(
            t for t, c in zip(texts, cut) if c
        )
        same = [
            (texts[i], texts[j])
            for i in range(len(drawn))
            for j in range(i)
            if drawn[i] == drawn[j]
        ]
        assert not same, f"{what}: drawn alike in {control}: {same}"


@pytest.mark.parametrize("locale", ["en-GB", "ar-JO"])
@pytest.mark.parametrize("names", NAME_SETS.values(), ids=NAME_SETS.keys())
def test_names_are_never_mistaken_for_each_other(
    table_new_phone, table_site, table_own_game, names, locale
):
    game_id, cookie = table_own_game(names)
    page = table_new_phone(cookies=[cookie], locale=locale)
    keep_score(page, table_site, game_id)
    for size in (PHONE, NARROW):
        page.set_viewport_size(size)
        at = f"{locale} {size['width']} px"
        page.goto(f"{table_site.url}/games/{game_id}")
        look(page, "#sheet thead tr:first-child", f"game page sheet header, {at}")
        page.locator("details.first-king summary").tap()
        look(page, "details.first-king .options", f"first King's buttons, {at}")

        page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts=queens")
        for suit, seat in zip(("spades", "hearts", "diamonds", "clubs"), range(4)):
            page.locator(chip(f"q_{suit}_taker", seat)).tap()
        page.locator("#live-preview table").wait_for()
        # with doubling, the names stand once over the chips' columns, and over the bar's
        look(page, "#g-queens .heads", f"Queens' columns, {at}")
        shoot(page, f"names-{'-'.join(n[:3] for n in names[:1])}-{locale}-{size['width']}")

        page.goto(f"{table_site.url}/games/{game_id}/deals/new?contracts=trex")
        look(page, "fieldset.pick .chips", f"Trex order's chips, {at}")
        page.goto(f"{table_site.url}/games/{game_id}/thrown-in")
        look(page, "#f-by .chips", f"redeal's chips, {at}")
