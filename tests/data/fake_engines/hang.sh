#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs: it answers every command with an empty
# success in hnefi's framing (`=` and an empty line), but when asked for a move it
# sleeps and never answers: the runner's deadline must end the game and kill it.
while IFS= read -r line; do
  case "$line" in
    generate_move*) exec sleep 60 ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
