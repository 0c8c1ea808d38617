package dev.bullet.storm;

import org.apache.storm.policy.IWaitStrategy.WaitSituation;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An idle executor parks long and wakes as soon as a Bullet collector hands a tuple on; no wake-up is lost. */
class WakeupsTest {
    private static final long LONG_PARK = TimeUnit.SECONDS.toNanos(60);

    @Test
    void aSignalWakesAParkedThreadLongBeforeItsParkEnds() throws Exception {
        AtomicReference<Wakeups.Waiter> waiter = new AtomicReference<>();
        CompletableFuture<Long> parkedFor = new CompletableFuture<>();
        Thread executor = new Thread(() -> {
            Wakeups.Waiter w = Wakeups.register();
            waiter.set(w);
            long start = System.nanoTime();
            w.await(LONG_PARK);
            parkedFor.complete(System.nanoTime() - start);
        }, "test-executor");
        executor.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.get() == null || !waiter.get().parked() || executor.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the executor thread never parked");
            Thread.onSpinWait();
        }
        Wakeups.signal();
        long nanos = parkedFor.get(10, TimeUnit.SECONDS);
        assertTrue(nanos < TimeUnit.SECONDS.toNanos(10), "woke after " + nanos + " ns");
        executor.join(10_000);
    }

    /** A waiter registered on a thread of this name (as Storm names executor threads). */
    private static Wakeups.Waiter waiterOf(String threadName) throws Exception {
        AtomicReference<Wakeups.Waiter> waiter = new AtomicReference<>();
        Thread t = new Thread(() -> waiter.set(Wakeups.register()), threadName);
        t.start();
        t.join(10_000);
        return waiter.get();
    }

    @Test
    void anEmitWakesTheExecutorsOfItsTasksAndTheAckersNotTheOthers() throws Exception {
        Wakeups.Waiter join = waiterOf("Thread-12-join-bolt-executor[7, 8]");
        Wakeups.Waiter filter = waiterOf("Thread-9-filter-bolt-executor[3, 3]");
        Wakeups.Waiter acker = waiterOf("Thread-4-__acker-executor[1, 1]");
        Wakeups.Waiter system = waiterOf("Thread-2-__system-executor[-1, -1]");
        Wakeups.Waiter unknown = waiterOf("some-pool-thread-3");
        Wakeups.Waiter huge = waiterOf("Thread-5-x-executor[99999999999, 3]");
        assertTrue(join.wokenBy(List.of(7)) && join.wokenBy(List.of(3, 8)) && join.runs(8));
        assertFalse(join.wokenBy(List.of(3)) || join.wokenBy(List.of(6, 9)) || join.wokenBy(List.of()));
        assertTrue(filter.wokenBy(List.of(3)));
        assertFalse(filter.wokenBy(List.of(7)) || system.wokenBy(List.of(3, 7)));
        assertTrue(acker.wokenBy(List.of(3)) && acker.wokenBy(List.of()), "every emit and ack reaches an acker");
        assertTrue(unknown.wokenBy(List.of(3)) && unknown.wokenBy(List.of()), "tasks unknown: woken by every signal");
        assertTrue(huge.wokenBy(List.of(7)), "a range that is not ints: tasks unknown");
    }

    @Test
    void aSignalToItsTaskWakesAParkedExecutorAndOneToAnotherTaskDoesNot() throws Exception {
        AtomicReference<Wakeups.Waiter> waiter = new AtomicReference<>();
        List<Long> wakes = new CopyOnWriteArrayList<>();
        Thread executor = new Thread(() -> {
            Wakeups.Waiter w = Wakeups.register();
            waiter.set(w);
            while (wakes.size() < 2) {
                if (w.await(LONG_PARK)) {
                    wakes.add(System.nanoTime());
                }
            }
        }, "Thread-31-result-bolt-executor[41, 41]");
        executor.setDaemon(true);
        executor.start();
        awaitParked(waiter, executor);
        Wakeups.signal(List.of(40)); // another task's tuple: it stays parked
        Wakeups.signal(40);
        Wakeups.signalAckers();
        Wakeups.signal(List.of(41));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (wakes.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the signal to its task did not wake it");
            Thread.onSpinWait();
        }
        awaitParked(waiter, executor);
        assertEquals(1, wakes.size(), "woken by a signal to another task");
        Wakeups.signal(41);
        executor.join(10_000);
        assertEquals(2, wakes.size(), "a direct emit to its task wakes it");
    }

    private static void awaitParked(AtomicReference<Wakeups.Waiter> waiter, Thread executor) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.get() == null || !waiter.get().parked() || executor.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the executor thread never parked");
            Thread.onSpinWait();
        }
    }

    @Test
    void aSignalBetweenLookingAtTheQueueAndParkingIsNotLost() {
        Wakeups.Waiter waiter = Wakeups.register();
        waiter.await(1); // as after the previous idle call
        Wakeups.signal(); // a tuple arrives after the executor found its queue empty, before it parks
        long start = System.nanoTime();
        assertFalse(waiter.await(LONG_PARK), "parked although a signal was pending");
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
        assertTrue(waiter.await(TimeUnit.MILLISECONDS.toNanos(5)), "no signal since: it parks");
    }

    @Test
    void onlyItsOwnThreadParksAWaiter() throws Exception {
        Wakeups.Waiter mine = Wakeups.register();
        CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
            try {
                mine.await(1);
                return null;
            } catch (IllegalStateException expected) {
                return expected;
            }
        });
        assertTrue(other.get(10, TimeUnit.SECONDS) instanceof IllegalStateException);
    }

    @Test
    void waitersOfEndedThreadsAreForgotten() throws Exception {
        long before = Wakeups.waiters();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Thread t = new Thread(Wakeups::register);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        Wakeups.register();
        assertTrue(Wakeups.waiters() <= before + 1, "waiters of ended threads kept: " + Wakeups.waiters());
    }

    @Test
    void boltCollectorsSignalAfterEmitAckAndFailAndStillDeliver() {
        List<String> calls = new ArrayList<>();
        OutputCollector collector = Wakeups.waking(new OutputCollector(new RecordingBoltCollector(calls)));
        long before = Wakeups.signals();
        collector.emit("s", List.of(1));
        collector.emitDirect(3, "s", List.of(2));
        collector.ack(null);
        collector.fail(null);
        assertEquals(List.of("emit s [1]", "emitDirect 3 s [2]", "ack", "fail"), calls);
        assertTrue(Wakeups.signals() - before >= 4);
    }

    @Test
    void spoutCollectorsSignalAfterEmit() {
        List<String> calls = new ArrayList<>();
        SpoutOutputCollector collector = Wakeups.waking(new SpoutOutputCollector(new ISpoutOutputCollector() {
            @Override
            public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
                calls.add("emit " + streamId + " " + tuple + " " + messageId);
                return List.of(7);
            }

            @Override
            public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
                calls.add("emitDirect " + taskId);
            }

            @Override
            public long getPendingCount() {
                return 5;
            }

            @Override
            public void flush() {
            }

            @Override
            public void reportError(Throwable error) {
            }
        }));
        long before = Wakeups.signals();
        assertEquals(List.of(7), collector.emit("s", List.of(1), 9L));
        collector.emitDirect(2, "s", List.of(1), null);
        assertEquals(5, collector.getPendingCount());
        assertEquals(List.of("emit s [1] 9", "emitDirect 2"), calls);
        assertTrue(Wakeups.signals() - before >= 2);
    }

    @Test
    void theWaitStrategyReadsTheParkTimeOfItsSituation() throws Exception {
        WakeablePark bolt = new WakeablePark();
        bolt.prepare(Map.of("topology.bolt.wait.park.microsec", 5_000L), WaitSituation.BOLT_WAIT);
        long start = System.nanoTime();
        assertEquals(1, bolt.idle(0));
        assertEquals(2, bolt.idle(1));
        long took = System.nanoTime() - start;
        assertTrue(took < TimeUnit.SECONDS.toNanos(10), "two 5 ms parks took " + took + " ns");

        WakeablePark spinning = new WakeablePark();
        spinning.prepare(Map.of("topology.spout.wait.park.microsec", 0L), WaitSituation.SPOUT_WAIT);
        assertEquals(4, spinning.idle(3));

        WakeablePark missing = new WakeablePark();
        assertThrows(RuntimeException.class, () -> missing.prepare(Map.of(), WaitSituation.BACK_PRESSURE_WAIT));
    }

    private record RecordingBoltCollector(List<String> calls) implements IOutputCollector {
        @Override
        public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            calls.add("emit " + streamId + " " + tuple);
            return List.of();
        }

        @Override
        public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            calls.add("emitDirect " + taskId + " " + streamId + " " + tuple);
        }

        @Override
        public void ack(Tuple input) {
            calls.add("ack");
        }

        @Override
        public void fail(Tuple input) {
            calls.add("fail");
        }

        @Override
        public void resetTimeout(Tuple input) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void reportError(Throwable error) {
        }
    }
}
