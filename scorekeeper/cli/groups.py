"""``scorekeeper groups``: the groups of a box that hosts many (``serve --groups``), for an
operator, a script or a test to drive without a browser: start one, list them, print or rotate
a group's join and admin links, print or rotate the operator's invitation link, delete one with
its file, move one to another box (pack it here, adopt it there), print the proxy's routes to
this box's groups, and bring a lost box's groups back from their Litestream replica
(``store.boxes``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import EXIT_NOT_FOUND, add_instance_option, fail, groups_host, link_prefix, plural


def _link(args: argparse.Namespace, group: str, name: str, *, rotate: bool = False) -> str:
    from ..store import keys
    from ..store.db import connect

    path = groups_host().file_of(group)
    assert path is not None
    db = connect(path)
    try:
        key = keys.rotate_install_key(db, name) if rotate else keys.install_key(db, name)
    finally:
        db.close()
    args.group = group
    return f"{link_prefix(args)}/{name}/{key}"


def cmd_create(args: argparse.Namespace) -> int:
    from ..store.refused import Refused

    try:
        group = groups_host().create(args.name, args.lang)
    except Refused as exc:
        return fail([str(exc)])
    print(group.id)
    print(_link(args, group.id, "join"))
    return 0


def size_text(count: int) -> str:
    """*count* bytes for a person: ``812 B``, ``96.0 KB``, ``12.4 MB``, ``1.2 GB``."""
    size = float(count)
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{count} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def cmd_list(args: argparse.Namespace) -> int:
    from ..store.groups import activity

    rows = []
    for g in groups_host().groups():
        seen = activity(g)
        rows.append(
            {
                "id": g.id,
                "name": g.name,
                "lang": g.lang,
                "created_at": g.created_at,
                "bytes": seen.bytes,
                "games": seen.games,
                "last_activity": seen.last_activity,
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    if rows:
        print("id          started     lang  size      games  last activity     name")
    for row in rows:
        print(
            f"{row['id']}  {row['created_at'][:10]}  {row['lang']:<4}  "
            f"{size_text(row['bytes']):>8}  {row['games']:>5}  "
            f"{row['last_activity'][:16].replace('T', ' '):<16}  {row['name']}"
        )
    if not rows:
        print("No groups yet: `scorekeeper groups create NAME` starts one.")
    return 0


def _found(group: str) -> bool:
    if groups_host().file_of(group) is None:
        print(f"There is no group {group}.", file=sys.stderr)
        return False
    return True


#: What a new link of each kind leaves behind, said after it is made.
ROTATED = {
    "join": "The old join link lets no new phone in; the members keep their membership.",
    "admin": "The old admin link no longer works: the phones that opened it lose its rights.",
}


def cmd_link(args: argparse.Namespace) -> int:
    """``groups join-link`` and ``groups admin-link``."""
    if not _found(args.id):
        return EXIT_NOT_FOUND
    print(_link(args, args.id, args.kind, rotate=args.rotate))
    if args.rotate:
        print(ROTATED[args.kind])
    return 0


def cmd_invite_link(args: argparse.Namespace) -> int:
    """``groups invite-link``: the operator's link that lets a phone start a group when
    starting is by invitation (``serve --groups=invite``). ``serve`` names this command
    rather than print the link into a log."""
    key = groups_host().invite_key(rotate=args.rotate)
    args.group = None
    print(f"{link_prefix(args)}/invite/{key}")
    if args.rotate:
        print("The old invitation link no longer works.")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    if not args.yes:
        return fail(
            [
                "Deleting a group deletes all its games: add --yes to say so (export "
                "them first with `scorekeeper export --all --group ID`)."
            ]
        )
    if not groups_host().delete(args.id):
        print(f"There is no group {args.id}.", file=sys.stderr)
        return EXIT_NOT_FOUND
    print(f"Deleted the group {args.id} and its file.")
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    """``groups pack ID --out FILE``: the whole group in one file, also while the box serves."""
    from ..store.backup import BackupError
    from ..store.moving import pack

    try:
        packed = pack(groups_host(), args.id, args.out)
    except BackupError as exc:
        if str(exc).startswith("There is no group"):
            print(exc, file=sys.stderr)
            return EXIT_NOT_FOUND
        return fail([str(exc)])
    print(
        f"Packed the group {packed.group.id} ({plural(packed.games, 'game')}) into {packed.path}"
        " (owner only: it holds the group's links)."
    )
    print(f"On the other box: scorekeeper groups adopt {packed.path.name}")
    return 0


def cmd_adopt(args: argparse.Namespace) -> int:
    """``groups adopt FILE``: the packed group registered on this box under its own id."""
    from ..store.backup import BackupError
    from ..store.moving import adopt

    try:
        group, games, left_out = adopt(groups_host(), args.file)
    except BackupError as exc:
        return fail([*str(exc).splitlines(), "Nothing was changed."])
    if left_out:
        print(f"Left behind, not being a scorekeeper's: {', '.join(left_out)}")
    print(f"Adopted the group {group.id} ({group.name}, {plural(games, 'game')}).")
    print(
        "Route /g/" + group.id + "/ to this box (scorekeeper groups routes --upstream "
        "HOST:PORT, on both boxes), then delete it on the old one "
        f"(scorekeeper groups delete {group.id} --yes)."
    )
    return 0


def cmd_routes(args: argparse.Namespace) -> int:
    """``groups routes``: this box's groups as a Caddyfile fragment, to *upstream*."""
    from ..store.boxes import caddy_routes, upstream_problem

    problem = upstream_problem(args.upstream)
    if problem:
        return fail([problem])
    print(caddy_routes((g.id for g in groups_host().groups()), args.upstream), end="")
    return 0


