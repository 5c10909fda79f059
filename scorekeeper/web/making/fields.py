"""Form fields for taps: one choice among a few options, drawn as big radio buttons or chips."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from flask_babel import lazy_gettext
from wtforms import Field
from wtforms.validators import ValidationError

NOT_A_CHOICE = lazy_gettext("That is not one of the choices.")
#: The most digits a whole number from a form may have: SQLite's integers hold 18 of them.
INT_DIGITS = 18


def form_int(value: object, *, digits: int = INT_DIGITS) -> int | None:
    """A whole number as a form or an address sends it, else None: the one reading of a number
    the web wing does. Only ASCII digits, at most *digits* of them: not "²" or "١" (which
    ``str.isdigit`` accepts and ``int`` refuses or reads), not " 1", "-1", "1.5" or a number
    too big for the database."""
    if isinstance(value, str) and 0 < len(value) <= digits and value.isascii() and value.isdigit():
        return int(value)
    return None


def whole_number(value: str) -> int:
    """``form_int`` for a field's ``coerce``: a ValueError where there is no number."""
    number = form_int(value)
    if number is None:
        raise ValueError(value)
    return number


class PickField(Field):
    """One value among ``options`` (pairs of value and label), or nothing.

    Leaving it empty is not an error here: whether the value is needed is the engine's call, and
    its message is the one shown. A value that is not one of the options is an error.
    """

    def __init__(
        self,
        label: str | None = None,
        validators: Sequence[Any] | None = None,
        *,
        options: Sequence[tuple[Any, str]] = (),
        coerce: Callable[[str], Any] = whole_number,
        none_label: str | None = None,
        accepted: Sequence[Any] = (),
        **kwargs: Any,
    ):
        super().__init__(label, validators, **kwargs)
        self.options = list(options)
        self.coerce = coerce
        self.none_label = none_label  # when set, an explicit "nothing" option is offered first
        #: values taken though not offered, for the engine to say why they cannot be
        self.accepted = frozenset(accepted)

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or valuelist[0] == "":
            self.data = None
            return
        try:
            self.data = self.coerce(valuelist[0])
        except (TypeError, ValueError):
            self.data = None
            raise ValueError(str(NOT_A_CHOICE)) from None

    def pre_validate(self, form: Any) -> None:
        if (
            self.data is not None
            and self.data not in self.accepted
            and self.data not in {value for value, _ in self.options}
        ):
            raise ValidationError(str(NOT_A_CHOICE))

    def _value(self) -> str:
        return "" if self.data is None else str(self.data)

    def choices(self) -> list[tuple[str, str, bool]]:
        """(value as sent, label, checked) for each option, the "nothing" option first."""
        out = []
        if self.none_label is not None:
            out.append(("", self.none_label, self.data is None))
        out += [(str(value), label, value == self.data) for value, label in self.options]
        return out
