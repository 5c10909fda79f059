"""House rules: one frozen settings object holding every variant of RULES.md, each declared once.

A field of :class:`HouseRules` is a house rule's whole declaration: its name and type are the
field's; :func:`flag`, :func:`choice` and :func:`setting` give its default, its allowed values
with their words on New game, the settings it needs or excludes, and its part of the rules line
(the one line the sheet, the game page and the rules pages print). :data:`RULES` holds the
declarations in order; the parser, the file format, the rules line, the New game and New club
night settings, their template and the game file's checks all read it. Words are English
msgids marked ``N_``, said by the wing that shows them, as :mod:`.messages` does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from .contracts import ALL_CONTRACTS, Contract
from .errors import RulesError
from .messages import N_

SWEEP_TRICKS = range(7, 14)  # a sweep in Collections is "at least N tricks" (10 or 13 in the seeds)
KINDS = ("bool", "choice", "order", "sweep")  # how a rule is written in a file and on New game


@dataclass(frozen=True)
class Rule:
    """One house rule as declared on its :class:`HouseRules` field.

    *kind* says how it is written: ``bool`` (a checkbox), ``choice`` (one of *choices*, each
    with its words), ``order`` (null or the five contracts) or ``sweep`` (null or
    ``{"collections_tricks": N}``). *line* is its part of the rules line when it differs from
    the default: one msgid, or one per value (a choice). *needs* and *excludes* are other
    settings, as (name, value) pairs, that must hold, or must not, when this one is not at its
    default."""

    kind: str
    default: Any
    label: str
    line: str | Mapping[Any, str]
    choices: tuple[tuple[Any, str], ...] = ()
    needs: tuple[tuple[str, Any], ...] = ()
    excludes: tuple[tuple[str, Any], ...] = ()
    name: str = ""

    @property
    def values(self) -> tuple[Any, ...]:
        """The values a choice allows."""
        return tuple(value for value, _words in self.choices)

    def parse(self, value: Any) -> Any:
        """The setting's value from the file format's ``rules`` object; a bad one raises."""
        return _PARSE[self.kind](self, value)

    def dump(self, value: Any) -> Any:
        """The setting's value as the file format writes it."""
        if self.kind == "order" and value is not None:
            return [c.value for c in value]
        if self.kind == "sweep" and value is not None:
            return {"collections_tricks": value}
        return value

    def part(self, value: Any) -> tuple[str, dict[str, Any]]:
        """Its part of the rules line for a changed *value*, as (code, params): the code is a
        key of :data:`RULES_TEXT`."""
        params: dict[str, Any] = {}
        if self.kind == "order":
            params = {"contracts": tuple(value)}
        elif self.kind == "sweep":
            params = {"tricks": value}
        if isinstance(self.line, str):
            return self.name, params
        if value in self.line:
            return _choice_code(value), params
        return "other", {"key": self.name, "value": value}

    def words(self) -> dict[str, str]:
        """Every msgid of the rule's part of the rules line, by code."""
        if isinstance(self.line, str):
            return {self.name: self.line}
        return {_choice_code(value): text for value, text in self.line.items()}


def _choice_code(value: Any) -> str:
    return str(value).replace("-", "_")


def _declare(
    kind: str, default: Any, label: str, line: str | Mapping[Any, str], **more: Any
) -> Any:
    return field(default=default, metadata={"rule": Rule(kind, default, label, line, **more)})


def flag(
    default: bool,
    label: str,
    line: str,
    *,
    needs: Mapping[str, Any] | None = None,
    excludes: Mapping[str, Any] | None = None,
) -> Any:
    """A yes-or-no house rule: *label* on New game, *line* in the rules line when changed."""
    return _declare(
        "bool",
        default,
        label,
        line,
        needs=tuple((needs or {}).items()),
        excludes=tuple((excludes or {}).items()),
    )


def choice(
    default: str,
    label: str,
    choices: Mapping[str, str],
    lines: Mapping[str, str],
) -> Any:
    """A house rule with a few values: *choices* their words on New game, *lines* their parts
    of the rules line."""
    return _declare("choice", default, label, lines, choices=tuple(choices.items()))


