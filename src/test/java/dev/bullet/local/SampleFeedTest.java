package dev.bullet.local;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sample feed's bursts: few wake-ups at the default rate, a near-steady stream at benchmark rates. */
class SampleFeedTest {
    @Test
    void burstsAreAtMostHalfASecondApartAndShortAtHighRates() {
        assertEquals(TimeUnit.MILLISECONDS.toNanos(500), SampleFeed.burstNanos(200));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(500), SampleFeed.burstNanos(1));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), SampleFeed.burstNanos(10_000));
    }
}
