#!/usr/bin/env bash
# Fails when a build log shows a compiler warning in our own code (Sources/ or Tests/).
# Dependencies' warnings are not ours to fix and are ignored.
set -euo pipefail
log="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
if grep -E "^${root}/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u; then
  echo "error: the build emitted warnings in VaultMail's code (listed above)" >&2
  exit 1
fi