def cmd_recover(args: argparse.Namespace) -> int:
    """``groups recover``: every group of a lost box, from its replica, onto this box."""
    from ..store.boxes import RecoverError, caddy_routes, recover, upstream_problem

    if args.upstream and (problem := upstream_problem(args.upstream)):
        return fail([problem])
    if args.jobs < 1:
        return fail(["--jobs is at least 1."])
    host = groups_host()
    try:
        done = recover(
            host,
            args.source,
            endpoint=args.endpoint,
            region=args.region,
            jobs=args.jobs,
            said=lambda line: print(line, file=sys.stderr) if args.verbose else None,
        )
    except RecoverError as exc:
        return fail([str(exc)])
    for line in done.problems:
        print(line, file=sys.stderr)
    print(
        f"Recovered {len(done.recovered)} of the {done.listed} groups the replica lists in "
        f"{done.seconds:.1f} s.",
        file=sys.stderr,
    )
    if args.upstream:
        print(caddy_routes((g.id for g in host.groups()), args.upstream), end="")
    else:
        print(
            "Now send them here: `scorekeeper groups routes --upstream HOST:PORT`.",
            file=sys.stderr,
        )
    return 1 if done.problems else 0


def add_commands(sub: Any) -> None:
    groups = sub.add_parser("groups", help="the groups of a box that hosts many (serve --groups)")
    each = groups.add_subparsers(dest="groups_command", required=True)
    create = each.add_parser("create", help="start a group; print its id, then its join link")
    create.add_argument("name", help="the group's name (at most 80 characters)")
    create.add_argument(
        "--lang", choices=("en", "ar"), default="en", help="the group's language (default en)"
    )
    create.set_defaults(func=cmd_create)
    listing = each.add_parser(
        "list",
        help="every group: id, when started, language, size on disk, games, last activity, name",
    )
    listing.add_argument("--json", action="store_true", help="as a JSON list")
    listing.set_defaults(func=cmd_list)
    for what in ROTATED:
        command = each.add_parser(f"{what}-link", help=f"print the group's {what} link")
        command.add_argument("id", help="the group's id")
        command.add_argument(
            "--rotate", action="store_true", help="make a new link; the old one stops working"
        )
        command.set_defaults(func=cmd_link, kind=what)
    invite = each.add_parser(
        "invite-link", help="print the operator's invitation link (serve --groups=invite)"
    )
    invite.add_argument(
        "--rotate", action="store_true", help="make a new link; the old one stops working"
    )
    invite.set_defaults(func=cmd_invite_link)
    delete = each.add_parser("delete", help="delete a group and its file")
    delete.add_argument("id", help="the group's id")
    delete.add_argument("--yes", action="store_true", help="yes, delete it and all its games")
    delete.set_defaults(func=cmd_delete)
    packing = each.add_parser(
        "pack",
        help="write the whole group into one file (owner only), also while the box serves, "
        "for `groups adopt` on another box",
    )
    packing.add_argument("id", help="the group's id")
    packing.add_argument("--out", metavar="FILE", required=True, help="the file to write")
    packing.set_defaults(func=cmd_pack)
    adopting = each.add_parser(
        "adopt",
        help="register a packed group on this box under its own id (refused when that id "
        "is here already), every row checked as restore checks it",
    )
    adopting.add_argument("file", help="the file `groups pack` wrote")
    adopting.set_defaults(func=cmd_adopt)
    routes = each.add_parser(
        "routes", help="print a Caddyfile fragment that sends this box's groups to HOST:PORT"
    )
    routes.add_argument(
        "--upstream", required=True, metavar="HOST:PORT", help="where the proxy reaches this box"
    )
    routes.set_defaults(func=cmd_routes)
    back = each.add_parser(
        "recover",
        help="restore every group of a lost box from its Litestream replica onto this box",
    )
    back.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="URL",
        help="the lost box's replica: s3://BUCKET/PATH (its LITESTREAM_REPLICA_URL)",
    )
    back.add_argument("--endpoint", metavar="URL", help="an S3-compatible service's address")
    back.add_argument("--region", help="the bucket's region, if the service needs one")
    back.add_argument(
        "--jobs", type=int, default=8, metavar="N", help="groups restored at once (default 8)"
    )
    back.add_argument(
        "--upstream", metavar="HOST:PORT", help="then print this box's routes to HOST:PORT"
    )
    back.add_argument("--verbose", action="store_true", help="a line per group recovered")
    back.set_defaults(func=cmd_recover)
    for command in each.choices.values():
        add_instance_option(command)
    for command in (create, each.choices["join-link"], each.choices["admin-link"], invite):
        command.add_argument(
            "--public-url",
            metavar="URL",
            help="print the link whole, from this address (default: $SCOREKEEPER_PUBLIC_URL)",
        )
