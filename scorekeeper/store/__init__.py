"""The store: the SQLite database through sqlite-utils."""
