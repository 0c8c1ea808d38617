#!/usr/bin/env bash
# A real multi-process Storm cluster on this machine from Maven Central jars (no Storm distribution needed):
# ZooKeeper, Nimbus and N Supervisors as separate JVMs (each its own "machine": slots and local directory), the
# supervisors launching real worker JVMs.
# For trying the topology the way `storm jar` runs it, with one or more workers.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  cat <<USAGE
Usage: storm-cluster.sh start [--supervisors N] | submit [BulletTopologyMain flags...] [-c key=value ...]
                        | list | workers | kill NAME | rebalance NAME [Storm rebalance options] | stop | --help

  start    build \$STORM_HOME (first time: Maven Central), start ZooKeeper, Nimbus and N Supervisors (default 1),
           each with its own slots (the worker ports split evenly) and local directory; wait until ready
  submit   the equivalent of 'storm jar target/bullet-storm-*.jar dev.bullet.storm.BulletTopologyMain ...'
  list     the running topologies
  workers  one line per running worker: PORT PID COMPONENTS (the components with tasks in it, comma-separated)
  kill     kill a topology (wait 1 s)
  rebalance  'storm rebalance NAME [-w secs] [-n workers] ...' (org.apache.storm.command.Rebalance)
  stop     stop workers, supervisors, nimbus and ZooKeeper (in that order)

Environment (all optional):
  STORM_HOME       where the cluster lives (default $BULLET_HOME/target/storm-home)
  STORM_ZK_PORT    ZooKeeper port (2181)      STORM_NIMBUS_PORT  Nimbus thrift port (6627)
  STORM_SUP_PORT   first Supervisor's thrift port (6628; the next ones +1 each)
  STORM_SLOTS      worker ports of all Supervisors, comma-separated (6700,...,6711), split evenly among them
Logs: \$STORM_HOME/logs (daemons), \$STORM_HOME/logs/workers-artifacts/<topology-id>/<port>/worker.log (workers).
The scheduler is Storm's default one, which honours topology.workers (the Resource Aware Scheduler ignores it).
USAGE
}

H="${STORM_HOME:-$BULLET_HOME/target/storm-home}"
ZK_PORT="${STORM_ZK_PORT:-2181}"
NIMBUS_PORT="${STORM_NIMBUS_PORT:-6627}"
SUP_PORT="${STORM_SUP_PORT:-6628}"
SLOTS="${STORM_SLOTS:-6700,6701,6702,6703,6704,6705,6706,6707,6708,6709,6710,6711}"
RUN="$H/run"
DAEMON_CP="$H/lib/*:$H/conf"
CLIENT_CP="$H/lib-worker/*:$H/conf"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

await() { # await SECONDS DESCRIPTION COMMAND...
  local seconds="$1" what="$2"; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    (( SECONDS < deadline )) || die "timed out after ${seconds}s waiting for $what (logs in $H/logs)"
    sleep 0.2
  done
}

write_storm_yaml() { # FILE LOCAL_DIR SUPERVISOR_PORT "SLOT, SLOT, ..."
  cat > "$1" <<YAML
storm.zookeeper.servers: ["127.0.0.1"]
storm.zookeeper.port: $ZK_PORT
nimbus.seeds: ["127.0.0.1"]
nimbus.thrift.port: $NIMBUS_PORT
supervisor.thrift.port: $3
storm.local.hostname: "127.0.0.1"
storm.local.dir: "$2"
# What Storm lets us bind to loopback is bound there (ZooKeeper: zookeeper.cfg). Nimbus's and the Supervisors' thrift
# ports and the workers' netty ports have no bind address in Storm 2.8: they listen on every interface (README:
# "Ports and interfaces"). The UI, logviewer and DRPC are not started here; were one started, it would stay local.
ui.host: "127.0.0.1"
supervisor.slots.ports: [$4]
worker.childopts: "-Xmx%HEAP-MEM%m -XX:+HeapDumpOnOutOfMemoryError"
supervisor.memory.capacity.mb: 8192.0
supervisor.cpu.capacity: 1000.0
nimbus.monitor.freq.secs: 2
# a worker that died (kill -9, crash) is restarted after this long without a heartbeat (default 30)
supervisor.worker.timeout.secs: 10
YAML
}

