package dev.bullet.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU, heap and GC of this JVM from the platform MXBeans (no native libraries), as data points named like
 * Storm's own worker metrics: {@code memory.heap.used|committed|max}, {@code memory.non-heap.used},
 * {@code GC.<collector>.count|time}, and CPU used per interval in ms: {@code cpu.process.ms} (the worker's user +
 * system time) and {@code cpu.thread.ms} (the calling executor thread's). Not thread-safe: one per task.
 */
public final class JvmStats {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long lastProcessCpuNs = processCpuNanos();
    private long lastThreadCpuNs = -1;

    private static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /** The data points for one interval (CPU as the time used since the previous call). */
    public Map<String, Object> snapshot() {
        Map<String, Object> points = new LinkedHashMap<>();
        long process = processCpuNanos();
        if (process >= 0) {
            points.put("cpu.process.ms", (process - lastProcessCpuNs) / 1_000_000L);
            lastProcessCpuNs = process;
        }
        if (threads.isCurrentThreadCpuTimeSupported()) {
            long thread = threads.getCurrentThreadCpuTime();
            if (lastThreadCpuNs >= 0) {
                points.put("cpu.thread.ms", (thread - lastThreadCpuNs) / 1_000_000L);
            }
            lastThreadCpuNs = thread;
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
        points.put("memory.heap.used", heap.getUsed());
        points.put("memory.heap.committed", heap.getCommitted());
        points.put("memory.heap.max", heap.getMax());
        points.put("memory.non-heap.used", nonHeap.getUsed());
        points.put("memory.non-heap.committed", nonHeap.getCommitted());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName().replace(' ', '_');
            points.put("GC." + name + ".count", gc.getCollectionCount());
            points.put("GC." + name + ".time", gc.getCollectionTime());
        }
        return points;
    }
}
