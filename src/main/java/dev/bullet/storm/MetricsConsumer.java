package dev.bullet.storm;

import dev.bullet.metrics.MetricPoint;
import dev.bullet.metrics.MetricsSink;
import dev.bullet.metrics.MetricsSinks;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Storm's metrics consumer, adapting to a {@link MetricsSink} named by the registration argument (an alias or a
 * class name from {@code bullet.topology.metrics.classes}). Storm's own metrics pass through with their names; the
 * {@link BulletMetrics#JVM} map is spread into one point per entry.
 */
public class MetricsConsumer implements IMetricsConsumer {
    private transient MetricsSink sink;

    @Override
    public void prepare(Map<String, Object> conf, Object argument, TopologyContext context, IErrorReporter errors) {
        sink = MetricsSinks.create(String.valueOf(argument));
        sink.prepare(conf);
    }

    @Override
    public void handleDataPoints(TaskInfo task, Collection<DataPoint> dataPoints) {
        String worker = task.srcWorkerHost + ":" + task.srcWorkerPort;
        long timestamp = task.timestamp * 1000L;
        List<MetricPoint> points = new ArrayList<>(dataPoints.size());
        for (DataPoint p : dataPoints) {
            if (BulletMetrics.JVM.equals(p.name) && p.value instanceof Map) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) p.value).entrySet()) {
                    points.add(new MetricPoint(timestamp, worker, task.srcComponentId, task.srcTaskId,
                                               String.valueOf(e.getKey()), e.getValue()));
                }
            } else if (p.value != null) {
                points.add(new MetricPoint(timestamp, worker, task.srcComponentId, task.srcTaskId, p.name, p.value));
            }
        }
        sink.accept(points);
    }

    @Override
    public void cleanup() {
        if (sink != null) {
            sink.close();
        }
    }
}
