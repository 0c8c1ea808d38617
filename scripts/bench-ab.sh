#!/usr/bin/env bash
# Before/after of the engine in one JVM: the working tree against --base REV, each build in its own class loader,
# alternating short slices over the same records and queries (docs/PERFORMANCE.md, "Before and after in one JVM").
# Prints one JSON object per --queries-file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
base="" records="" args=()
while (( $# > 0 )); do
  case "$1" in
    --help|-h) bullet_classpath tests; exec java -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.EngineAB --help ;;
    --base) [[ $# -ge 2 ]] || DIE_STATUS=2 die "--base needs a revision"; base="$2"; shift 2 ;;
    --records) [[ $# -ge 2 ]] || DIE_STATUS=2 die "--records needs a file"; records="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -n "$base" ]] || DIE_STATUS=2 die "--base REV is required (a commit, tag or branch; see --help)"
require_cmd git
rev="$(git -C "$BULLET_HOME" rev-parse --verify --quiet "$base^{commit}")" || DIE_STATUS=2 die "no such revision: $base"
bullet_classpath tests
# The base build: a clean checkout of the revision, built once and kept under target/ab/<commit>.
tree="$BULLET_HOME/target/ab/$rev"
if [[ ! -s "$tree/target/classpath.txt" ]]; then
  require_cmd mvn "Apache Maven 3.8+"
  rm -rf "$tree" && mkdir -p "$tree"
  git -C "$BULLET_HOME" archive "$rev" | tar -x -C "$tree"
  echo "Building $base ($rev) in $tree ..." >&2
  (cd "$tree" && mvn -B -q package -DskipTests >"$tree/build.log" 2>&1) || { tail -n 30 "$tree/build.log" >&2; die "the build of $base failed"; }
fi
if [[ -z "$records" ]]; then
  records="$BULLET_HOME/target/ab/records-seed42.jsonl"
  [[ -s "$records" ]] || "$BULLET_HOME/scripts/generate.sh" --out "$records" --count 20000 --seed 42 --rate max >&2
fi
[[ -f "$records" ]] || DIE_STATUS=2 die "no such records file: $records"
exec java ${BENCH_JAVA_OPTS:--Xms3g -Xmx3g -XX:+UseParallelGC} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
  -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.EngineAB \
  --base-dir "$tree" --current-dir "$BULLET_HOME" --records "$records" "${args[@]}"
