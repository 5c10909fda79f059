"""Trex Scorekeeper: a rules engine and a table-side scorekeeper for the card game Trex."""

#: The newest release's in CHANGELOG.md (``## [0.2.0] - 2026-12-04``): a release changes both.
__version__ = "0.2.0"
