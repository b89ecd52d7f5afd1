#!/bin/sh
# Issue 34 item 4: each level of `set_option level N` (src/players/level.rs) against the
# level above it, GAMES games a pair (default 100; sides alternate, each game pair from a
# random 4-ply opening), levels 1 to 7, with the settings of levels.sh (100 ms a move for
# the searching levels, cut at 200 plies) on RULES (copenhagen or fetlar). Level 8 is
# measured against level 7 at its real time of 1 s a move (docs/gauntlets/level8-1s-vs-7-*).
# Records go to DIR/level-neighbours-RULES-K.csv (K against K+1); run it again to resume.
#
#   PATH=/path/to/release:$PATH sh docs/gauntlets/level-neighbours.sh RULES [GAMES] [DIR]
set -eu
rules=$1
games=${2:-100}
dir=${3:-docs/gauntlets}
for low in 1 2 3 4 5 6; do
    high=$((low + 1))
    nice -n 10 hnefi match --rules "$rules" --movetime-ms 100 --time-margin-ms 1000 \
        --move-limit 200 --concurrency 1 --games "$games" --seed "$low" \
        --engine "hnefi --level $low --seed $low" --engine "hnefi --level $high --seed $high" \
        --out "$dir/level-neighbours-$rules-$low.csv" --resume
done
