#!/usr/bin/env bash
# The seed's Tests 1 and 2 (SPEC §9) against a running stack: minimum latency (RAW, no filter, LIMIT 1) and time
# to find a generated record, from the timestamps in the results, over many repetitions; prints p50/p99.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<USAGE
Usage: latency.sh [--url URL] [--bootstrap HOST:PORT] [--topic NAME] [--repetitions N] [--test 1|2|all]
                  [--duration MS] [--endpoint http|sse] [--json FILE] [--help]

The seed's latency tests against a running stack (scripts/bullet-local.sh), each repeated N times:
  Test 1, minimum latency: {"aggregation":{"type":"RAW","size":1}} — no filter, LIMIT 1: the first record
          to arrive (a sample record, or one this script sends) is returned.
  Test 2, time to find a record: a query for a fresh id, then a record with that id is sent; the result
          shows how long it took to find it.
Delays are reported in ms relative to Query Received (meta.query_receive_time), as in the seed:
  Kafka Received   the record's own "timestamp" (when it was generated/sent)
  Bullet Filtered  the record's "bullet_project_timestamp" (needs bullet.record.inject.timestamp.enable: true)
  Query Finished   meta.query_finish_time
and for Test 2 also "record sent -> Query Finished", the time to find the record, and "record sent -> result at
the client", when this script's curl had the answer (its exit, a few ms late at most).
Timestamps come from the machine's clock: run it on the machine of the stack.

  --url URL             the REST service (default http://127.0.0.1:9999)
  --bootstrap H:P       Kafka, for the records (default 127.0.0.1:9092)
  --topic NAME          the firehose topic (default bullet.records)
  --repetitions N       repetitions of each test (default 20)
  --test 1|2|all        which test (default all)
  --duration MS         the queries' duration, the most one repetition waits (default 20000)
  --endpoint http|sse   ask through http-query (one response, default) or sse-query (a stream of events; the last
                        one is the final result)
  --json FILE           also write the p50/p99 of every measure as JSON (machine-readable result)
  --help                this text

Needs curl, jq and Java; builds the project first if needed.
Exit codes: 0 every repetition got its record; 1 some did not; 2 bad command line; 3 missing tool or stack not running.
USAGE
}

