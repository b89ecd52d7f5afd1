#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs that speaks the OpenTafl Engine Protocol
# (`otep:`): it plays real moves by driving hnefi ($1, the binary) through hnefi's text
# protocol, with the time of the last `clock` line, and writes `status` lines as noise.
# With `banner` ($2) it first writes a log banner to stdout, as OpenTafl's own engine
# does (OpenTafl's host skips the lines it does not know). With `settle` it exits, as
# OpenTafl's own engine crashed, when a move comes within 250 ms of its own.
set -f
mode=$2
. "$(dirname "$0")/hnefi_coproc.sh" "$1"
turn=attacker
flip() { if [ "$turn" = attacker ]; then turn=defender; else turn=attacker; fi; }
ms=1000
if [ "$mode" = banner ]; then
  echo "OpenTafl v0.4.8.0b log from 2026-12-07 20:02"
  echo "Java version: 17.0.21.1"
  echo "No settings file exists"
  echo "No settings file exists"
fi
echo "status fake OTEP engine starting"
echo hello
while IFS= read -r line; do
  set -- $line
  case $1 in
    rules) ask clear_board; turn=attacker ;;
    # As OpenTafl's own engine does: `side` sets the side to move, and a move of the
    # other side is refused (hnefi answers `?`) and dropped, so the boards part.
    side) turn=${2%s} ;;
    opponent-move)
      if [ "$mode" = settle ] && [ -n "$moved" ] &&
        [ $(( ${EPOCHREALTIME/./} - moved )) -lt 250000 ]; then
        echo "fake engine: a move within 250 ms of mine" >&2
        exit 1
      fi
      for m in ${2//|/ }; do
        ask "play $turn ${m%-*} ${m#*-}"
        case $first in \?*) ;; *) flip ;; esac
      done
      ;;
    clock)
      # Our side's time: overtime (MS*) is the time for this move; a main time is
      # spread over 30 moves.
      if [ "$turn" = attacker ]; then t=$2; else t=$3; fi
      case $t in
        *\*) ms=${t%\*} ;;
        -1) ms=1000 ;;
        *) ms=$((t / 30 + 1)) ;;
      esac
      ;;
    play)
      ask "set_option movetime_ms $ms"
      ask generate_move
      set -- $first
      echo "status thinking done"
      echo "move $4-$5"
      moved=${EPOCHREALTIME/./}
      flip
      ;;
    goodbye) exit 0 ;;
  esac
done
