#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs: it answers every command with an empty
# success in hnefi's framing (`=` and an empty line), but when asked for a move it
# always plays k11-k10 for the attackers (a corner, never holding an attacker; for the
# defenders the wrong side): an illegal move.
while IFS= read -r line; do
  case "$line" in
    generate_move*) printf '= play attacker k11 k10\n\n' ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