URL="http://127.0.0.1:9999"
BOOTSTRAP="127.0.0.1:9092"
TOPIC="bullet.records"
REPETITIONS=20
TESTS="all"
DURATION=20000
ENDPOINT=http
DIE_STATUS=2
while (($#)); do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --url) [[ $# -ge 2 ]] || die "--url needs a value"; URL="${2%/}"; shift 2 ;;
    --bootstrap) [[ $# -ge 2 ]] || die "--bootstrap needs a value"; BOOTSTRAP="$2"; shift 2 ;;
    --topic) [[ $# -ge 2 ]] || die "--topic needs a value"; TOPIC="$2"; shift 2 ;;
    --repetitions) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "--repetitions needs a positive number"; REPETITIONS="$2"; shift 2 ;;
    --test) [[ $# -ge 2 && "$2" =~ ^(1|2|all)$ ]] || die "--test needs 1, 2 or all"; TESTS="$2"; shift 2 ;;
    --duration) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "--duration needs a positive number of ms"; DURATION="$2"; shift 2 ;;
    --json) [[ $# -ge 2 ]] || die "--json needs a file"; JSON_OUT="$2"; shift 2 ;;
    --endpoint) [[ $# -ge 2 && "$2" =~ ^(http|sse)$ ]] || die "--endpoint needs http or sse"; ENDPOINT="$2"; shift 2 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
DIE_STATUS=1

require_stack "$URL"
DIE_STATUS=3 bullet_classpath

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bullet-latency.XXXXXX")"
QUERY_PID=""
cleanup() {
  if [[ -n "$QUERY_PID" ]]; then
    pkill -P "$QUERY_PID" 2>/dev/null || true
    kill "$QUERY_PID" 2>/dev/null || true
  fi
  feeder_stop || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

feeder_start "$WORK" "$BOOTSTRAP" "$TOPIC"
echo "Warming up (record generator, pipeline) ..."
await_queries_registered "$URL" 90 "$WORK"

# Submits query $2 to the REST service at $1 in the background (QUERY_PID) through $ENDPOINT; the final result goes
# to $3 (for sse-query: the last event's data), the HTTP status to $3.code and the time curl ended to $3.time (ms; a
# few ms late at most: curl's exit and a date).
start_query() {
  local url="$1" query="$2" out="$3" max_time="$4"
  (
    if [[ "$ENDPOINT" == sse ]]; then
      curl -s -N -o "$out.sse" -w '%{http_code}\n' --max-time "$max_time" -X POST \
        "$url/api/bullet/queries/sse-query" -H 'Content-Type: application/json' --data-binary "$query" \
        > "$out.w" 2> "$out.err" || true
      now_ms > "$out.time"
      sed -n 's/^data: \{0,1\}//p' "$out.sse" 2>/dev/null | tail -n 1 > "$out"
    else
      curl -s -o "$out" -w '%{http_code}\n' --max-time "$max_time" -X POST \
        "$url/api/bullet/queries/http-query" -H 'Content-Type: application/json' --data-binary "$query" \
        > "$out.w" 2> "$out.err" || true
      now_ms > "$out.time"
    fi
    head -n 1 "$out.w" > "$out.code"
  ) &
  QUERY_PID=$!
}

# One repetition: submits $1 (whose running entry matches the jq condition $2), then feeds the record made by the
# function named $3 until the query answers (a record that raced ahead of the query is simply sent again, with a
# fresh timestamp). Appends the delays to the files of test $4. Returns 1 if the query did not answer in time.
run_once() {
  local query="$1" match="$2" make_record="$3" test="$4" out="$WORK/rep.json"
  rm -f "$out" "$out.code" "$out.time" "$out.sse"
  start_query "$URL" "$query" "$out" $(( DURATION / 1000 + 30 ))
  local deadline=$(( $(date +%s) + DURATION / 1000 + 30 ))
  until [[ "$(count_running "$URL" "$match")" -ge 1 ]]; do
    kill -0 "$QUERY_PID" 2>/dev/null || break
    (( $(date +%s) < deadline )) || break
    sleep 0.02
  done
  while kill -0 "$QUERY_PID" 2>/dev/null; do
    feed_record "$("$make_record")"
    local i
    for ((i = 0; i < 50; i++)); do
      kill -0 "$QUERY_PID" 2>/dev/null || break
      sleep 0.02
    done
  done
  wait "$QUERY_PID" 2>/dev/null || true
  QUERY_PID=""
  if [[ "$(cat "$out.code" 2>/dev/null)" != 200 ]] || ! jq -e '(.records | length) == 1' "$out" > /dev/null 2>&1; then
    echo "  no record: HTTP $(cat "$out.code" 2>/dev/null || echo none) $(head -c 200 "$out" 2>/dev/null)" >&2
    return 1
  fi
  jq -r '.meta.query_receive_time as $r | .records[0] |
         [(.timestamp // empty) - $r] | map(tostring) | .[]' "$out" >> "$WORK/$test.kafka" || true
  jq -r '.meta.query_receive_time as $r | .records[0] |
         [(.bullet_project_timestamp // empty) - $r] | map(tostring) | .[]' "$out" >> "$WORK/$test.filtered" || true
  jq -r '.meta.query_finish_time - .meta.query_receive_time' "$out" >> "$WORK/$test.finished"
  if [[ "$test" == test2 ]]; then
    jq -r '.meta.query_finish_time - .records[0].timestamp' "$out" >> "$WORK/$test.found"
    jq -r --argjson ended "$(cat "$out.time" 2>/dev/null || echo null)" \
      'select($ended != null) | $ended - .records[0].timestamp' "$out" >> "$WORK/$test.client" || true
  fi
  return 0
}

# p50 and p99 (nearest rank) of the numbers in file $1, or "n/a".
percentiles() {
  if [[ ! -s "$1" ]]; then
    printf '%10s %10s' n/a n/a
    return
  fi
  jq -rs 'sort | length as $n | [.[((0.5 * $n) | ceil) - 1], .[((0.99 * $n) | ceil) - 1]] | @tsv' "$1" |
    awk -F'\t' '{ printf "%10.1f %10.1f", $1, $2 }'
}

report() {
  local test="$1" title="$2" answered="$3"
  echo
  echo "$title: $answered of $REPETITIONS repetitions answered"
  printf '  %-46s %10s %10s\n' "delay relative to Query Received (ms)" p50 p99
  printf '  %-46s %s\n' "Kafka Received (record timestamp)" "$(percentiles "$WORK/$test.kafka")"
  printf '  %-46s %s%s\n' "Bullet Filtered" "$(percentiles "$WORK/$test.filtered")" \
    "$([[ -s "$WORK/$test.filtered" ]] || echo '   (enable bullet.record.inject.timestamp.enable)')"
  printf '  %-46s %s\n' "Query Finished" "$(percentiles "$WORK/$test.finished")"
  if [[ "$test" == test2 ]]; then
    printf '  %-46s %s\n' "record sent -> Query Finished (time to find)" "$(percentiles "$WORK/$test.found")"
    printf '  %-46s %s\n' "record sent -> result at the client ($ENDPOINT)" "$(percentiles "$WORK/$test.client")"
  fi
}

any_record() {
  printf '{"id":"latency-%s","timestamp":%s}' "$(random_id)" "$(now_ms)"
}

wanted_record() {
  printf '{"id":"%s","timestamp":%s}' "$WANTED" "$(now_ms)"
}

JSON_OUT="${JSON_OUT:-}"
failed=0
if [[ "$TESTS" == 1 || "$TESTS" == all ]]; then
  echo "Test 1: minimum latency, $REPETITIONS repetitions ..."
  answered=0
  for ((rep = 1; rep <= REPETITIONS; rep++)); do
    # The duration tells this repetition's query apart in GET /api/bullet/queries.
    d=$(( DURATION + rep ))
    if run_once "{\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":$d}" \
        ".query.duration == $d and (.query.filters == null)" any_record test1; then
      answered=$((answered + 1))
    fi
  done
  report test1 "Test 1 (minimum latency: RAW, no filter, LIMIT 1)" "$answered"
  (( answered == REPETITIONS )) || failed=1
fi
if [[ "$TESTS" == 2 || "$TESTS" == all ]]; then
  echo
  echo "Test 2: time to find a generated record, $REPETITIONS repetitions ..."
  answered=0
  for ((rep = 1; rep <= REPETITIONS; rep++)); do
    WANTED="$(random_id)"
    if run_once "{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"$WANTED\"]}],\"aggregation\":{\"type\":\"RAW\",\"size\":1},\"duration\":$DURATION}" \
        ".query.filters[0].values[0] == \"$WANTED\"" wanted_record test2; then
      answered=$((answered + 1))
    fi
  done
  report test2 "Test 2 (time to find a generated record)" "$answered"
  (( answered == REPETITIONS )) || failed=1
fi
if [[ -n "$JSON_OUT" ]]; then
  # {"test1": {"finished": {"p50": x, "p99": y, "n": k}, ...}, ...}
  for f in "$WORK"/test*.*; do
    [[ -s "$f" ]] || continue
    name="$(basename "$f")"
    jq -s --arg t "${name%%.*}" --arg m "${name#*.}" 'sort | length as $n |
      {($t): {($m): {p50: .[((0.5 * $n) | ceil) - 1], p99: .[((0.99 * $n) | ceil) - 1], n: $n}}}' "$f"
  done | jq -s --argjson reps "$REPETITIONS" 'reduce .[] as $x ({}; . * $x) |
      {benchmark: "P1/P2 (latency.sh)", repetitions: $reps, unit: "ms relative to query_receive_time",
       date: (now | todate)} + .' > "$JSON_OUT"
  echo "wrote $JSON_OUT"
fi
exit "$failed"
