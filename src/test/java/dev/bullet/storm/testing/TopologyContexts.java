package dev.bullet.storm.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;

/**
 * Minimal {@link TopologyContext}s for tests that call a spout's {@code open} or a bolt's {@code prepare}
 * directly: knows its own task id and component id and accepts metric registrations; no topology structure.
 */
public final class TopologyContexts {
    private TopologyContexts() {
    }

    /** A context for task {@code taskId} of component {@code componentId}, the only task of a one-task topology. */
    public static TopologyContext forTask(String componentId, int taskId) {
        return forTask(componentId, taskId, List.of(taskId));
    }

    /** A context for task {@code taskId} of component {@code componentId}, whose tasks are {@code tasks}. */
    public static TopologyContext forTask(String componentId, int taskId, List<Integer> tasks) {
        Map<Integer, String> taskToComponent = new HashMap<>();
        for (int task : tasks) {
            taskToComponent.put(task, componentId);
        }
        Map<String, List<Integer>> componentToTasks = new HashMap<>();
        componentToTasks.put(componentId, List.copyOf(tasks));
        return new TopologyContext(new StormTopology(), new HashMap<>(), taskToComponent, componentToTasks,
            new HashMap<>(), new HashMap<>(), "test-topology", null, null, taskId, 6700, List.of(taskId),
            new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>(), new AtomicBoolean(false),
            new StormMetricRegistry());
    }
}
