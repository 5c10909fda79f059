#!/bin/sh
# Bring an instance folder back from its Litestream replica (deploy/litestream.yml or
# deploy/litestream-groups.yml), with the server stopped:
#
#     deploy/litestream-restore.sh                 everything: the one database, or on a box of
#                                                  many groups the register and every group in it
#     deploy/litestream-restore.sh ID [ID ...]     only these groups of a box of many groups
#     deploy/litestream-restore.sh --if-empty      everything, only when the instance folder has
#                                                  no database yet (a new box taking over)
#
# It reads SCOREKEEPER_INSTANCE, LITESTREAM_REPLICA_URL, LITESTREAM_S3_ENDPOINT and
# LITESTREAM_S3_REGION as the configuration does. A file that is already there is never
# overwritten: move it aside first. The secret key is not a database: put back the copy you
# kept (docs/hosting.md "Backed up and restored").
set -eu
umask 077  # the databases hold the games' edit keys: owner only, as the app makes them
instance=${SCOREKEEPER_INSTANCE:?set SCOREKEEPER_INSTANCE to the instance folder}
root=${LITESTREAM_REPLICA_URL:?set LITESTREAM_REPLICA_URL to the replica, e.g. s3://bucket/trex}
litestream=${LITESTREAM:-litestream}
python=${PYTHON:-python3}
query=""
if [ -n "${LITESTREAM_S3_ENDPOINT:-}" ]; then query="?endpoint=$LITESTREAM_S3_ENDPOINT"; fi
if [ -n "${LITESTREAM_S3_REGION:-}" ]; then
  query="${query:-?}${query:+&}region=$LITESTREAM_S3_REGION"
fi

restore() {  # restore NAME: <instance>/NAME from <replica>/NAME; 1 when the replica has none
  if [ -e "$instance/$1" ]; then
    echo "$instance/$1 is already there: move it aside to restore it." >&2
    exit 2
  fi
  out=$("$litestream" restore -if-replica-exists -o "$instance/$1" "$root/$1$query" 2>&1) \
    || { echo "$out" >&2; exit 1; }
  [ -e "$instance/$1" ] || return 1
  chmod 0600 "$instance/$1"
  echo "restored $instance/$1"
}

mkdir -p -m 0700 "$instance"
if [ "${1:-}" = "--if-empty" ]; then
  if [ -e "$instance/scorekeeper.sqlite3" ] || [ -e "$instance/groups.sqlite3" ]; then exit 0; fi
  shift
fi
if [ $# -gt 0 ]; then
  ids="$*"
elif restore groups.sqlite3; then
  ids=$("$python" -c 'import sqlite3, sys
for (i,) in sqlite3.connect(sys.argv[1]).execute("select id from groups order by rowid"):
    print(i)' "$instance/groups.sqlite3")
else
  restore scorekeeper.sqlite3 || echo "The replica $root holds no database yet."
  exit 0
fi
mkdir -p -m 0700 "$instance/groups"
for id in $ids; do
  restore "groups/$id.sqlite3" || echo "The replica holds nothing of the group $id." >&2
done
