#!/bin/sh
# The server under Litestream: continuous replication of its databases to
# $LITESTREAM_REPLICA_URL, Litestream's signals passed on to the server and its exit ending
# Litestream. A new box with an empty instance folder first takes the databases back from the
# replica, if it holds any. The container's way to run (docs/hosting.md "Backed up and restored"):
#
#     deploy/litestream-run.sh [options of scorekeeper serve]
#
# With --groups (or SCOREKEEPER_GROUPS), deploy/litestream-groups.yml replicates the register
# and every group; otherwise deploy/litestream.yml replicates the one database.
#
# The two are one: if Litestream ends (a crash, `kill -9`), the server sees it and stops too
# (exit status 1), rather than go on acknowledging deals that no replica gets, and whatever
# supervises this script (systemd, the container's restart policy) starts both again. Its
# /healthz says whether Litestream runs and how old the newest replicated change is.
set -eu
umask 077  # the databases and Litestream's copies of their changes: owner only
here=$(dirname "$(readlink -f "$0")")
instance=${SCOREKEEPER_INSTANCE:?set SCOREKEEPER_INSTANCE to the instance folder}
: "${LITESTREAM_REPLICA_URL:?set LITESTREAM_REPLICA_URL to the replica, e.g. s3://bucket/trex}"
groups=${SCOREKEEPER_GROUPS:-}
case " $* " in *" --groups"*) groups=1 ;; esac
case "$groups" in
  "" | 0 | no | off) config="$here/litestream.yml" ;;
  *) config="$here/litestream-groups.yml"; mkdir -p "$instance/groups" ;;
esac
"$here/litestream-restore.sh" --if-empty
exec "${LITESTREAM:-litestream}" replicate -config "$config" -exec "scorekeeper serve $*"
