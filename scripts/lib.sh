# Shared helpers for the scripts in this folder. Source it; do not run it.
# Resolves the repository from the script's own location, so scripts work from any directory.

BULLET_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() {
  echo "error: $*" >&2
  exit "${DIE_STATUS:-1}"
}

require_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' is needed but not installed (${2:-install it with your package manager})"
}

# Sets BULLET_CP to the project's classes plus its runtime (and local-mode) dependencies.
bullet_classpath() {
  require_cmd java "a Java 17 runtime, e.g. apt-get install openjdk-17-jre-headless"
  local classes="$BULLET_HOME/target/classes" cpfile="$BULLET_HOME/target/classpath.txt"
  if [[ ! -d "$classes" || ! -f "$cpfile" ]]; then
    die "the project is not built yet: run 'mvn -B -q package -DskipTests' in $BULLET_HOME first"
  fi
  BULLET_CP="$classes:$(cat "$cpfile")"
}

bullet_java() {
  bullet_classpath
  exec java ${BULLET_JAVA_OPTS:--Xmx1g} -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" -cp "$BULLET_CP" "$@"
}
