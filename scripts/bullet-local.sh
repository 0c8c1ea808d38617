#!/usr/bin/env bash
# Local stack: an embedded Kafka broker (127.0.0.1:9092) and the Bullet topology in Storm local mode.
# Ctrl-C stops everything. (The REST service joins this script with the REST issue.)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BULLET_JAVA_OPTS="${BULLET_JAVA_OPTS:--Xmx1536m -Dstorm.jar=$BULLET_HOME/pom.xml}" bullet_java dev.bullet.local.LocalMain "$@"
