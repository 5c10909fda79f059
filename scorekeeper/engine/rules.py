"""House rules: one frozen settings object holding every variant of RULES.md."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from .contracts import ALL_CONTRACTS, Contract
from .errors import RulesError
from .messages import RULES_TEXT

SELF_CAPTURE = ("single", "leader-credit")
COMBINING = ("none", "complex", "combination")
TEAM_RESULT = ("sum", "worst-loses")
ROTATION = ("right", "table-picks")
SWEEP_TRICKS = range(7, 14)  # a sweep in Collections is "at least N tricks" (10 or 13 in the seeds)


@dataclass(frozen=True)
class HouseRules:
    """The settings of one game. Field names are the keys of the file format's ``rules``."""

    doubling: bool = True
    self_capture: str = "single"
    swap_diamonds_collections: bool = False
    combining: str = "none"
    partnership: bool = False
    team_result: str = "sum"
    rotation: str = "right"
    fixed_order: tuple[Contract, ...] | None = None
    sweep_replay: int | None = None  # N tricks in Collections that make a sweep, or None (off)
    no_heart_lead: bool = False
    must_discard_penalty: bool = False
    kh_redeal_any_doubleton: bool = False
    reverse_scores: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> HouseRules:
        """Build from the file format's ``rules`` object; unknown keys or values raise."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules_not_object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError("rule_unknown",
                             {"key": unknown[0], "known": ", ".join(sorted(known))})
        values: dict[str, Any] = {}
        for key, value in data.items():
            values[key] = _PARSERS[key](key, value)
        return cls(**values)

    def to_dict(self, *, only_changed: bool = False) -> dict[str, Any]:
        """The file format's ``rules`` object."""
        out: dict[str, Any] = {}
        default = HouseRules()
        for f in fields(self):
            value = getattr(self, f.name)
            if only_changed and value == getattr(default, f.name):
                continue
            if f.name == "fixed_order" and value is not None:
                value = [c.value for c in value]
            elif f.name == "sweep_replay" and value is not None:
                value = {"collections_tricks": value}
            out[f.name] = value
        return out

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the defaults."""
        return self.to_dict(only_changed=True)

    def summary_parts(self) -> list[tuple[str, dict[str, Any]]]:
        """The description of the house rules as (code, params) parts, one per changed setting.

        The English template of each code is in :data:`~.messages.RULES_TEXT`; a parameter
        named ``contracts`` is a tuple of :class:`Contract`.
        """
        changed = self.changed()
        if not changed:
            return [("standard", {})]
        return [_describe(k, v) for k, v in changed.items()]

    def summary(self) -> str:
        """A one-line English description of the house rules."""
        return "; ".join(_english(code, params) for code, params in self.summary_parts())


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError("rule_not_bool", {"key": key, "value": value})
    return value


def _choice(options: tuple[str, ...]):
    def parse(key: str, value: Any) -> str:
        if value not in options:
            allowed = ", ".join(repr(o) for o in options)
            raise RulesError("rule_bad_choice", {"key": key, "value": value, "allowed": allowed})
        return value

    return parse


def _fixed_order(key: str, value: Any) -> tuple[Contract, ...] | None:
    if value is None:
        return None
    names = [c.value for c in ALL_CONTRACTS]
    if (not isinstance(value, (list, tuple)) or sorted(map(str, value)) != sorted(names)
            or len(value) != 5):
        raise RulesError("rule_fixed_order", {"names": ", ".join(names)})
    return tuple(Contract(v) for v in value)


def _sweep(key: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, Mapping) and set(value) == {"collections_tricks"}:
        n = value["collections_tricks"]
        if isinstance(n, int) and not isinstance(n, bool) and n in SWEEP_TRICKS:
            return n
    raise RulesError("rule_sweep", {"low": SWEEP_TRICKS.start, "high": SWEEP_TRICKS.stop - 1})


_PARSERS = {
    "doubling": _bool,
    "self_capture": _choice(SELF_CAPTURE),
    "swap_diamonds_collections": _bool,
    "combining": _choice(COMBINING),
    "partnership": _bool,
    "team_result": _choice(TEAM_RESULT),
    "rotation": _choice(ROTATION),
    "fixed_order": _fixed_order,
    "sweep_replay": _sweep,
    "no_heart_lead": _bool,
    "must_discard_penalty": _bool,
    "kh_redeal_any_doubleton": _bool,
    "reverse_scores": _bool,
}

_DESCRIPTIONS = {
    "doubling": {False: "doubling_off"},
    "self_capture": {"leader-credit": "leader_credit"},
    "swap_diamonds_collections": {True: "swap_diamonds_collections"},
    "combining": {"complex": "complex", "combination": "combination"},
    "partnership": {True: "partnership"},
    "team_result": {"worst-loses": "worst_loses"},
    "rotation": {"table-picks": "table_picks"},
    "no_heart_lead": {True: "no_heart_lead"},
    "must_discard_penalty": {True: "must_discard_penalty"},
    "kh_redeal_any_doubleton": {True: "kh_redeal_any_doubleton"},
    "reverse_scores": {True: "reverse_scores"},
}


def _describe(key: str, value: Any) -> tuple[str, dict[str, Any]]:
    if key == "fixed_order":
        return "fixed_order", {"contracts": tuple(Contract(v) for v in value)}
    if key == "sweep_replay":
        return "sweep_replay", {"tricks": value["collections_tricks"]}
    code = _DESCRIPTIONS[key].get(value)
    return (code, {}) if code else ("other", {"key": key, "value": value})


def _english(code: str, params: Mapping[str, Any]) -> str:
    values = {k: ", ".join(c.label for c in v) if k == "contracts" else v
              for k, v in params.items()}
    return RULES_TEXT[code].format(**values)


#: Named presets offered when a game starts.
PRESETS: dict[str, HouseRules] = {
    "standard": HouseRules(),
    "complex": HouseRules(combining="complex"),
    "partnership": HouseRules(partnership=True),
}
