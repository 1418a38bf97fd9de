#!/usr/bin/env bash
# Remake the README's pictures (docs/*.png) with agon's own commands, on a fresh store in a temporary folder.
# Needs the png extra (kaleido) and Chromium: .venv/bin/pip install -e '.[png]' (the test extra has both).
#   bash scripts/pictures.sh            # all of them, into docs/
#   bash scripts/pictures.sh OUTDIR     # somewhere else, to look at them first
# docs/chances.png is left alone: it needs 'agon analyse' (under a minute of rollouts on 2 cores); the README gives its
# commands (agon import replays/pergamemnon-3p.jsonl; agon analyse GAME; agon plot chances GAME --png).
# The study page's screenshot belongs to the study page (agon view) and is made with it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:-$root/docs}" && pwd)
agon="$root/.venv/bin/agon"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export AGON_DB="$work/demo.db"
id() { python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }

P=$("$agon" demo pergamemnon --seed 3 --json | id)
"$agon" branch "$P" whatif --at 40 --reseed >/dev/null
"$agon" act "$P" bot --branch whatif >/dev/null
"$agon" switch "$P" main >/dev/null
"$agon" plot scores "$P" -b main -b whatif --png -o "$out/scores.png"
"$agon" plot battles "$P" --png -o "$out/pergamemnon-battles.png"
K=$("$agon" demo perikles --seed 3 --json | id)
"$agon" plot battles "$K" --png -o "$out/perikles-battles.png"
L=$("$agon" demo peloponnes --seed 3 --json | id)
"$agon" plot auction "$L" --png -o "$out/peloponnes-auction.png"
A=$("$agon" demo adamastor --seed 3 --json | id)
"$agon" plot voyage "$A" --png -o "$out/adamastor-voyage.png"
C=$("$agon" demo adamastor --players 2 --seed 1 --json | id)
"$agon" plot scores "$C" --png -o "$out/adamastor-crew-scores.png"
"$agon" demo perikles --games 40 --seed 100 >/dev/null
"$agon" plot stats perikles --png -o "$out/perikles-stats.png"
echo "pictures written to $out"
