#!/usr/bin/env bash
# A fake OTEP engine for tests/match_runner.rs that never says hello: it writes log
# lines, as many as $1 (then waits on its input), or without $1 on and on.
n=${1:-0}
i=0
while [ "$n" = 0 ] || [ "$i" -lt "$n" ]; do
  echo "fake log line $i: still starting"
  i=$((i + 1))
done
while IFS= read -r line; do :; done
