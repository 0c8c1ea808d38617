#!/usr/bin/env bash
# The seed's Test 3 on one machine (SPEC §9): N simultaneous RAW queries for a fresh id through the REST service,
# then the 10 matching records, then jq checks that every query returned all 10. Prints a summary; exit 0 = pass.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<USAGE
Usage: raw-query-validation.sh N [--url URL] [--bootstrap HOST:PORT] [--topic NAME] [--duration MS] [--help]

The seed's Test 3 ("maximum number of parallel RAW queries") against a running stack (scripts/bullet-local.sh):
  1. starts N copies of the seed's query for a fresh id X, all at once, through POST /api/bullet/queries/http-query:
     {"filters":[{"field":"id","operation":"==","values":["X"]}],"aggregation":{"type":"LIMIT","size":10},"duration":MS}
  2. waits until all N run in the topology (a probe query sent after them finds a marker record),
  3. sends the 10 records with id X into the firehose topic (scripts/generate.sh --records),
  4. waits for the N results and checks with jq that each one holds all 10 records.

  N                     number of simultaneous queries (each is one curl process; mind 'ulimit -u' for thousands)
  --url URL             the REST service (default http://127.0.0.1:9999)
  --bootstrap H:P       Kafka, for the records (default 127.0.0.1:9092)
  --topic NAME          the firehose topic (default bullet.records)
  --duration MS         the queries' duration (default 30000, as in the seed)
  --keep                keep the results (one JSON file per query) and print where they are
  --help                this text

Needs curl, jq, Java and the build (mvn -B -q package -DskipTests).
Exit codes: 0 every query got all 10 records; 1 some did not; 2 bad command line; 3 missing tool or stack not running.
USAGE
}

URL="http://127.0.0.1:9999"
BOOTSTRAP="127.0.0.1:9092"
TOPIC="bullet.records"
DURATION=30000
N=""
KEEP=""
DIE_STATUS=2
while (($#)); do
  case "$1" in
    --help|-h) usage; exit 0 ;;
    --url) [[ $# -ge 2 ]] || die "--url needs a value"; URL="${2%/}"; shift 2 ;;
    --bootstrap) [[ $# -ge 2 ]] || die "--bootstrap needs a value"; BOOTSTRAP="$2"; shift 2 ;;
    --topic) [[ $# -ge 2 ]] || die "--topic needs a value"; TOPIC="$2"; shift 2 ;;
    --duration) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "--duration needs a positive number of ms"; DURATION="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [[ -z "$N" ]] || die "unexpected argument '$1' (see --help)"; N="$1"; shift ;;
  esac
done
[[ -n "$N" ]] || { usage >&2; die "N, the number of queries, is missing"; }
[[ "$N" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, got '$N'"
DIE_STATUS=1

require_stack "$URL"
DIE_STATUS=3 bullet_classpath # generate.sh needs the build; say so now rather than after starting N queries

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bullet-raw-validation.XXXXXX")"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  feeder_stop || true
  if [[ -n "$KEEP" ]]; then
    echo "The results are in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ID="$(random_id)"
QUERY="{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"$ID\"]}],\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":$DURATION}"
MAX_TIME=$(( DURATION / 1000 + 60 ))
started=$(date +%s)

feeder_start "$WORK" "$BOOTSTRAP" "$TOPIC"
echo "Starting $N simultaneous RAW queries (LIMIT 10, ${DURATION} ms) for the fresh id $ID at $URL ..."
for ((i = 1; i <= N; i++)); do
  start_http_query "$URL" "$QUERY" "$WORK/q$i.json" "$MAX_TIME"
  PIDS+=("$QUERY_PID")
done

# 1. every query is running (or has failed already: then it will show below)
deadline=$(( $(date +%s) + 60 ))
while :; do
  running="$(count_running "$URL" ".query.filters[0].values[0] == \"$ID\"")"
  [[ "$running" -ge "$N" ]] && break
  finished=0
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || finished=$((finished + 1)); done
  (( running + finished >= N )) && break
  (( $(date +%s) < deadline )) || { echo "only $running of $N queries are running after 60 s" >&2; break; }
  sleep 0.2
done
echo "$running of $N queries are running ($(( $(date +%s) - started )) s); checking that the topology has them ..."

# 2. they reached the Filter tasks, and records flow
await_queries_registered "$URL" 60 "$WORK"

# 3. the 10 records
echo "Sending the 10 records with id $ID to $TOPIC at $BOOTSTRAP ($(( $(date +%s) - started )) s) ..."
for ((k = 0; k < 10; k++)); do
  feed_record "{\"id\":\"$ID\",\"timestamp\":$(now_ms),\"seq\":$k}"
done

# 4. the results
for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
PIDS=()
pass=0
failures=()
for ((i = 1; i <= N; i++)); do
  code="$(cat "$WORK/q$i.json.code" 2>/dev/null || true)"
  if [[ "$code" == 200 ]] && jq -e --arg id "$ID" \
      '(.records | length) == 10 and ([.records[].id] | all(. == $id)) and ([.records[].seq] | sort) == [range(10)]' \
      "$WORK/q$i.json" > /dev/null 2>&1; then
    pass=$((pass + 1))
  else
    got="$(jq -r '.records | length' "$WORK/q$i.json" 2>/dev/null || echo '?')"
    error="$(jq -r '.meta.errors[0].error // empty' "$WORK/q$i.json" 2>/dev/null | head -c 200 || true)"
    curl_error=""
    if [[ -s "$WORK/q$i.json.err" ]]; then curl_error=" (curl: $(head -c 200 "$WORK/q$i.json.err"))"; fi
    failures+=("query $i: HTTP ${code:-none}, $got records${error:+: $error}$curl_error")
  fi
done
elapsed=$(( $(date +%s) - started ))

if (( pass == N )); then
  echo "PASS: all $N simultaneous RAW queries returned all 10 records of id $ID (${elapsed} s)"
  exit 0
fi
echo "FAIL: $pass of $N queries returned all 10 records of id $ID; $((N - pass)) did not (${elapsed} s):"
for f in "${failures[@]:0:10}"; do echo "  $f"; done
(( ${#failures[@]} > 10 )) && echo "  ... and $(( ${#failures[@]} - 10 )) more"
exit 1
