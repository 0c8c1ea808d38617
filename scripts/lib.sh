#!/usr/bin/env bash
# Shared helpers for the scripts in this folder. Source it; do not run it.
# Resolves the repository from the script's own location, so scripts work from any directory.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "lib.sh holds helpers the other scripts source; it is not a command. See the README's scripts table." >&2
  exit 2
fi

BULLET_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
  echo "error: $*" >&2
  exit "${DIE_STATUS:-1}"
}

require_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' is needed but not installed (${2:-install it with your package manager})"
}

# Builds the project (mvn package) when target/ lacks what the scripts run, or when pom.xml or a file under
# src/main (src/test and src/bench too with "tests": the benchmarks compile into target/test-classes) is newer
# than the last build. Once, with a progress line; otherwise it costs one 'find'. Maven's output goes to stderr,
# so a script's stdout stays data.
bullet_build() {
  local stamp="$BULLET_HOME/target/.bullet-build-stamp" sources=("$BULLET_HOME/pom.xml" "$BULLET_HOME/src/main")
  [[ "${1:-}" == tests ]] && sources+=("$BULLET_HOME/src/test" "$BULLET_HOME/src/bench")
  local built="$stamp" # a build by hand (mvn package) leaves no stamp: its classpath file is as good
  [[ -f "$stamp" ]] || built="$BULLET_HOME/target/classpath.txt"
  if [[ -d "$BULLET_HOME/target/classes" && -s "$BULLET_HOME/target/classpath.txt" ]] \
      && [[ "${1:-}" != tests || -d "$BULLET_HOME/target/test-classes" ]] \
      && [[ -z "$(find "${sources[@]}" -newer "$built" -print -quit 2>/dev/null)" ]]; then
    return 0
  fi
  require_cmd mvn "Apache Maven 3.8+, e.g. apt-get install maven"
  local log started=$SECONDS pid
  log="$(mktemp "${TMPDIR:-/tmp}/bullet-build.XXXXXX")"
  echo "Building Bullet (mvn -B -q package -DskipTests; a few minutes the first time, then only when the sources change) ..." >&2
  touch "$log.start"
  # A background job of a script ignores Ctrl-C: stop Maven ourselves, so nothing is left behind.
  local traps
  traps="$(trap -p INT TERM)"
  pid=""
  trap '{ [[ -n "$pid" ]] && kill "$pid" && wait "$pid"; } 2>/dev/null || true; rm -f "$log" "$log.start"; exit 130' INT TERM
  # Two scripts started at once build one after the other (two Maven builds of one target/ break the shaded jar): the
  # subshell takes the lock on a descriptor, then becomes Maven, which holds it, so stopping $pid stops Maven.
  mkdir -p "$BULLET_HOME/target"
  (cd "$BULLET_HOME" \
     && if command -v flock >/dev/null 2>&1; then exec 9>"$BULLET_HOME/target/.bullet-build.lock"; flock 9; fi \
     && exec mvn -B -q package -DskipTests) > "$log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if (( (SECONDS - started) % 15 == 0 )); then echo "  ... still building ($(( SECONDS - started )) s)" >&2; fi
  done
  local status=0
  wait "$pid" || status=$?
  trap - INT TERM
  eval "$traps"
  if (( status != 0 )); then
    tail -n 40 "$log" >&2
    rm -f "$log" "$log.start"
    die "the build failed (mvn -B -q package -DskipTests in $BULLET_HOME); see the lines above"
  fi
  # The stamp is the build's start time: a source edited during the build makes the next script build again.
  mv -f "$log.start" "$stamp"
  rm -f "$log"
  echo "Built in $(( SECONDS - started )) s." >&2
}

# Sets BULLET_CP to the project's classes plus its runtime (and local-mode) dependencies; builds them if needed.
bullet_classpath() {
  require_cmd java "a Java 17 runtime, e.g. apt-get install openjdk-17-jre-headless"
  bullet_build "$@"
  BULLET_CP="$BULLET_HOME/target/classes:$(cat "$BULLET_HOME/target/classpath.txt")"
}

bullet_java() {
  bullet_classpath
  exec java ${BULLET_JAVA_OPTS:--Xmx1g} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" -cp "$BULLET_CP" "$@"
}

