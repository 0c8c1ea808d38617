#!/usr/bin/env bash
# Benchmark P5 (filter latency vs simultaneous queries at a fixed rate) of BENCHMARKS.md on the whole
# local pipeline (embedded Kafka + the topology in LocalCluster, one JVM). Writes JSON and a PNG plot.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
out="${BENCH_OUT:-$BULLET_HOME/target/bench}"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    echo "Usage: bench-curve.sh [PipelineBenchmark options]; results go to $out/curve.json and curve.png"
    echo "Options: --queries 0,100,1000,10000 --rates 10000,25000,50000 --rate 10000 --step-seconds 15"
    echo "         --warmup-seconds 10 --repeats 3 --filter-parallelism N"
    exit 0
  fi
done
[[ -d "$BULLET_HOME/target/test-classes/dev/bullet/bench" ]] \
  || die "the benchmark classes are not built: run 'mvn -B -q package -DskipTests' in $BULLET_HOME first"
bullet_classpath
mkdir -p "$out"
exec java ${BENCH_JAVA_OPTS:--Xms3g -Xmx3g} -Dstorm.jar="$BULLET_HOME/pom.xml" \
  -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.PipelineBenchmark --mode curve \
  --out "$out/curve.json" --png "$out/curve.png" "$@"
