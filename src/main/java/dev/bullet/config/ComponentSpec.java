package dev.bullet.config;

import java.io.Serializable;

/**
 * How many executors of one {@link Component} run and what each asks of Storm's Resource Aware Scheduler
 * ({@code setCPULoad}, {@code setMemoryLoad}). Validated when the settings load.
 *
 * @param parallelism      number of executors, at least 1
 * @param cpuLoad          percent of a core per executor
 * @param onHeapMemoryMiB  on-heap memory per executor, MiB
 * @param offHeapMemoryMiB off-heap memory per executor, MiB
 */
public record ComponentSpec(int parallelism, double cpuLoad, double onHeapMemoryMiB, double offHeapMemoryMiB)
        implements Serializable {
}
