#!/usr/bin/env bash
# The benchmark suite of BENCHMARKS.md in one go: E1 (engine: query sweep, mixes, decode excluded, bullet-core
# side by side), then P5 and P4 on the local pipeline. Each result is a JSON file under target/bench/ (P4/P5 also
# PNG plots). P1-P3 need the running local stack: scripts/latency.sh and scripts/raw-query-validation.sh.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
usage() {
  cat <<USAGE
Usage: bench-suite.sh [--quick] [--skip-pipeline]
  --quick          short runs (1 repeat, short steps): a smoke test of the suite, not numbers to publish
  --skip-pipeline  only E1
Results: \$BENCH_OUT (default $BULLET_HOME/target/bench)
USAGE
}
quick=0; pipeline=1
for arg in "$@"; do
  case "$arg" in
    --help|-h) usage; exit 0 ;;
    --quick) quick=1 ;;
    --skip-pipeline) pipeline=0 ;;
    *) echo "error: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done
out="${BENCH_OUT:-$BULLET_HOME/target/bench}"
mkdir -p "$out"
records="$out/e1-records.jsonl"
if [[ ! -s "$records" ]]; then
  "$BULLET_HOME/scripts/generate.sh" --out "$records" --count 20000 --seed 42 --rate max >&2
fi
if (( quick )); then e1="--seconds 2 --warmup 2 --repeats 1"; else e1="--seconds 10 --warmup 10 --repeats 3"; fi
for q in 1 10 100 1000 10000; do
  extra="--no-baseline"; [[ $q == 1000 ]] && extra=""
  echo "E1: $q queries" >&2
  "$BULLET_HOME/scripts/bench-engine.sh" --records "$records" --queries $q $e1 $extra > "$out/e1-q$q.json"
done
"$BULLET_HOME/scripts/bench-engine.sh" --records "$records" --queries 1000 --no-decode --no-baseline $e1 > "$out/e1-q1000-nodecode.json"
for mix in nested range rlike or group count-distinct distribution top-k; do
  q=1000; [[ $mix == group || $mix == count-distinct || $mix == distribution || $mix == top-k ]] && q=100
  echo "E1: mix $mix, $q queries" >&2
  "$BULLET_HOME/scripts/bench-engine.sh" --records "$records" --queries $q --mix $mix --no-baseline $e1 > "$out/e1-$mix.json"
done
for mix in realistic rlike-realistic; do
  echo "E1: mix $mix (1,000 queries, 1,000 == queries in the same run; every optimisation off in the same run)" >&2
  "$BULLET_HOME/scripts/bench-engine.sh" --records "$records" --mix $mix --without all $e1 > "$out/e1-$mix.json"
done
if (( pipeline )); then
  if (( quick )); then p="--step-seconds 5 --warmup-seconds 5 --repeats 1"; else p="--step-seconds 15 --warmup-seconds 15 --repeats 3"; fi
  echo "P5" >&2
  "$BULLET_HOME/scripts/bench-curve.sh" --rate 10000 $p > /dev/null
  echo "P4" >&2
  "$BULLET_HOME/scripts/bench-throughput.sh" $p > /dev/null
fi
echo "results in $out" >&2
