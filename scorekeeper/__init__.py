"""Trex Scorekeeper: a rules engine and a table-side scorekeeper for the card game Trex."""

__version__ = "0.1.0"
