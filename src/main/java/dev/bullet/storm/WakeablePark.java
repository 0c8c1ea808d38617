package dev.bullet.storm;

import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.utils.ObjectReader;

import java.util.Map;

/**
 * Storm's {@code WaitStrategyPark} that a tuple handed on by a Bullet spout or bolt of the same worker cuts short
 * ({@link Wakeups}): the park time ({@code topology.bolt.wait.park.microsec}, or the spout or back-pressure key for
 * those situations) only bounds how long a tuple from elsewhere (another worker, Storm's own ticks) can wait at an idle
 * executor. Zero spins, as Storm's park does.
 */
public class WakeablePark implements IWaitStrategy {
    private long parkNanos;
    private Wakeups.Waiter waiter;

    @Override
    public void prepare(Map<String, Object> conf, WaitSituation situation) {
        String key = switch (situation) {
            case SPOUT_WAIT -> "topology.spout.wait.park.microsec";
            case BOLT_WAIT -> "topology.bolt.wait.park.microsec";
            case BACK_PRESSURE_WAIT -> "topology.backpressure.wait.park.microsec";
        };
        Object micros = conf.get(key);
        if (micros == null) {
            throw new IllegalArgumentException(key + " is not set: the park time of " + getClass().getSimpleName());
        }
        parkNanos = Wakeups.micros(ObjectReader.getLong(micros));
    }

    @Override
    public int idle(int idleCounter) {
        if (parkNanos <= 0) {
            Thread.onSpinWait();
        } else {
            if (waiter == null) { // prepare runs on another thread than the executor's loop
                waiter = Wakeups.register();
            }
            waiter.await(parkNanos);
        }
        return idleCounter + 1;
    }
}
