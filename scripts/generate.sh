#!/usr/bin/env bash
# Data generator for the Bullet firehose topic (SPEC §9): synthetic ~1.8 KiB JSON records into Kafka at a
# fixed rate, into a file, or the lines of a file sent once. `generate.sh --help` lists the flags.
# Runs the compiled classes of this repository (built first when missing or older than the sources).
# Environment: JAVA_HOME (optional), GENERATOR_JAVA_OPTS (JVM flags, default "-Xmx256m -XX:+UseSerialGC
# -XX:TieredStopAtLevel=1 -Xshare:auto -XX:-UsePerfData" and no Kafka client logs: a quick start matters more than
# peak speed; pass other flags for --rate max).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLASSES="$REPO/target/classes"
CLASSPATH_FILE="$REPO/target/classpath.txt"
MAIN_CLASS=dev.bullet.generator.GeneratorMain

fail() {
  echo "generate.sh: $*" >&2
  exit 1
}

if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
  JAVA="$(command -v java)"
else
  fail "Java 17 or newer is required, but 'java' is not on the PATH (and JAVA_HOME is not set)."
fi
JAVA_MAJOR="$("$JAVA" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)"
if [[ -z "$JAVA_MAJOR" || "$JAVA_MAJOR" -lt 17 ]]; then
  fail "Java 17 or newer is required, found: $("$JAVA" -version 2>&1 | head -n 1)"
fi

# Builds the project first when target/ is missing or older than the sources (progress on stderr).
source "$REPO/scripts/lib.sh"
bullet_build

# Kafka's client logs go to stderr, warnings and errors only, so stdout carries only data (--out -).
LOG_CONFIG="$REPO/target/log4j2-generate.xml"
if [[ ! -s "$LOG_CONFIG" ]]; then
  TMP_CONFIG="$(mktemp "$REPO/target/log4j2-generate.XXXXXX")"
  cat > "$TMP_CONFIG" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="WARN">
  <Appenders>
    <Console name="Stderr" target="SYSTEM_ERR"><PatternLayout pattern="%d{HH:mm:ss.SSS} %-5p %c{1} - %msg%n"/></Console>
  </Appenders>
  <Loggers>
    <Logger name="org.apache.kafka" level="ERROR"/>
    <Root level="WARN"><AppenderRef ref="Stderr"/></Root>
  </Loggers>
</Configuration>
XML
  mv -f "$TMP_CONFIG" "$LOG_CONFIG"
fi

# shellcheck disable=SC2086  # GENERATOR_JAVA_OPTS is a list of flags
# The generator reports its own problems on stderr; Kafka's client logs go nowhere by default (SLF4J's no-op
# provider): setting up log4j was a quarter of the JVM's start. Any GENERATOR_JAVA_OPTS without that provider brings
# them back (errors only, through log4j).
exec "$JAVA" ${GENERATOR_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -XX:-UsePerfData \
  -Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider -Dslf4j.internal.verbosity=WARN} \
  -Dlog4j2.configurationFile="$LOG_CONFIG" \
  -cp "$CLASSES:$(cat "$CLASSPATH_FILE")" \
  "$MAIN_CLASS" "$@"
