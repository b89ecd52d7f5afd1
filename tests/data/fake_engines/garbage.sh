#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs: it answers every command with an empty
# success in hnefi's framing (`=` and an empty line), but when asked for a move it
# prints garbage instead of a reply.
while IFS= read -r line; do
  case "$line" in
    generate_move*) printf 'hello, I am not an engine\n\n' ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
