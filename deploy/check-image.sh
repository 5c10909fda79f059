#!/usr/bin/env bash
# Build the container image and check it the way a hosted box runs it: start it with a fresh
# volume, wait for /healthz, print a scoresheet inside it, and check that it runs as "trex" and
# keeps its database and secret key on the volume. Uses podman, or docker if there is no podman.
#
#     bash deploy/check-image.sh            (from the repository's root; extra build arguments,
#                                            e.g. --build-arg BASE=..., are passed to the build)
set -euo pipefail
cd "$(dirname "$0")/.."
engine=$(command -v podman || command -v docker)
name=trex-check-$$
volume=trex-check-data-$$
port=${PORT:-18765}
"$engine" build --format docker -f deploy/Dockerfile -t trex-scorekeeper:check "$@" . \
  2>/dev/null || "$engine" build -f deploy/Dockerfile -t trex-scorekeeper:check "$@" .
cleanup() { "$engine" rm -f "$name" >/dev/null 2>&1 || true; "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true; }
trap cleanup EXIT
"$engine" run -d --name "$name" -p "127.0.0.1:$port:5000" -v "$volume:/data" trex-scorekeeper:check
for _ in $(seq 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 1
done
curl -fsS "http://127.0.0.1:$port/healthz"; echo
test "$("$engine" exec "$name" id -un)" = trex
"$engine" exec "$name" sh -c 'ls /data/scorekeeper.sqlite3 /data/secret_key'
"$engine" cp benchmarks/full_game.json "$name:/data/full_game.json"
"$engine" exec "$name" scorekeeper pdf --file /data/full_game.json -o /data/sheet.pdf --lang ar
"$engine" exec "$name" litestream version   # the replicate extra: Litestream beside the app
# docker stop: tini passes SIGTERM on, and the server stops cleanly within 2 s (not the 10 s
# after which the engine kills it)
started=$(date +%s%N)
"$engine" stop -t 10 "$name" >/dev/null
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
test "$elapsed_ms" -lt 3000 || { echo "docker stop took ${elapsed_ms} ms"; exit 1; }
test "$("$engine" inspect -f '{{.State.ExitCode}}' "$name")" = 0
echo "The image builds, serves /healthz, runs as trex, prints a sheet, carries Litestream and stops in ${elapsed_ms} ms."
