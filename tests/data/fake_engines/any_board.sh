#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs in hnefi's protocol that plays on any board: it
# hands every command to hnefi ($1, the binary), which keeps the game, and answers
# `generate_move` itself with a random legal move (from hnefi's `legal_moves`, chosen by
# bash's RANDOM seeded with $2), played on hnefi's board, so that games on boards hnefi's
# search does not play yet can be refereed. Option `refuse_board` (third word) answers
# `board_size` with an error, as an engine that cannot play another board does.
set -f
. "$(dirname "$0")/hnefi_coproc.sh" "$1"
RANDOM=${2:-1}
refuse=${3:-}
# Sends one command to hnefi and writes its whole reply (up to and with the empty line).
relay() {
  printf '%s\n' "$1" >&"${H[1]}"
  while IFS= read -r l <&"${H[0]}"; do
    printf '%s\n' "$l"
    [ -z "$l" ] && break
  done
}
while IFS= read -r line; do
  case "$line" in
    board_size*)
      if [ "$refuse" = refuse_board ]; then
        printf '? this engine plays 11x11 only\n\n'
      else
        relay "$line"
      fi
      ;;
    generate_move*)
      ask play_from
      set -- $first
      side=$2
      ask legal_moves
      set -- $first
      shift
      if [ $# = 0 ]; then
        printf '? no legal move\n\n'
        continue
      fi
      i=$((RANDOM % $# + 1))
      mv=${!i}
      ask "play $side $mv"
      printf '= play %s %s %s\n\n' "$side" "${mv%-*}" "${mv#*-}"
      ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) relay "$line" ;;
  esac
done
