"""What an Arabic page still says in English.

A page under Arabic may show Latin letters only where they are data, not the app's words:
player names (inside ``<bdi>``), anything marked ``lang="en"`` (the switch back to English),
scripts and styles, and a few tokens every table writes the same way (K♥, PDF, QR, PIN, JSON).
In plain text, where ``<bdi>`` cannot go (the page's ``<title>``), a name set apart by the
Unicode isolates that ``<bdi>`` stands for (FSI U+2068 ... PDI U+2069) counts as inside ``<bdi>``.
Everything else a player reads, visible text and the attributes a screen reader or the browser
shows (``title``, ``alt``, ``aria-label``, ``placeholder``, the value an ``<input>`` button
shows), must be Arabic.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, NavigableString, Tag

#: Latin words that stay as they are in Arabic text.
#: Q as in Q♠ Q♥ Q♦ Q♣: the queens as the cards and the rules write them, like the K of K♥
#: and the A of A♥ (a redeal's reason: "K♥ alone, or K♥ A♥").
KEPT = frozenset({"K", "PDF", "QR", "PIN", "JSON", "A4", "Letter", "SVG", "CSV", "Trex", "Q", "A"})
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+|[A-Za-z]")
_SKIP_TAGS = frozenset({"script", "style", "bdi", "code", "kbd", "samp", "svg", "template"})
_SHOWN_ATTRIBUTES = ("title", "alt", "aria-label", "placeholder")
_ISOLATED = re.compile("\u2068[^\u2068\u2069]*\u2069")


def _skipped(node: Tag | NavigableString) -> bool:
    for parent in ([node] if isinstance(node, Tag) else []) + list(node.parents):
        if not isinstance(parent, Tag):
            continue
        if (
            parent.name in _SKIP_TAGS
            or parent.get("lang", "").startswith("en")
            or parent.has_attr("data-name")
            or parent.has_attr("hidden")
        ):
            return True
    return False


def without_isolated(text: str) -> str:
    """*text* without what it isolates (``\u2068…\u2069``: the names in a text to share)."""
    return _ISOLATED.sub(" ", text)


def latin_words(text: str) -> list[str]:
    """The words of *text* in Latin letters, but those kept in every language and names."""
    return [w for w in _WORD.findall(without_isolated(text)) if w not in KEPT]


def english_left(page: BeautifulSoup | str, also_kept: tuple[str, ...] = ()) -> list[str]:
    """The pieces of *page* a player would read that are still in English (empty when none).

    *also_kept* names data shown on this page that is not a name in ``<bdi>`` (a title the
    table typed, say); pieces made only of those words are not counted.
    """
    if isinstance(page, str):
        page = BeautifulSoup(page, "html.parser")
    kept = set(also_kept)
    left: list[str] = []
    for text in page.find_all(string=True):
        if text.__class__.__name__ in ("Comment", "Doctype", "Declaration"):
            continue
        if _skipped(text):
            continue
        words = [w for w in latin_words(text) if w not in kept]
        if words:
            left.append(" ".join(text.split()))
    for element in page.find_all(True):
        if _skipped(element):
            continue
        values = [element.get(a) for a in _SHOWN_ATTRIBUTES]
        if element.name == "input" and element.get("type") in ("submit", "button"):
            values.append(element.get("value"))  # a <button>'s value is sent, never shown
        for value in values:
            if isinstance(value, str) and [w for w in latin_words(value) if w not in kept]:
                left.append(f"<{element.name}> {value}")
    return left