# ---- helpers of the scripts that talk to a running stack (raw-query-validation.sh, latency.sh) ----

# Milliseconds since the epoch.
now_ms() {
  local t
  t="$(date +%s%3N 2>/dev/null || true)"
  if [[ "$t" =~ ^[0-9]{13,}$ ]]; then
    echo "$t"
  else
    perl -MTime::HiRes=time -e 'printf "%d\n", time() * 1000'
  fi
}

# Ten random hex characters, like the seed's record ids.
random_id() {
  od -An -N5 -tx1 /dev/urandom | tr -d ' \n'
}

# Dies (exit 3) unless curl and jq are installed and the stack at $1 answers GET /api/bullet/health with 200.
require_stack() {
  local url="$1" code body
  DIE_STATUS=3 require_cmd curl "install it, e.g. apt-get install curl"
  DIE_STATUS=3 require_cmd jq "install it, e.g. apt-get install jq"
  body="$(mktemp)"
  code="$(curl -s -o "$body" -w '%{http_code}' --max-time 20 "$url/api/bullet/health" 2>/dev/null || true)"
  if [[ "$code" != 200 ]]; then
    local why
    if [[ "$code" == 000 || -z "$code" ]]; then
      why="nothing answers at $url"
    else
      why="health is $code: $(jq -r '.meta.errors[0].error // .' "$body" 2>/dev/null | head -c 300)"
    fi
    rm -f "$body"
    DIE_STATUS=3 die "the Bullet stack is not running or not ready ($why).
Start it with scripts/bullet-local.sh (or pass --url of the running REST service)."
  fi
  rm -f "$body"
}

# Starts POST $2 (an http-query) in the background: body to $3, HTTP status to $3.code. Sets QUERY_PID.
start_http_query() {
  local url="$1" query="$2" out="$3" max_time="${4:-120}"
  curl -s -o "$out" -w '%{http_code}' --max-time "$max_time" -X POST "$url/api/bullet/queries/http-query" \
    -H 'Content-Type: application/json' --data-binary "$query" > "$out.code" 2> "$out.err" &
  QUERY_PID=$!
}

# How many running queries of the REST service at $1 match the jq condition $2 (applied to each list entry).
count_running() {
  curl -s --max-time 10 "$1/api/bullet/queries" 2>/dev/null | jq "[.[] | select($2)] | length" 2>/dev/null || echo 0
}

# The record feeder: one generate.sh reading JSON lines from a FIFO, so a record is in Kafka a few ms after
# feed_record, without a JVM start each time. feeder_start DIR BOOTSTRAP TOPIC; feed_record LINE; feeder_stop.
feeder_start() {
  local dir="$1" bootstrap="$2" topic="$3"
  mkfifo "$dir/feed.fifo"
  trap '' PIPE # a generator that died makes feed_record fail with a message, not kill this script silently
  "$BULLET_HOME/scripts/generate.sh" --bootstrap "$bootstrap" --topic "$topic" --records - \
    < "$dir/feed.fifo" > "$dir/feed.log" 2>&1 &
  FEEDER_PID=$!
  FEEDER_LOG="$dir/feed.log"
  exec {FEEDER_FD}> "$dir/feed.fifo"
}

feed_record() {
  if ! kill -0 "$FEEDER_PID" 2>/dev/null || ! printf '%s\n' "$1" >&"$FEEDER_FD" 2>/dev/null; then
    die "the record generator (scripts/generate.sh) stopped: $(tail -n 3 "$FEEDER_LOG" 2>/dev/null)"
  fi
}

feeder_stop() {
  if [[ -n "${FEEDER_FD:-}" ]]; then
    exec {FEEDER_FD}>&-
    FEEDER_FD=""
    local i
    for ((i = 0; i < 100; i++)); do
      kill -0 "$FEEDER_PID" 2>/dev/null || return 0
      sleep 0.1
    done
    kill "$FEEDER_PID" 2>/dev/null || true
  fi
}

