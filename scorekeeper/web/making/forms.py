"""The new-game form: names, seats, house rules, who holds the 7♥. Validation is the engine's."""

from __future__ import annotations

import datetime as dt
from typing import Any, Mapping

from flask_babel import format_date, gettext, lazy_gettext
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import ValidationError

from ...engine import ALL_CONTRACTS, PRESETS, HouseRules, InvalidResult, RulesError
from ...engine import read_game
from ...engine.gamefile import NAME_LIMIT, TITLE_LIMIT
from ...engine.rules import RULES, SWEEP_TRICKS
from .fields import PickField, whole_number
from .i18n import num
from ..access.rights import pin_digits
from .messages import contract_label, problem_text
from ...store.keys import PIN_DIGITS, pin_fits
from ...store.storage import clean_name, game_document

SEATS = range(4)
PRESET_LABELS = {
    "standard": lazy_gettext("Standard"),
    "complex": lazy_gettext("Complex"),
    "partnership": lazy_gettext("Partnership"),
    "custom": lazy_gettext("Custom"),
}
LIMITS = {
    "name": NAME_LIMIT,
    "title": TITLE_LIMIT,  # the engine's, for maxlength
    "pin": PIN_DIGITS[1],
}
DEFAULT_FIXED_ORDER = ("trex", "queens", "king_of_hearts", "diamonds", "collections")


class LazyText(LazyString):
    """Text said when the page is drawn, and always escaped there. Flask-Babel's LazyString
    calls itself markup (``__html__``), which is right for the catalog's own words but not for
    what a phone typed, such as the table's words for the contracts."""

    def __html__(self) -> Markup:
        return escape(str(self))


CONTRACT_OPTIONS = [(c.value, LazyText(contract_label, c)) for c in ALL_CONTRACTS]


def player_label(seat: int) -> LazyString:
    """ "Player 1" .. "Player 4", in the language of the page that shows it."""
    return LazyString(lambda: gettext("Player %(number)s", number=num(seat + 1)))


def _said(msgid: str) -> LazyString:
    """A house rule's words (the engine's msgid), said in the page's language."""
    return lazy_gettext(msgid)


def tonight() -> dt.date:
    return dt.date.today()


def _setting_fields() -> dict[str, Any]:
    """The inputs of every house rule, from its declaration (``engine.rules.RULES``): a
    checkbox for a yes-or-no rule, a choice among its values, and for the fixed order and the
    sweeps a checkbox with the inputs of their value."""
    fields: dict[str, Any] = {}
    for rule in RULES:
        if rule.kind == "bool":
            fields[rule.name] = BooleanField(_said(rule.label), default=rule.default)
        elif rule.kind == "choice":
            fields[rule.name] = PickField(
                _said(rule.label),
                options=[(v, _said(words)) for v, words in rule.choices],
                coerce=str,
                default=rule.default,
            )
        elif rule.kind == "order":
            fields["fixed_order_on"] = BooleanField(_said(rule.label))
            for place in range(1, 6):
                fields[f"fixed_{place}"] = PickField(
                    lazy_gettext("Contract %(number)s", number=place),
                    options=CONTRACT_OPTIONS,
                    coerce=str,
                    default=DEFAULT_FIXED_ORDER[place - 1],
                )
        elif rule.kind == "sweep":
            fields["sweep_on"] = BooleanField(_said(rule.label))
            fields["sweep_tricks"] = PickField(
                lazy_gettext("Tricks that make a sweep in Collections"),
                coerce=whole_number,
                options=[(n, str(n)) for n in SWEEP_TRICKS],
                default=13,
            )
    return fields


#: The settings fields, made from the tables above; the new-game form adds the rest.
_SettingsForm: type[FlaskForm] = type("_SettingsForm", (FlaskForm,), _setting_fields())


class RulesForm(_SettingsForm):  # type: ignore[misc, valid-type]
    """A form that sets a game's house rules (New game, New club night): a preset, or under
    "Custom" every setting; the engine checks them. The subclass gives the ``preset`` field."""

    rules: HouseRules | None = None

    def rules_dict(self) -> dict[str, Any]:
        """The rules asked for: a preset's, or under "Custom" the settings below it."""
        if self.preset.data in PRESETS:
            return PRESETS[self.preset.data].to_dict()
        out: dict[str, Any] = {}
        for rule in RULES:
            if rule.kind == "bool":
                out[rule.name] = bool(self[rule.name].data)
            elif rule.kind == "choice" and self[rule.name].data is not None:
                out[rule.name] = self[rule.name].data
            elif rule.kind == "order":
                out[rule.name] = (
                    [self[f"fixed_{p}"].data for p in range(1, 6)]
                    if self.fixed_order_on.data
                    else None
                )
            elif rule.kind == "sweep":
                out[rule.name] = (
                    {"collections_tricks": self.sweep_tricks.data} if self.sweep_on.data else None
                )
        return out

    def check_rules(self) -> bool:
        """The rules asked for, checked by the engine into ``self.rules``; or False, with the
        problem under the house rules."""
        if self.preset.data is None:
            self.preset.errors.append(gettext("Choose the house rules."))
            return False
        try:
            self.rules = HouseRules.from_dict(self.rules_dict())
        except RulesError as exc:
            self.preset.errors.append(problem_text(exc.problem()))
            return False
        return True


