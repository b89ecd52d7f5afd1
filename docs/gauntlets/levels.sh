#!/bin/sh
# Issue 34 item 4: the levels of `set_option level N` (src/players/level.rs) rated
# against each other: a round robin of levels 1 to 8 (each `hnefi --level N --seed N`),
# GAMES games a pair (default 10; sides alternate, each game pair from a random 4-ply
# opening), 100 ms a move for the searching levels, cut at 200 plies (a draw: the
# search does not break Fortification's fort, and a longer cut costs minutes a game), on RULES
# (copenhagen or fetlar). The rating list at the end holds level 1 at 0: docs/levels.md's
# table. Records go to DIR/levels-RULES.csv; run it again to resume.
#
#   PATH=/path/to/release:$PATH sh docs/gauntlets/levels.sh RULES [GAMES] [DIR]
set -eu
rules=$1
games=${2:-10}
dir=${3:-docs/gauntlets}
engines=""
for level in 1 2 3 4 5 6 7 8; do
    engines="$engines --engine 'hnefi --level $level --seed $level'"
done
eval nice -n 10 hnefi match --rules "$rules" --movetime-ms 100 --time-margin-ms 1000 \
    --move-limit 200 --concurrency 1 --games "$games" "$engines" --anchor 1 \
    --out "$dir/levels-$rules.csv" --resume
