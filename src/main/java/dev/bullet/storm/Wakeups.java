package dev.bullet.storm;

import org.apache.storm.daemon.Acker;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wakes idle executors of this worker when one of Bullet's spouts or bolts hands a tuple on, so an idle executor
 * can park long (little CPU) without a tuple waiting out the park (little latency).
 *
 * <p>Storm's executor queues do not signal their consumer: an idle executor calls its wait strategy and looks at its
 * queue again when that returns. {@link WakeablePark} parks as a {@link Waiter}; the collectors {@link #waking}
 * returns signal after every emit, ack and fail. An emit wakes the executors of the tasks Storm sent the tuple to
 * (an executor's tasks are in its thread's name, {@code Thread-7-filter-bolt-executor[3, 4]}) and the ackers, which
 * every emit and ack of an anchored tuple reaches; an ack or fail wakes the ackers. A waiter whose thread name does
 * not tell its tasks is woken by every signal. Waking every executor of the JVM on every tuple cost a futex call per
 * executor, and each woken one found nothing and parked again: at 5,000 records/s a sixth of the Join's time went to
 * waking executors. Tuples that do not pass through these collectors (from another worker, Storm's own system ticks
 * and metrics) are seen when the park ends, as with Storm's plain park.
 *
 * <p>No lost wake-up: a signal counts up {@code signals} after the tuple is in the queue, and then looks for parked
 * waiters; a waiter first says it is parked, then parks only if no signal came since it last looked at its queue.
 * One of the two sees the other (every access is volatile).
 */
public final class Wakeups {
    private static final AtomicLong SIGNALS = new AtomicLong();
    private static final List<Waiter> WAITERS = new CopyOnWriteArrayList<>();

    private Wakeups() {
    }

    /** Wakes every parked waiter: some executor of this JVM may have a tuple to take. */
    public static void signal() {
        SIGNALS.incrementAndGet();
        for (Waiter waiter : WAITERS) {
            if (waiter.parked) {
                LockSupport.unpark(waiter.thread);
            }
        }
    }

    /** Wakes the parked waiters of these tasks, the ackers and the waiters of unknown tasks (null: every waiter). */
    static void signal(List<Integer> tasks) {
        if (tasks == null) {
            signal();
            return;
        }
        SIGNALS.incrementAndGet();
        for (Waiter waiter : WAITERS) {
            if (waiter.parked && waiter.wokenBy(tasks)) {
                LockSupport.unpark(waiter.thread);
            }
        }
    }

    /** Wakes the parked waiters of this task, the ackers and the waiters of unknown tasks. */
    static void signal(int task) {
        signal(List.of(task));
    }

    /** Wakes the parked ackers and the waiters of unknown tasks: an ack or fail went to an acker. */
    static void signalAckers() {
        SIGNALS.incrementAndGet();
        for (Waiter waiter : WAITERS) {
            if (waiter.parked && waiter.always) {
                LockSupport.unpark(waiter.thread);
            }
        }
    }

    /** A waiter for the calling thread; waiters of threads that have ended are forgotten. */
    static Waiter register() {
        WAITERS.removeIf(w -> !w.thread.isAlive());
        Waiter waiter = new Waiter(Thread.currentThread());
        WAITERS.add(waiter);
        return waiter;
    }

    /** Signals so far (tests). */
    static long signals() {
        return SIGNALS.get();
    }

    /** Waiters registered (tests). */
    static long waiters() {
        return WAITERS.size();
    }

    /** Storm's name for an executor's thread: {@code Thread-<n>-<component>-executor[<first task>, <last task>]}. */
    private static final Pattern EXECUTOR_THREAD = Pattern.compile("Thread-\\d+-(.+)-executor\\[(-?\\d+), (-?\\d+)]");

    /** One executor thread's side: park until signalled or the time is up. */
    static final class Waiter {
        private final Thread thread;
        /** The tasks its executor runs, {@code first..last}, from its thread's name. */
        private final int first;
        private final int last;
        /** Woken by every signal: an acker, or a thread whose name does not tell its tasks. */
        private final boolean always;
        private volatile boolean parked;
        private long seen = SIGNALS.get();

        private Waiter(Thread thread) {
            this.thread = thread;
            Matcher executor = EXECUTOR_THREAD.matcher(thread.getName());
            long[] tasks = executor.matches() ? tasks(executor.group(2), executor.group(3)) : null;
            first = tasks == null ? 0 : (int) tasks[0];
            last = tasks == null ? -1 : (int) tasks[1];
            always = tasks == null || Acker.ACKER_COMPONENT_ID.equals(executor.group(1));
        }

        /** First and last task of a name's range, or null when they are not ints. */
        private static long[] tasks(String first, String last) {
            try {
                return new long[] {Integer.parseInt(first), Integer.parseInt(last)};
            } catch (NumberFormatException e) {
                return null;
            }
        }

        boolean runs(int task) {
            return task >= first && task <= last;
        }

        /** Whether a tuple sent to these tasks wakes this waiter. */
        boolean wokenBy(List<Integer> tasks) {
            if (always) {
                return true;
            }
            for (int i = 0, n = tasks.size(); i < n; i++) {
                if (runs(tasks.get(i))) {
                    return true;
                }
            }
            return false;
        }

        /** Whether its thread is parked now, or about to (tests). */
        boolean parked() {
            return parked;
        }

        /**
         * Parks up to {@code maxNanos} unless a signal came since the last call returned (the caller looked at its
         * queue after that, so the signal may be for a tuple it has not seen).
         *
         * @return whether it parked (false: a signal was pending)
         */
        boolean await(long maxNanos) {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("a waiter parks only its own thread");
            }
            parked = true;
            long now = SIGNALS.get();
            if (now != seen) {
                parked = false;
                seen = now;
                return false;
            }
            LockSupport.parkNanos(this, maxNanos);
            parked = false;
            seen = SIGNALS.get();
            return true;
        }
    }

    /** {@code collector}, signalling after every emit, ack and fail. */
    public static OutputCollector waking(OutputCollector collector) {
        return new OutputCollector(new IOutputCollector() {
            @Override
            public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
                List<Integer> tasks = collector.emit(streamId, anchors, tuple);
                signal(tasks);
                return tasks;
            }

            @Override
            public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
                collector.emitDirect(taskId, streamId, anchors, tuple);
                signal(taskId);
            }

            @Override
            public void ack(Tuple input) {
                collector.ack(input);
                signalAckers();
            }

            @Override
            public void fail(Tuple input) {
                collector.fail(input);
                signalAckers();
            }

            @Override
            public void resetTimeout(Tuple input) {
                collector.resetTimeout(input);
            }

            @Override
            public void flush() {
                collector.flush();
                signal();
            }

            @Override
            public void reportError(Throwable error) {
                collector.reportError(error);
            }
        });
    }

    /** {@code collector}, signalling after every emit. */
    public static SpoutOutputCollector waking(SpoutOutputCollector collector) {
        return new SpoutOutputCollector(new ISpoutOutputCollector() {
            @Override
            public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
                List<Integer> tasks = collector.emit(streamId, tuple, messageId);
                signal(tasks);
                return tasks;
            }

            @Override
            public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
                collector.emitDirect(taskId, streamId, tuple, messageId);
                signal(taskId);
            }

            @Override
            public long getPendingCount() {
                return collector.getPendingCount();
            }

            @Override
            public void flush() {
                collector.flush();
                signal();
            }

            @Override
            public void reportError(Throwable error) {
                collector.reportError(error);
            }
        });
    }

    /** Microseconds → nanoseconds for a park time from Storm's config. */
    static long micros(long micros) {
        return TimeUnit.MICROSECONDS.toNanos(micros);
    }
}
