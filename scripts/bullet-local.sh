#!/usr/bin/env bash
# The one-command local stack (SPEC §9): an embedded Kafka broker (127.0.0.1:9092), the Bullet topology in Storm
# local mode (or, with --cluster [--supervisors N], on a real multi-process Storm cluster: scripts/storm-cluster.sh),
# the REST service (http://127.0.0.1:9999/api/bullet) and a sample data generator.
# Prints where to send queries and an example curl, then "BULLET_READY rest=URL kafka=HOST:PORT".
# Ctrl-C (SIGINT) or SIGTERM stops everything. `bullet-local.sh --help` lists the flags.
# Builds the project first when target/ is missing or older than the sources (scripts/lib.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bullet_classpath
# The JVM replaces this shell (exec), so a signal to this script's pid reaches it and nothing is left behind.
# A job started with '&' by a non-interactive shell inherits SIGINT as ignored, and neither bash nor the JVM can
# handle an ignored signal; perl (always there on Debian) puts it back to default before starting Java.
# shellcheck disable=SC2086  # BULLET_JAVA_OPTS is a list of flags
# C1 only (TieredStopAtLevel=1): the local stack idles at a fraction of the CPU, without C2 recompiling for minutes.
set -- java ${BULLET_JAVA_OPTS:--Xmx1536m -XX:TieredStopAtLevel=1} -Dstorm.jar="$BULLET_HOME/pom.xml" \
  -Dbullet.home="$BULLET_HOME" -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" -cp "$BULLET_CP" \
  dev.bullet.local.LocalMain "$@"
if command -v perl >/dev/null 2>&1; then
  exec perl -e '$SIG{INT} = "DEFAULT"; exec { $ARGV[0] } @ARGV or die "bullet-local.sh: cannot run java: $!\n"' "$@"
fi
exec "$@"
