#!/usr/bin/env bash
# Benchmark P4 (throughput with 0 / 100 / 1,000 / 10,000 queries) of BENCHMARKS.md on the whole
# local pipeline (embedded Kafka + the topology in LocalCluster, one JVM). Writes JSON and a PNG plot.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
out="${BENCH_OUT:-$BULLET_HOME/target/bench}"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    echo "Usage: bench-throughput.sh [PipelineBenchmark options]; results go to $out/throughput.json and throughput.png"
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
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.PipelineBenchmark --mode throughput \
  --out "$out/throughput.json" --png "$out/throughput.png" "$@"
