#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs: it answers every command with an empty
# success in hnefi's framing (`=` and an empty line), but when asked for a move it exits
# with status 3: a crash in the middle of a game.
while IFS= read -r line; do
  case "$line" in
    generate_move*) exit 3 ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
