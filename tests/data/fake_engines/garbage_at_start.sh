#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs that does not speak any protocol the runner
# knows: it answers every line with a banner and a prompt, and complains on stderr.
echo "fake engine: reading commands in my own language" >&2
while IFS= read -r line; do
  printf 'Welcome to FakeEngine 1.0\n> \n'
done
