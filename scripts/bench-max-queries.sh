#!/usr/bin/env bash
# Benchmark P3 (BENCHMARKS.md): N simultaneous RAW queries through the REST service of a running local stack, 10
# matching records, every query must get all 10. Prints JSON. Start the stack first: scripts/bullet-local.sh --no-generator
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    echo "Usage: bench-max-queries.sh [--queries 1000,5000,10000] [--url URL] [--bootstrap HOST:PORT] [--topic NAME] [--duration MS]"
    exit 0
  fi
done
bullet_classpath tests # builds the benchmark classes (src/bench, into target/test-classes) when they are missing or older than the sources
exec java ${BENCH_JAVA_OPTS:--Xmx2g} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.MaxQueriesBenchmark "$@"
