#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs in the reference engine's dialect (htp:): a
# success is `= ` and the result with no empty line after it, `generate_move` is answered
# with text after the move and surrounded by noise lines (as hnefatafl-text-protocol
# does), and errors are `? message: ...` and an empty line. It follows whose turn it is
# from the `play` commands and resigns whenever it is asked for a move, in the words the
# real engine uses (`play ROLE resigns _  score: ...`, no comma).
turn=attacker
while IFS= read -r line; do
  case "$line" in
    play*)
      printf '= \n'
      if [ "$turn" = attacker ]; then turn=defender; else turn=attacker; fi
      ;;
    generate_move*)
      printf '2 turn: %s\n= play %s resigns _  score: -inf\nescape_vec:\n\n 1 -- --\n' "$turn" "$turn"
      ;;
    quit*) printf '= \n'; exit 0 ;;
    *) printf '? message: unrecognized command: %s\n\n' "$line" ;;
  esac
done