# Proves that the queries sent so far reached the topology's Filter tasks and that records flow: a probe query
# for a fresh marker value is sent after them, and marker records are fed until the probe finds one (the query
# spout keeps the order of queries). Needs the feeder. Dies after $2 seconds (default 60).
await_queries_registered() {
  local url="$1" deadline=$(( $(date +%s) + ${2:-60} )) dir="$3"
  local marker probe_out
  marker="marker-$(random_id)"
  probe_out="$dir/probe-$marker.json"
  start_http_query "$url" \
    "{\"filters\":[{\"field\":\"bullet_marker\",\"operation\":\"==\",\"values\":[\"$marker\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":$(( ${2:-60} * 1000 ))}" \
    "$probe_out" $(( ${2:-60} + 30 ))
  local probe_pid=$QUERY_PID
  until [[ "$(count_running "$url" ".query.filters[0].values[0] == \"$marker\"")" -ge 1 ]]; do
    kill -0 "$probe_pid" 2>/dev/null || break
    (( $(date +%s) < deadline )) || die "the probe query never showed in GET /api/bullet/queries"
    sleep 0.1
  done
  while kill -0 "$probe_pid" 2>/dev/null; do
    (( $(date +%s) < deadline )) || die "the topology did not find a probe record within ${2:-60} s (is it reading the firehose topic?)"
    feed_record "{\"bullet_marker\":\"$marker\",\"timestamp\":$(now_ms)}"
    local i
    for ((i = 0; i < 10; i++)); do
      kill -0 "$probe_pid" 2>/dev/null || break
      sleep 0.1
    done
  done
  wait "$probe_pid" 2>/dev/null || true
  [[ "$(cat "$probe_out.code" 2>/dev/null)" == 200 && "$(jq '.records | length' "$probe_out" 2>/dev/null)" == 1 ]] \
    || die "the probe query failed (HTTP $(cat "$probe_out.code" 2>/dev/null)): $(head -c 300 "$probe_out" 2>/dev/null)"
}

# Runs the in-process pipeline benchmark (P4 "throughput" or P5 "curve"); results under $BENCH_OUT.
bench_pipeline() {
  local mode="$1"; shift
  local out="${BENCH_OUT:-$BULLET_HOME/target/bench}"
  for arg in "$@"; do
    if [[ "$arg" == "--help" || "$arg" == "-h" ]]; then
      echo "Usage: bench-$mode.sh [options]; results go to $out/$mode.json and $mode.png"
      echo "Options: --queries 0,100,1000,10000 --rates 10000,25000,50000 --rate 10000 --step-seconds 15"
      echo "         --warmup-seconds 10 --repeats 3 --filter-parallelism N"
      echo "         --mix id|realistic | --queries-file FILE (JSON lines: results flow, latency from the producer)"
      echo "         --join-snapshots on|off|on,off,... (the Join keeps its state in Kafka; default on, as the setting;"
      echo "         a list: each in turn in one JVM, the JIT shared) --join-snapshot-interval-ms MS"
      echo "         --tick-ms MS (bullet.topology.tick.spout.interval.ms: how often the Filter emits its partials)"
      echo "         --kafka-property KEY=VALUE (repeatable: bullet.pubsub.kafka.properties, e.g. compression.type=lz4)"
      echo "         --via pubsub|rest (with a workload: the client reads the response topic, or runs each query"
      echo "         through the REST service's sse-query: two open files per running query)"
      echo "         --cluster [--workers N] [--supervisors 1|2] [--jfr DIR] (the topology on a multi-process Storm"
      echo "         cluster on free loopback ports, Storm home target/storm-home or \$STORM_HOME; cores summed over"
      echo "         this JVM and every cluster process; --jfr: a JFR profile per worker in DIR)"
      return 0
    fi
  done
  bullet_classpath tests
  mkdir -p "$out"
  java ${BENCH_JAVA_OPTS:--Xms3g -Xmx3g} -Dstorm.jar="$BULLET_HOME/pom.xml" -Dbullet.home="$BULLET_HOME" \
    -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
    -cp "$BULLET_HOME/target/test-classes:$BULLET_CP" dev.bullet.bench.PipelineBenchmark --mode "$mode" \
    --out "$out/$mode.json" --png "$out/$mode.png" "$@"
}
