package dev.bullet.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The CPU and memory of the processes of a pipeline benchmark on a multi-process Storm cluster, read from Linux's
 * {@code /proc}: every process whose command line names the cluster's Storm home (ZooKeeper, Nimbus, Supervisors,
 * the workers and the log writers that start them), grouped by role. The benchmark's own JVM (broker, load
 * generator, result client) is measured by the caller. Off Linux (no {@code /proc}) a sample is empty.
 */
final class ProcessCpu {
    /** The roles, in report order; a process of the Storm home that is none of the others is "other". */
    static final List<String> ROLES = List.of("worker", "supervisor", "nimbus", "zookeeper", "logwriter", "other");
    private static final Path PROC = Path.of("/proc");
    private static final long TICKS_PER_SECOND = ticksPerSecond();

    private ProcessCpu() {
    }

    /** One process: its role, CPU time so far (user + system) and resident memory. */
    record Proc(long pid, String role, long cpuNanos, long rssKib) {
    }

    /** CPU nanoseconds used between two samples, by role; a process that started in between counts whole. */
    static Map<String, Long> cpuNanosBetween(Map<Long, Proc> before, Map<Long, Proc> after) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String role : ROLES) {
            out.put(role, 0L);
        }
        for (Proc p : after.values()) {
            Proc earlier = before.get(p.pid());
            long used = p.cpuNanos() - (earlier == null ? 0 : earlier.cpuNanos());
            out.merge(p.role(), Math.max(0, used), Long::sum);
        }
        return out;
    }

    /** Resident memory of the processes, MiB. */
    static long rssMib(Map<Long, Proc> sample) {
        return sample.values().stream().mapToLong(Proc::rssKib).sum() >> 10;
    }

    /** The processes (other than this one) whose command line contains {@code marker}, by pid. */
    static Map<Long, Proc> sample(String marker) {
        Map<Long, Proc> out = new LinkedHashMap<>();
        long self = ProcessHandle.current().pid();
        if (!Files.isDirectory(PROC)) {
            return out;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path dir : dirs) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                    if (!cmdline.contains(marker)) {
                        continue;
                    }
                    long ticks = cpuTicks(Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8));
                    long rss = rssKib(Files.readString(dir.resolve("status"), StandardCharsets.UTF_8));
                    out.put(pid, new Proc(pid, role(cmdline), TimeUnit.SECONDS.toNanos(ticks) / TICKS_PER_SECOND, rss));
                } catch (IOException | RuntimeException gone) {
                    // the process ended while it was read, or is not ours to read: not counted
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The role of a Storm process by its main class (a worker's log writer carries the worker's command too). */
    static String role(String cmdline) {
        if (cmdline.contains("org.apache.storm.LogWriter")) {
            return "logwriter";
        }
        if (cmdline.contains("org.apache.storm.daemon.worker.Worker")) {
            return "worker";
        }
        if (cmdline.contains("org.apache.storm.daemon.supervisor.Supervisor")) {
            return "supervisor";
        }
        if (cmdline.contains("org.apache.storm.daemon.nimbus.Nimbus")) {
            return "nimbus";
        }
        if (cmdline.contains("ZooKeeperServerMain") || cmdline.contains("DevZookeeper")) {
            return "zookeeper";
        }
        return "other";
    }

    /**
     * User + system CPU ticks from the text of {@code /proc/PID/stat}: fields 14 and 15, counted after the command
     * name's closing parenthesis (the name itself may hold spaces and parentheses).
     */
    static long cpuTicks(String stat) {
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
        // rest[0] is field 3 (state): utime is field 14, stime field 15
        return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    }

    /** {@code VmRSS} in KiB from the text of {@code /proc/PID/status}; 0 when absent (a zombie). */
    static long rssKib(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring(6).trim().split(" +")[0]);
            }
        }
        return 0;
    }

    /** The kernel's clock ticks per second ({@code getconf CLK_TCK}); 100, Linux's value, when it cannot be asked. */
    private static long ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("[1-9][0-9]*")) {
                return Long.parseLong(out);
            }
        } catch (IOException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
