#!/usr/bin/env bash
# The heap under queries that would fill it (docs/PERFORMANCE.md, "Memory bounds"): the Filter and Join engines in one
# JVM at 10,000 records/s on a simulated clock, with and without bullet.query.max.bytes. Prints JSON.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    echo "Usage: bench-heap-bound.sh [--minutes M] [--large-per-second N] [--no-bounds]"
    exit 0
  fi
done
bullet_classpath tests # builds the benchmark classes (src/bench, into target/test-classes) when they are missing or older than the sources
exec java ${BENCH_JAVA_OPTS:--Xmx2g} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.HeapBoundBenchmark "$@"
