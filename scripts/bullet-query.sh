#!/usr/bin/env bash
# Offline runner (SPEC §6.11): run one query over a file of JSON lines and print every result as a JSON line.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    BULLET_JAVA_OPTS="-Xmx64m -XX:TieredStopAtLevel=1" bullet_java dev.bullet.tools.QueryMain --help
  fi
done
BULLET_JAVA_OPTS="${BULLET_JAVA_OPTS:--Xmx1g -XX:+UseSerialGC}" bullet_java dev.bullet.tools.QueryMain "$@"
