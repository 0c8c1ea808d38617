#!/usr/bin/env bash
# Benchmark E1 (BENCHMARKS.md, SPEC §9): the engine offline on one thread, decode included, against the original
# engine (bullet-core 1.5.2) on the same records in the same run. Prints one JSON object.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for arg in "$@"; do
  if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
    if [[ ! -d "$BULLET_HOME/target/test-classes/dev/bullet/bench" ]]; then
      echo "Usage: bench-engine.sh --records FILE [--queries N] [--seconds S] [--warmup S] [--mix NAME] [--no-decode] [--no-baseline]"
      echo "(the full help comes once the project is built: any script builds it)"
      exit 0
    fi
  fi
done
bullet_classpath tests # builds the benchmark classes (src/bench, into target/test-classes) when they are missing or older than the sources
# Without --records, the generator's 20,000 seed-shaped records (seed 42, the records of docs/PERFORMANCE.md), made once.
records_given=false
for arg in "$@"; do
  [[ "$arg" == "--records" || "$arg" == --records=* || "$arg" == "--help" || "$arg" == "-h" ]] && records_given=true
done
if [[ "$records_given" == false ]]; then
  default_records="$BULLET_HOME/target/bench/records-seed42.jsonl"
  if [[ ! -s "$default_records" ]]; then
    mkdir -p "$(dirname "$default_records")"
    "$BULLET_HOME/scripts/generate.sh" --out "$default_records.tmp" --count 20000 --seed 42 --rate max >&2
    mv "$default_records.tmp" "$default_records"
  fi
  echo "bench-engine: no --records given: using $default_records (20,000 generator records, seed 42)" >&2
  set -- --records "$default_records" "$@"
fi
# One thread does the work; a fixed heap and a throughput-friendly GC keep runs comparable.
exec java ${BENCH_JAVA_OPTS:--Xms2g -Xmx2g -XX:+UseParallelGC} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.EngineBenchmark "$@"
