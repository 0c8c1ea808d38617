#!/usr/bin/env bash
# Benchmark P5 (filter latency vs simultaneous queries at a fixed rate) of BENCHMARKS.md on the whole local
# pipeline (embedded Kafka + the topology in LocalCluster, one JVM). Writes JSON and a PNG plot.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_pipeline curve "$@"
