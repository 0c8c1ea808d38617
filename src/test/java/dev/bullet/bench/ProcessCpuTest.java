package dev.bullet.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A cluster benchmark's CPU is read from /proc for every process of the cluster, and only those. */
class ProcessCpuTest {
    @Test
    void cpuTicksAreReadAfterTheCommandNameWhateverItHolds() {
        String stat = "4644 (java (x) 1) R 4641 4641 29747 0 -1 4194304 123 0 0 0 170 30 0 0 20 0 1 0 3321938 3133440 359";
        assertEquals(200, ProcessCpu.cpuTicks(stat), "utime 170 + stime 30, the name's spaces and parentheses skipped");
    }

    @Test
    void residentMemoryIsVmRss() {
        assertEquals(52_428, ProcessCpu.rssKib("Name:\tjava\nVmPeak:\t  9999 kB\nVmRSS:\t   52428 kB\nThreads:\t40\n"));
        assertEquals(0, ProcessCpu.rssKib("Name:\tzombie\nState:\tZ (zombie)\n"));
    }

    @Test
    void eachStormProcessHasItsRole() {
        String worker = "java -Dworker.port=6700 -cp /h/lib-worker/* org.apache.storm.daemon.worker.Worker topo-1 sup 6700 w";
        assertEquals("worker", ProcessCpu.role(worker));
        assertEquals("logwriter", ProcessCpu.role("java -cp /h/lib/* org.apache.storm.LogWriter " + worker),
                     "the log writer names the worker's command too");
        assertEquals("supervisor", ProcessCpu.role("java -Dstorm.home=/h org.apache.storm.daemon.supervisor.Supervisor"));
        assertEquals("nimbus", ProcessCpu.role("java -Dstorm.home=/h org.apache.storm.daemon.nimbus.Nimbus"));
        assertEquals("zookeeper", ProcessCpu.role(
                "java -Dstorm.home=/h org.apache.storm.shade.org.apache.zookeeper.server.ZooKeeperServerMain /h/conf/zookeeper.cfg"));
        assertEquals("other", ProcessCpu.role("java -Dstorm.home=/h org.apache.storm.command.ListTopologies"));
    }

    @Test
    void cpuBetweenSamplesCountsNewProcessesWholeAndEndedOnesNot() {
        Map<Long, ProcessCpu.Proc> before = Map.of(1L, new ProcessCpu.Proc(1, "worker", 1_000, 10),
                                                   2L, new ProcessCpu.Proc(2, "nimbus", 500, 10));
        Map<Long, ProcessCpu.Proc> after = Map.of(1L, new ProcessCpu.Proc(1, "worker", 4_000, 10),
                                                  3L, new ProcessCpu.Proc(3, "worker", 700, 10));
        Map<String, Long> used = ProcessCpu.cpuNanosBetween(before, after);
        assertEquals(3_700L, used.get("worker"));
        assertEquals(0L, used.get("nimbus"));
        assertEquals(ProcessCpu.ROLES, List.copyOf(used.keySet()), "every role, in report order");
    }

    @Test
    void aBusyProcessNamingTheMarkerIsMeasuredAndNoOtherIs() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux /proc");
        String marker = "bench-marker-" + UUID.randomUUID();
        // the marker is the shell's $0: it stays in the command line while the loop burns CPU
        Process busy = new ProcessBuilder("/bin/sh", "-c", "while :; do :; done", marker).start();
        try {
            Map<Long, ProcessCpu.Proc> first = ProcessCpu.sample(marker);
            assertEquals(List.of(busy.pid()), List.copyOf(first.keySet()), "only the process naming the marker");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            long used = 0;
            while (used == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // poll interval
                used = ProcessCpu.cpuNanosBetween(first, ProcessCpu.sample(marker)).get("other");
            }
            assertTrue(used > 0, "the busy loop's CPU is counted");
            assertTrue(ProcessCpu.rssMib(first) >= 0);
        } finally {
            busy.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertTrue(ProcessCpu.sample(marker).isEmpty(), "an ended process is not sampled");
    }
}
