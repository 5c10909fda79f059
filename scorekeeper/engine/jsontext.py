"""JSON text indented for a reader, with chosen values written compact, as they came.

A game file's keys that the format does not name are kept as given, nested however deep. Indented,
every level of that nesting would be a line of its own, indented by its depth: a 61 KB file whose
kept keys were nested 900 deep was written as 55 MB. So the format's own structure is indented,
and each kept value is written on one line, compact, never much bigger than it came.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any


class IndentedText:
    """Hold values to be written compact, then write a document holding them."""

    def __init__(self) -> None:
        self._held: list[Any] = []
        # A NUL is always escaped in JSON text, and the mark is new each time: no string of the
        # document can be mistaken for a held value.
        self._mark = "\0" + secrets.token_hex(8) + ":"

    def compact(self, value: Any) -> str:
        """A stand-in for *value*, to put in the document in its place."""
        self._held.append(value)
        return f"{self._mark}{len(self._held) - 1}"

    def dumps(self, doc: Any, *, indent: int = 2) -> str:
        text = json.dumps(doc, ensure_ascii=False, indent=indent)
        if not self._held:
            return text
        stand_in = re.compile('"%s(\\d+)"' % re.escape(json.dumps(self._mark)[1:-1]))
        return stand_in.sub(
            lambda found: json.dumps(
                self._held[int(found[1])], ensure_ascii=False, separators=(",", ":")
            ),
            text,
        )
