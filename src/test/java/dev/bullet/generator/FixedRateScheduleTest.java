package dev.bullet.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FixedRateScheduleTest {
    private long now = 1_000;
    private final List<Long> parks = new ArrayList<>();

    private FixedRateSchedule schedule(double rate) {
        return new FixedRateSchedule(rate, () -> now, nanos -> {
            parks.add(nanos);
            now += nanos;
        });
    }

    @Test
    void recordIIsDueAtStartPlusIOverRate() {
        FixedRateSchedule schedule = schedule(4);
        schedule.start();
        assertEquals(0, schedule.awaitDue(0, Long.MAX_VALUE));
        assertEquals(0, schedule.awaitDue(1, Long.MAX_VALUE));
        assertEquals(List.of(250_000_000L), parks);
        assertEquals(1_000 + 3 * 250_000_000L, schedule.dueNanos(3));
    }

    @Test
    void aLateSenderIsNotRescheduledButReportsItsLag() {
        FixedRateSchedule schedule = schedule(1_000);
        schedule.start();
        now += 5_000_000;
        assertEquals(5_000_000, schedule.awaitDue(0, Long.MAX_VALUE));
        assertEquals(4_000_000, schedule.awaitDue(1, Long.MAX_VALUE));
        assertEquals(List.of(), parks);
    }

    @Test
    void aLongWaitIsCutIntoSlicesSoStopRequestsAreSeen() {
        FixedRateSchedule schedule = schedule(0.5);
        schedule.start();
        assertEquals(0, schedule.awaitDue(0, 100));
        assertEquals(-(2_000_000_000L - 100), schedule.awaitDue(1, 100));
        assertEquals(List.of(100L), parks);
    }

    @Test
    void withoutARateNothingWaits() {
        FixedRateSchedule schedule = schedule(0);
        schedule.start();
        assertEquals(0, schedule.awaitDue(1_000_000, Long.MAX_VALUE));
        assertEquals(List.of(), parks);
    }
}
