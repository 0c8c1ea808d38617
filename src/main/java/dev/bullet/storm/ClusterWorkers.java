package dev.bullet.storm;

import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code storm-cluster.sh workers}: one line per running worker, {@code PORT PID COMPONENTS}, COMPONENTS being the
 * comma-separated ids of the components with tasks in that worker (Storm's per-worker {@code __system} left out).
 * The assignment comes from Nimbus; the pid is the local worker JVM started for that port under this Storm home
 * (- when none runs right now, e.g. while a killed worker restarts). Runs on the daemons' classpath.
 */
public final class ClusterWorkers {
    private ClusterWorkers() {
    }

    /** @param args the Storm home whose worker JVMs to look for */
    public static void main(String[] args) throws Exception {
        String stormHome = args.length > 0 ? args[0] : "";
        Map<Integer, TreeSet<String>> byPort = new TreeMap<>();
        Map<String, Object> conf = Utils.readStormConfig();
        conf.put("nimbus.thrift.max_buffer_size", conf.getOrDefault("nimbus.thrift.max_buffer_size", 1_048_576));
        conf.put("storm.nimbus.retry.times", 1);
        try (NimbusClient nimbus = connect(conf)) {
            ClusterSummary cluster = nimbus.getClient().getClusterInfo();
            for (TopologySummary topology : cluster.get_topologies()) {
                TopologyInfo info = nimbus.getClient().getTopologyInfo(topology.get_id());
                for (ExecutorSummary executor : info.get_executors()) {
                    if (!"__system".equals(executor.get_component_id())) {
                        byPort.computeIfAbsent(executor.get_port(), p -> new TreeSet<>()).add(executor.get_component_id());
                    }
                }
            }
        }
        for (Map.Entry<Integer, TreeSet<String>> e : byPort.entrySet()) {
            System.out.println(e.getKey() + " " + workerPid(e.getKey(), stormHome).map(String::valueOf).orElse("-") + " "
                               + String.join(",", e.getValue()));
        }
    }

    @SuppressWarnings("deprecation") // the non-deprecated overloads need a Subject this command-line tool does not have
    private static NimbusClient connect(Map<String, Object> conf) {
        try {
            return NimbusClient.getConfiguredClient(conf);
        } catch (RuntimeException e) {
            System.err.println("error: no Storm cluster answers at nimbus " + conf.get("nimbus.seeds") + ":"
                               + conf.get("nimbus.thrift.port") + " (start one with storm-cluster.sh start)");
            System.exit(1);
            throw e;
        }
    }

    private static Optional<Long> workerPid(int port, String stormHome) {
        String portFlag = "-Dworker.port=" + port;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> {
                    // the worker JVM itself, not the LogWriter process that launched it with the same arguments
                    boolean worker = Arrays.asList(a).contains("org.apache.storm.daemon.worker.Worker")
                                     && !Arrays.asList(a).contains("org.apache.storm.LogWriter");
                    boolean here = Arrays.stream(a).anyMatch(x -> x.contains(stormHome));
                    return worker && here && Arrays.asList(a).contains(portFlag);
                }).orElse(false))
                .map(ProcessHandle::pid)
                .findFirst();
    }
}
