package dev.bullet.storm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How long the DataSource spout's short batches wait, from the bound and the acks' latency. */
class SpoutLingerTest {

    @Test
    void belowHalfTheBoundOrWithoutOneBatchesGoAtOnce() {
        SpoutLinger linger = new SpoutLinger(100);
        linger.acked(0, 700);
        assertEquals(0, linger.lingerMs(0));
        assertEquals(0, linger.lingerMs(49));
        SpoutLinger unbounded = new SpoutLinger(0);
        unbounded.acked(0, 700);
        assertEquals(0, unbounded.lingerMs(1_000));
    }

    @Test
    void fromHalfTheBoundABatchWaitsTheAckLatencyOverHalfTheBound() {
        SpoutLinger linger = new SpoutLinger(100);
        assertEquals(SpoutLinger.MAX_MS, linger.lingerMs(50), "no ack yet: the longest wait");
        linger.acked(1_000, 1_700);
        assertEquals(14, linger.lingerMs(50), "0.7 s over 50 batches");
        assertEquals(14, linger.lingerMs(100));
        SpoutLinger fast = new SpoutLinger(100);
        fast.acked(1_000, 1_010);
        assertEquals(1, fast.lingerMs(60), "at least a millisecond: the batches still grow");
        SpoutLinger slow = new SpoutLinger(20);
        slow.acked(0, 5_000);
        assertEquals(SpoutLinger.MAX_MS, slow.lingerMs(10), "at most the longest wait");
    }

    @Test
    void theLatencyIsARunningAverageThatFollowsAChange() {
        SpoutLinger linger = new SpoutLinger(100);
        linger.acked(0, 1_000);
        for (int i = 0; i < 200; i++) {
            linger.acked(0, 200);
        }
        assertTrue(Math.abs(linger.ackLatencyMs() - 200) < 1, "after many acks at 200 ms: " + linger.ackLatencyMs());
        assertEquals(4, linger.lingerMs(50));
        linger.acked(500, 400); // a clock step back counts as no latency, never a negative one
        assertTrue(linger.ackLatencyMs() >= 0);
    }
}