def setting(kind: str, label: str, line: str) -> Any:
    """A house rule off by default (null) with a value of its own (*kind* ``order`` or
    ``sweep``)."""
    return _declare(kind, None, label, line)


@dataclass(frozen=True)
class HouseRules:
    """The settings of one game. Field names are the keys of the file format's ``rules``; each
    field declares its rule (see the module's note)."""

    doubling: bool = flag(True, N_("Doubling of the K♥ and the queens"), N_("no doubling"))
    self_capture: str = choice(
        "single",
        N_("A doubled card taken by its own holder"),
        {
            "single": N_("Holder scores the card once"),
            "leader-credit": N_("Holder pays double, the player who led gets the credit"),
            "king-credit": N_("Holder pays double, the King gets the credit"),
        },
        {
            "leader-credit": N_("self-capture credits the leader"),
            "king-credit": N_("self-capture credits the King"),
        },
    )
    swap_diamonds_collections: bool = flag(
        False, N_("Diamonds −15 each, Collections −10 a trick"), N_("diamonds -15, collections -10")
    )
    combining: str = choice(
        "none",
        N_("Deals"),
        {
            "none": N_("One contract per deal"),
            "complex": N_("Complex: the four negatives in one deal"),
            "combination": N_("Combination: any negatives together"),
        },
        {"complex": N_("Complex"), "combination": N_("Combination")},
    )
    partnership: bool = flag(False, N_("Partnership: partners sit opposite"), N_("partnership"))
    team_result: str = choice(
        "sum",
        N_("Team result (partnership)"),
        {"sum": N_("The partners' sum"), "worst-loses": N_("The worst player's team loses")},
        {"worst-loses": N_("worst score loses")},
    )
    rotation: str = choice(
        "right",
        N_("Next King"),
        {
            "right": N_("The player to the right of the last King"),
            "table-picks": N_("The table picks anyone not yet King"),
        },
        {"table-picks": N_("table picks the next King")},
    )
    fixed_order: tuple[Contract, ...] | None = setting(
        "order", N_("Contracts in a fixed order"), N_("fixed order: {contracts}")
    )
    sweep_replay: int | None = setting(  # N tricks in Collections that make a sweep, or None
        "sweep",
        N_("Replay a sweep (13 diamonds, 4 queens, or many tricks)"),
        N_("sweeps replayed ({tricks}+ tricks)"),
    )
    no_heart_lead: bool = flag(False, N_("No heart lead in King of Hearts"), N_("no heart lead"))
    must_discard_penalty: bool = flag(
        False, N_("Must discard a penalty card when void"), N_("must discard penalty cards")
    )
    kh_redeal_any_doubleton: bool = flag(
        False, N_("K♥ redeal with any one other heart"), N_("K♥ redeal with any doubleton")
    )
    reverse_scores: bool = flag(False, N_("Reversed scores"), N_("reversed scores"))
    split_queens_replay: bool = flag(
        False,
        N_("Queens split two and two between the teams is replayed"),
        N_("queens split 2–2 replayed"),
        needs={"partnership": True},
    )
    no_redeal_requests: bool = flag(
        False, N_("No K♥ redeal request and no Trex throw-in"), N_("no redeal requests")
    )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> HouseRules:
        """Build from the file format's ``rules`` object; unknown keys or values, and
        settings that cannot go together, raise."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules_not_object")
        unknown = sorted(set(data) - set(RULE))
        if unknown:
            raise RulesError("rule_unknown", {"key": unknown[0], "known": ", ".join(sorted(RULE))})
        rules = cls(**{key: RULE[key].parse(value) for key, value in data.items()})
        rules.check_combinations()
        return rules

    def check_combinations(self) -> None:
        """Raise if a changed setting needs another one that is not set, or excludes one that is
        (each rule's ``needs`` and ``excludes``)."""
        for rule in RULES:
            if getattr(self, rule.name) == rule.default:
                continue
            for other, value in rule.needs:
                if getattr(self, other) != value:
                    raise RulesError("rule_needs", _pair(rule, other, value))
            for other, value in rule.excludes:
                if getattr(self, other) == value:
                    raise RulesError("rule_excludes", _pair(rule, other, value))

    def to_dict(self, *, only_changed: bool = False) -> dict[str, Any]:
        """The file format's ``rules`` object."""
        return {
            rule.name: rule.dump(getattr(self, rule.name))
            for rule in RULES
            if not (only_changed and getattr(self, rule.name) == rule.default)
        }

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the defaults."""
        return self.to_dict(only_changed=True)

    def summary_parts(self) -> list[tuple[str, dict[str, Any]]]:
        """The description of the house rules as (code, params) parts, one per changed setting.

        The English template of each code is in :data:`RULES_TEXT`; a parameter named
        ``contracts`` is a tuple of :class:`Contract`.
        """
        parts = [
            rule.part(getattr(self, rule.name))
            for rule in RULES
            if getattr(self, rule.name) != rule.default
        ]
        return parts or [("standard", {})]

    def summary(self) -> str:
        """A one-line English description of the house rules."""
        return "; ".join(_english(code, params) for code, params in self.summary_parts())


#: Every house rule's declaration, in the order of the settings (and of New game's inputs).
RULES: tuple[Rule, ...] = tuple(
    replace(f.metadata["rule"], name=f.name) for f in fields(HouseRules)
)
RULE: dict[str, Rule] = {rule.name: rule for rule in RULES}

#: The parts of the one-line description of house rules (``HouseRules.summary_parts``), by
#: code: each rule's words, and the line of the standard rules. A parameter holding contracts
#: is a tuple of them, joined as a list.
RULES_TEXT: dict[str, str] = {
    "standard": N_("Standard rules"),
    **{code: text for rule in RULES for code, text in rule.words().items()},
    "other": N_("{key}={value}"),
}
if len(RULES_TEXT) != 2 + sum(len(rule.words()) for rule in RULES):
    raise RuntimeError("two house rules' lines share a code")  # a declaration to put right

# Kept for the names other modules and files know.
SELF_CAPTURE = RULE["self_capture"].values
COMBINING = RULE["combining"].values
TEAM_RESULT = RULE["team_result"].values
ROTATION = RULE["rotation"].values


def _bool(rule: Rule, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError("rule_not_bool", {"key": rule.name, "value": value})
    return value


def _choice(rule: Rule, value: Any) -> str:
    if value not in rule.values:
        allowed = ", ".join(repr(o) for o in rule.values)
        raise RulesError("rule_bad_choice", {"key": rule.name, "value": value, "allowed": allowed})
    return value


def _fixed_order(rule: Rule, value: Any) -> tuple[Contract, ...] | None:
    if value is None:
        return None
    names = [c.value for c in ALL_CONTRACTS]
    if (
        not isinstance(value, (list, tuple))
        or sorted(map(str, value)) != sorted(names)
        or len(value) != 5
    ):
        raise RulesError("rule_fixed_order", {"names": ", ".join(names)})
    return tuple(Contract(v) for v in value)


def _sweep(rule: Rule, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, Mapping) and set(value) == {"collections_tricks"}:
        n = value["collections_tricks"]
        if isinstance(n, int) and not isinstance(n, bool) and n in SWEEP_TRICKS:
            return n
    raise RulesError("rule_sweep", {"low": SWEEP_TRICKS.start, "high": SWEEP_TRICKS.stop - 1})


_PARSE = {"bool": _bool, "choice": _choice, "order": _fixed_order, "sweep": _sweep}


def _pair(rule: Rule, other: str, value: Any) -> dict[str, Any]:
    return {"key": rule.name, "other": other, "value": json.dumps(RULE[other].dump(value))}


def _english(code: str, params: Mapping[str, Any]) -> str:
    values = {
        k: ", ".join(c.label for c in v) if k == "contracts" else v for k, v in params.items()
    }
    return RULES_TEXT[code].format(**values)


#: Named presets offered when a game starts.
PRESETS: dict[str, HouseRules] = {
    "standard": HouseRules(),
    "complex": HouseRules(combining="complex"),
    "partnership": HouseRules(partnership=True),
}
