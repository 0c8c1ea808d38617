#!/usr/bin/env bash
# Benchmark P4 (the highest records/s sustained with 0 / 100 / 1,000 / 10,000 queries) of BENCHMARKS.md on the whole local
# pipeline (embedded Kafka + the topology in LocalCluster, one JVM). Writes JSON and a PNG plot.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_pipeline throughput "$@"