class NewGameForm(RulesForm):
    title = StringField(lazy_gettext("Title"))
    played_on = StringField(lazy_gettext("Date"))
    player_0 = StringField(player_label(0))
    player_1 = StringField(player_label(1))
    player_2 = StringField(player_label(2))
    player_3 = StringField(player_label(3))
    first_king = PickField(
        lazy_gettext("Who holds the 7♥?"), options=[(s, player_label(s)) for s in SEATS]
    )
    preset = PickField(
        lazy_gettext("House rules"),
        coerce=str,
        default="standard",
        options=list(PRESET_LABELS.items()),
    )
    pin = StringField(lazy_gettext("Table PIN (optional)"))
    confirm = BooleanField(lazy_gettext("The other side confirms each deal"), default=False)
    token = HiddenField()  # one-time: the same form sent twice starts one game

    def validate_pin(self, field: StringField) -> None:
        field.data = (field.data or "").strip()
        if field.data and not pin_fits(field.data, pin_digits()):
            raise ValidationError(
                gettext(
                    "A table PIN is %(low)s to %(high)s digits, or leave it empty.",
                    low=num(pin_digits()),
                    high=num(PIN_DIGITS[1]),
                )
            )

    def validate(self, extra_validators: Any = None) -> bool:
        """WTForms checks the shapes; the engine checks the game as a whole."""
        if not super().validate(extra_validators) or not self.check_rules():
            return False
        doc = game_document(
            (self.title.data or "").strip(),
            (self.played_on.data or "").strip() or None,
            self.names(),
            self.rules.to_dict(),
            self.first_king.data,
        )
        try:
            read_game(doc)
        except InvalidResult as exc:
            targets = {
                "title": self.title,
                "played_on": self.played_on,
                "first_king": self.first_king,
                "rules": self.preset,
                **{f"players.{s}": self[f"player_{s}"] for s in SEATS},
            }
            for problem in exc.problems:
                target = targets.get(problem.field or "")
                errors = target.errors if target is not None else self.form_errors
                errors.append(problem_text(problem))
            return False
        return True

    def names(self) -> list[str]:
        return [clean_name(self[f"player_{s}"].data or "") for s in SEATS]


def preset_name(rules: HouseRules) -> str:
    """The preset these rules are, or "custom"."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def settings_data(rules: HouseRules) -> dict[str, Any]:
    """Form data showing *rules* in the settings fields."""
    data: dict[str, Any] = {
        rule.name: getattr(rules, rule.name) for rule in RULES if rule.kind in ("bool", "choice")
    }
    data["fixed_order_on"] = rules.fixed_order is not None
    order = [c.value for c in rules.fixed_order] if rules.fixed_order else DEFAULT_FIXED_ORDER
    data.update({f"fixed_{p}": order[p - 1] for p in range(1, 6)})
    data["sweep_on"] = rules.sweep_replay is not None
    data["sweep_tricks"] = rules.sweep_replay or 13
    data["preset"] = preset_name(rules)
    return data


def preset_settings() -> dict[str, dict[str, Any]]:
    """What each preset puts in the settings fields (for the page's script)."""
    return {name: settings_data(rules) for name, rules in PRESETS.items()}


def night_title(day: dt.date, earlier: int = 0) -> str:
    """A game's first title: "Tuesday night", and "Tuesday night, game 2" when *earlier* games
    of that night are stored already, so that the games of one night are told apart."""
    title = gettext("%(day)s night", day=format_date(day, "EEEE"))
    if earlier:
        title = gettext("%(title)s, game %(number)s", title=title, number=num(earlier + 1))
    return title


def new_game_data(
    players: Mapping[int, str] | None = None, rules: HouseRules | None = None, *, earlier: int = 0
) -> dict[str, Any]:
    """The new-game form's first values: tonight, its title (*earlier*: the games of tonight
    stored already), and the players and rules given."""
    today = tonight()
    data = {
        "title": night_title(today, earlier),
        "played_on": today.isoformat(),
        **settings_data(rules or HouseRules()),
    }
    for seat, name in (players or {}).items():
        data[f"player_{seat}"] = name
    return data


class UndoForm(FlaskForm):
    """Undo one deal: names the deal's id and the version seen (by its number and its key), so
    a second send does nothing and a form kept from before another change undoes nothing."""

    deal_id = HiddenField()
    version = HiddenField()
    version_key = HiddenField()  # the key of that version, never given twice