# Supervisor I of N (0-based): its share of the slots, its own thrift port, local directory and config file.
supervisor_yaml() {
  local i="$1" n="$2" slots="" k
  IFS=',' read -ra ports <<< "$SLOTS"
  local per=$(( ${#ports[@]} / n ))
  (( per >= 1 )) || die "$n supervisors need at least $n worker ports in STORM_SLOTS (have ${#ports[@]})"
  for ((k = i * per; k < (i + 1) * per; k++)); do slots+="${slots:+, }${ports[$k]}"; done
  write_storm_yaml "$H/conf/supervisor-$i.yaml" "$H/storm-local-sup$i" "$((SUP_PORT + i))" "$slots"
}

build_home() {
  if [[ ! -f "$H/lib/storm-server-2.8.3.jar" || ! -f "$H/lib-worker/storm-client-2.8.3.jar" ]]; then
    require_cmd mvn "Apache Maven"
    echo "building $H from Maven Central ..." >&2
    mvn -B -q -f "$BULLET_HOME/conf/storm-home/pom.xml" -P lib dependency:copy-dependencies -DoutputDirectory="$H/lib" >&2
    mvn -B -q -f "$BULLET_HOME/conf/storm-home/pom.xml" -P lib-worker dependency:copy-dependencies -DoutputDirectory="$H/lib-worker" >&2
  fi
  mkdir -p "$H/conf" "$H/log4j2" "$H/logs" "$RUN"
  local slots=""
  IFS=',' read -ra ports <<< "$SLOTS"
  for p in "${ports[@]}"; do slots+="${slots:+, }$p"; done
  # the config of Nimbus and the clients; each Supervisor gets its own (supervisor_yaml)
  write_storm_yaml "$H/conf/storm.yaml" "$H/storm-local" "$SUP_PORT" "$slots"
  cat > "$H/log4j2/cluster.xml" <<'XML'
<Configuration monitorInterval="60" shutdownHook="disable">
  <Appenders>
    <File name="A1" fileName="${sys:storm.log.dir}/${sys:logfile.name}">
      <PatternLayout pattern="%d{yyyy-MM-dd HH:mm:ss.SSS} %c{1.} %t [%p] %msg%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="org.apache.storm.shade" level="WARN"/>
    <Root level="INFO"><AppenderRef ref="A1"/></Root>
  </Loggers>
</Configuration>
XML
  cat > "$H/log4j2/worker.xml" <<'XML'
<Configuration monitorInterval="60" shutdownHook="disable">
  <Properties><Property name="dir">${sys:workers.artifacts}/${sys:storm.id}/${sys:worker.port}</Property></Properties>
  <Appenders>
    <File name="A1" fileName="${dir}/${sys:logfile.name}"><PatternLayout pattern="%d{yyyy-MM-dd HH:mm:ss.SSS} %c{1.} %t [%p] %msg%n"/></File>
    <File name="STDOUT" fileName="${dir}/${sys:logfile.name}.out"><PatternLayout pattern="%msg%n"/></File>
    <File name="STDERR" fileName="${dir}/${sys:logfile.name}.err"><PatternLayout pattern="%msg%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="org.apache.storm.shade" level="WARN"/>
    <Logger name="STDOUT" level="INFO" additivity="false"><AppenderRef ref="STDOUT"/></Logger>
    <Logger name="STDERR" level="INFO" additivity="false"><AppenderRef ref="STDERR"/></Logger>
    <Root level="INFO"><AppenderRef ref="A1"/></Root>
  </Loggers>
</Configuration>
XML
}

daemon_opts() { # name [storm.conf.file]
  echo "-server -Ddaemon.name=$1 -Dstorm.options= -Dstorm.home=$H -Dstorm.log.dir=$H/logs -Dstorm.conf.file=${2:-} -Dlogfile.name=$1.log -Dlog4j.configurationFile=$H/log4j2/cluster.xml"
}

start_daemon() { # name heap main-class [storm.conf.file [main arguments...]]
  local name="$1" heap="$2" main="$3" conf="${4:-}"
  shift $(($# < 4 ? $# : 4))
  # shellcheck disable=SC2046
  nohup java $(daemon_opts "$name" "$conf") "$heap" -cp "$DAEMON_CP" "$main" "$@" > "$RUN/$name.out" 2>&1 &
  echo $! > "$RUN/$name.pid"
}

# ZooKeeper standalone on 127.0.0.1 only, its admin HTTP server off (it would listen on 0.0.0.0:8080).
write_zookeeper_cfg() {
  cat > "$H/conf/zookeeper.cfg" <<CFG
tickTime=2000
dataDir=$H/dev-zk
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok
CFG
}

stop_pid_file() { # FILE: TERM, wait up to 15 s, then KILL
  local pid
  pid="$(cat "$1")"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$1"
}

kill_workers() { # SIGNAL
  local p
  for p in "$H"/storm-local*/workers/*/pids/*; do [[ -e "$p" ]] && kill "-$1" "$(basename "$p")" 2>/dev/null || true; done
}

cmd="${1:-}"
[[ -n "$cmd" ]] || { usage >&2; DIE_STATUS=2 die "a command is needed"; }
shift || true
case "$cmd" in
  --help|-h) usage ;;
  start)
    supervisors=1
    while (($#)); do
      case "$1" in
        --supervisors) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || DIE_STATUS=2 die "--supervisors needs a number >= 1"
                       supervisors="$2"; shift 2 ;;
        *) DIE_STATUS=2 die "unknown start option '$1'" ;;
      esac
    done
    require_cmd java "a Java 17 runtime"
    for port in "$ZK_PORT" "$NIMBUS_PORT" $(seq "$SUP_PORT" $((SUP_PORT + supervisors - 1))); do
      ! port_open "$port" || die "port $port is in use (another cluster running? try: storm-cluster.sh stop)"
    done
    build_home
    rm -rf "$H"/storm-local* "$H/dev-zk" "$H/storm_rocks" "$H"/logs/* "$H"/conf/supervisor-*.yaml
    mkdir -p "$H/logs"
    for ((i = 0; i < supervisors; i++)); do supervisor_yaml "$i" "$supervisors"; done
    write_zookeeper_cfg
    start_daemon zookeeper -Xmx256m org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServerMain \
      "" "$H/conf/zookeeper.cfg"
    await 60 "ZooKeeper on $ZK_PORT" port_open "$ZK_PORT"
    start_daemon nimbus -Xmx512m org.apache.storm.daemon.nimbus.Nimbus
    for ((i = 0; i < supervisors; i++)); do
      start_daemon "supervisor-$i" -Xmx192m org.apache.storm.daemon.supervisor.Supervisor "$H/conf/supervisor-$i.yaml"
    done
    await 120 "Nimbus on $NIMBUS_PORT" port_open "$NIMBUS_PORT"
    for ((i = 0; i < supervisors; i++)); do
      await 120 "Supervisor $i on $((SUP_PORT + i))" port_open "$((SUP_PORT + i))"
    done
    await 120 "Nimbus to lead" grep -qs "Accepting leadership" "$H/logs/nimbus.log"
    echo "STORM_CLUSTER_READY nimbus=127.0.0.1:$NIMBUS_PORT supervisors=$supervisors home=$H"
    ;;
  submit)
    bullet_classpath
    jar="$(ls "$BULLET_HOME"/target/bullet-storm-*.jar 2>/dev/null | grep -v original- | head -1)"
    [[ -n "$jar" ]] || die "no topology jar in $BULLET_HOME/target after the build"
    copts=(); args=()
    while (($#)); do
      if [[ "$1" == "-c" && $# -ge 2 ]]; then copts+=("$2"); shift 2; else args+=("$1"); shift; fi
    done
    opts="$(printf '%s\n' "${copts[@]+"${copts[@]}"}" | jq -sRr 'split("\n") | map(select(length > 0) | @uri) | join(",")')"
    exec java -client -Dstorm.options="$opts" -Dstorm.home="$H" -Dstorm.conf.file= -Dstorm.jar="$jar" \
      -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
      -cp "$CLIENT_CP:$jar" dev.bullet.storm.BulletTopologyMain "${args[@]+"${args[@]}"}"
    ;;
  workers)
    [[ -d "$BULLET_HOME/target/classes/dev/bullet/storm" ]] \
      || die "the project is not built yet: run 'mvn -B -q package -DskipTests' in $BULLET_HOME first"
    exec java -client -Dstorm.home="$H" -Dstorm.conf.file= -Dlog4j2.configurationFile="$BULLET_HOME/conf/log4j2-cli.xml" \
      -cp "$DAEMON_CP:$BULLET_HOME/target/classes" dev.bullet.storm.ClusterWorkers "$H" ;;
  rebalance)
    [[ $# -ge 1 ]] || DIE_STATUS=2 die "rebalance needs the topology name"
    exec java -client -Dstorm.home="$H" -Dstorm.conf.file= -cp "$DAEMON_CP" org.apache.storm.command.Rebalance "$@" ;;
  list) exec java -client -Dstorm.home="$H" -Dstorm.conf.file= -cp "$DAEMON_CP" org.apache.storm.command.ListTopologies ;;
  kill)
    [[ $# -ge 1 ]] || DIE_STATUS=2 die "kill needs the topology name"
    exec java -client -Dstorm.home="$H" -Dstorm.conf.file= -cp "$DAEMON_CP" org.apache.storm.command.KillTopology "$1" -w 1 ;;
  stop)
    kill_workers TERM
    for f in "$RUN"/supervisor*.pid "$RUN/nimbus.pid" "$RUN/zookeeper.pid" "$RUN/dev_zookeeper.pid"; do
      [[ -f "$f" ]] && stop_pid_file "$f"
    done
    kill_workers KILL
    echo "stopped"
    ;;
  *) usage >&2; DIE_STATUS=2 die "unknown command '$cmd'" ;;
esac
