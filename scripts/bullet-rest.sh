#!/usr/bin/env bash
# The REST service on its own (SPEC §7.2), for a topology running elsewhere on the same Kafka PubSub.
# `bullet-rest.sh --help` lists the flags. Builds the project first if needed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BULLET_JAVA_OPTS="${BULLET_JAVA_OPTS:--Xmx512m}" bullet_java dev.bullet.rest.RestMain "$@"
