#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs that speaks the OpenTafl Engine Protocol
# (`otep:`): it plays real moves by driving hnefi ($1, the binary) through hnefi's text
# protocol, with the time of the last `clock` line, and writes `status` lines as noise.
set -f
. "$(dirname "$0")/hnefi_coproc.sh" "$1"
turn=attacker
flip() { if [ "$turn" = attacker ]; then turn=defender; else turn=attacker; fi; }
ms=1000
echo "status fake OTEP engine starting"
echo hello
while IFS= read -r line; do
  set -- $line
  case $1 in
    rules) ask clear_board; turn=attacker ;;
    opponent-move)
      for m in ${2//|/ }; do
        ask "play $turn ${m%-*} ${m#*-}"
        flip
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
      flip
      ;;
    goodbye) exit 0 ;;
  esac
done
