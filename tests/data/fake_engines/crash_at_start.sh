#!/usr/bin/env bash
# A fake engine for tests/match_runner.rs that cannot start: it complains on stderr and
# exits with status 1 before reading anything, as an engine missing a file does.
echo "fake engine: cannot open weights file nn.onnx" >&2
exit 1
