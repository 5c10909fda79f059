"""Issue 42: the commands that read the database open it one way, and the printed sheets are
written one way; what a player sees stays the same."""

from __future__ import annotations

import pytest

from scorekeeper.cli import main


@pytest.mark.parametrize(
    "command",
    [
        ["season", "--from", "2026-01-01", "--to", "2026-12-31"],
        ["ratings"],
        ["export", "--all"],
        ["links", "1"],
        ["admin-link"],
        ["join-link"],
    ],
)
def test_issue42_dupes__a_command_refuses_a_missing_database_and_creates_none(
    tmp_path, capsys, command
):
    missing = tmp_path / "none.sqlite3"
    assert main([*command, "--db", str(missing)]) == 2
    assert capsys.readouterr().err == f"There is no database at {missing}.\n"
    assert not missing.exists()


def test_issue42_dupes__a_sheet_that_cannot_be_written_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "no folder" / "sheet.pdf"
    assert main(["blank-sheet", "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"Cannot write {out}: ")
    assert main(["blank-sheet", "-o", str(tmp_path / "sheet.pdf")]) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert "Wrote " in capsys.readouterr().err
