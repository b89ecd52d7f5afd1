#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs in the UCI style of TaflZero / ZevraTafl
# (`uci:`): it plays real moves by driving hnefi ($1, the binary) through hnefi's text
# protocol. Options after it: `echo` writes every command back before answering (as some
# engines do), `noclock` answers `go wtime ...` with `unknown go subcommand` (as TaflZero
# does: it knows only movetime and nodes). Like TaflZero it prints noise around the
# protocol: `option` after `uciok`, `unknown command` for ucinewgame, a confirmation
# after `position`, `info` lines before `bestmove`, `bye` for quit.
set -f
. "$(dirname "$0")/hnefi_coproc.sh" "$1"
shift
echo_all=0
clock=1
for a in "$@"; do
  case $a in
    echo) echo_all=1 ;;
    noclock) clock=0 ;;
  esac
done
plies=0
while IFS= read -r line; do
  [ "$echo_all" = 1 ] && printf '%s\n' "$line"
  set -- $line
  case $1 in
    uci)
      printf 'id name fake-uci\nid author hnefi tests\nuciok\noption name Hash type spin default 1\n'
      ;;
    isready) echo readyok ;;
    position)
      ask clear_board
      plies=0
      shift
      [ "$1" = startpos ] && shift
      [ "$1" = moves ] && shift
      for m in "$@"; do
        if [[ $m =~ ^([a-k][0-9]+)([a-k][0-9]+)$ ]]; then
          if [ $((plies % 2)) = 0 ]; then role=attacker; else role=defender; fi
          ask "play $role ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
          plies=$((plies + 1))
        else
          echo "invalid move '$m'"
        fi
      done
      echo "position set to startpos ($plies moves)"
      ;;
    go)
      ms=
      case $2 in
        movetime) ms=$3 ;;
        wtime)
          if [ "$clock" = 0 ]; then
            echo "unknown go subcommand"
            continue
          fi
          # UCI colours: black (btime) is the attackers, who move first.
          if [ $((plies % 2)) = 0 ]; then left=$5; else left=$3; fi
          ms=$((left / 30 + 1))
          ;;
      esac
      ask "set_option movetime_ms $ms"
      ask generate_move
      set -- $first
      echo "info depth 1 score cp 0 nodes 1 time 1 pv $4$5"
      echo "bestmove $4$5"
      ;;
    stop) ;;
    quit) echo bye; exit 0 ;;
    *) echo "unknown command" ;;
  esac
done
