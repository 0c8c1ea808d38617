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
     (curl runs up to $CHUNK of them per process with --parallel; each answer goes to its own file),
  2. waits until all N run (GET /api/bullet/queries) and have reached the topology (a probe query sent after them
     finds a marker record),
  3. sends the 10 records with id X into the firehose topic once (scripts/generate.sh --records),
  4. waits for the N results and checks with jq that each one holds all 10 records.

  N                     number of simultaneous queries
  --url URL             the REST service (default http://127.0.0.1:9999)
  --bootstrap H:P       Kafka, for the records (default 127.0.0.1:9092)
  --topic NAME          the firehose topic (default bullet.records)
  --duration MS         the queries' duration (default 30000, as in the seed)
  --keep                keep the results (one JSON file per query) and print where they are
  --help                this text

Needs curl (7.68+, for --parallel), jq and Java; builds the project first if needed.
Exit codes: 0 every query got all 10 records; 1 some did not; 2 bad command line; 3 missing tool or stack not running.
USAGE
}

CHUNK=250 # transfers per curl process (curl runs at most 300 at once)
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
curl --help all 2>/dev/null | grep -q -- '--parallel-immediate' \
  || DIE_STATUS=3 die "this curl ($(curl --version | head -n 1 | cut -d' ' -f2)) lacks --parallel: curl 7.68 or newer is needed"
DIE_STATUS=3 bullet_classpath # generate.sh needs the build; do it now rather than after starting N queries

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
printf '{"filters":[{"field":"id","operation":"==","values":["%s"]}],"aggregation":{"type":"LIMIT","size":10},"duration":%s}' \
  "$ID" "$DURATION" > "$WORK/query.json"
MAX_TIME=$(( DURATION / 1000 + 120 ))
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }

# The record generator starts (a JVM) while the queries go out.
feeder_start "$WORK" "$BOOTSTRAP" "$TOPIC"

# 1. N queries: curl config files of CHUNK transfers each; one curl process per file runs them all at once.
echo "Starting $N simultaneous RAW queries (LIMIT 10, ${DURATION} ms) for the fresh id $ID at $URL ..."
mkdir -p "$WORK/results"
for ((i = 1; i <= N; i++)); do
  conf="$WORK/curl-$(( (i - 1) / CHUNK )).conf"
  [[ -s "$conf" ]] && echo next >> "$conf" # separates the transfers of one file
  printf 'url = "%s/api/bullet/queries/http-query"\nrequest = "POST"\nheader = "Content-Type: application/json"\ndata-binary = "@%s"\noutput = "%s"\nmax-time = %s\nwrite-out = "%%{http_code} %%{filename_effective}\\n"\n' \
    "$URL" "$WORK/query.json" "$WORK/results/q$i.json" "$MAX_TIME" >> "$conf"
done
for conf in "$WORK"/curl-*.conf; do
  curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max "$CHUNK" --config "$conf" > "${conf%.conf}.codes" 2> "${conf%.conf}.err" &
  PIDS+=("$!")
done

# 2. every query is running (or has failed already: then it shows below), and has reached the Filter tasks
deadline=$(( $(date +%s) + 60 + N / 100 ))
last_print=0
while :; do
  running="$(count_running "$URL" ".query.filters[0].values[0] == \"$ID\"")"
  answered="$(find "$WORK/results" -name 'q*.json' -size +0 | wc -l)"
  (( running + answered >= N )) && break
  if (( $(date +%s) - last_print >= 2 )); then
    echo "  $running of $N queries running ($(elapsed))"
    last_print=$(date +%s)
  fi
  (( $(date +%s) < deadline )) || { echo "only $running of $N queries are running after $(elapsed)" >&2; break; }
  sleep 0.5
done
echo "$running of $N queries are running ($(elapsed)); checking that the topology has them ..."
await_queries_registered "$URL" 60 "$WORK"

# 3. the 10 records, once
echo "Sending the 10 records with id $ID to $TOPIC at $BOOTSTRAP ($(elapsed)) ..."
for ((k = 0; k < 10; k++)); do
  feed_record "{\"id\":\"$ID\",\"timestamp\":$(now_ms),\"seq\":$k}"
done

# 4. the results, then one jq over all of them: "ok" or the problem, per file
while :; do
  answered="$(find "$WORK/results" -name 'q*.json' -size +0 | wc -l)"
  alive=0
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); done
  (( alive == 0 )) && break
  echo "  $answered of $N queries answered ($(elapsed))"
  sleep 2
done
for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
PIDS=()
echo "Checking the $N results with jq ..."
# Each file is read as raw lines and parsed here, so a body that is not JSON is one failure, not a jq error; jq joins
# a last line without a newline to the next file's first, so every file gets one.
for f in "$WORK"/results/q*.json; do [[ -e "$f" ]] && echo >> "$f"; done
(cd "$WORK/results" && find . -name 'q*.json' -print0 | xargs -0 jq -nRr --arg id "$ID" '
  reduce inputs as $line ({}; .[input_filename] += $line) | to_entries[] | .key as $file |
  (.value | fromjson? // null) as $r |
  if $r == null then "\($file) not JSON: \(.value[0:200])"
  elif (($r.records // []) | length) == 10 and ([$r.records[].id] | all(. == $id))
       and ([$r.records[].seq] | sort) == [range(10)] then "\($file) ok"
  else "\($file) \($r.records // [] | length) records\(if $r.meta.errors then ": " + ($r.meta.errors[0].error // "" | tostring) else "" end)"
  end') > "$WORK/checked.txt"
pass="$(grep -c ' ok$' "$WORK/checked.txt" || true)"

if (( pass == N )); then
  echo "PASS: all $N simultaneous RAW queries returned all 10 records of id $ID ($(elapsed))"
  exit 0
fi
failures=()
while read -r code file; do
  [[ "$code" == 200 ]] || failures+=("${file##*/}: HTTP $code$(head -c 200 "$file" 2>/dev/null | tr '\n' ' ' | sed 's/^/: /')")
done < <(cat "$WORK"/curl-*.codes)
while read -r file what; do
  [[ "$what" == ok ]] || failures+=("${file##*/}: $what")
done < "$WORK/checked.txt"
missing=$(( N - $(wc -l < "$WORK/checked.txt") ))
(( missing > 0 )) && failures+=("$missing queries have no answer file (curl: $(cat "$WORK"/curl-*.err | sort -u | head -c 300))")
echo "FAIL: $pass of $N queries returned all 10 records of id $ID; $((N - pass)) did not ($(elapsed)):"
for f in "${failures[@]:0:10}"; do echo "  $f"; done
(( ${#failures[@]} > 10 )) && echo "  ... and $(( ${#failures[@]} - 10 )) more"
exit 1
