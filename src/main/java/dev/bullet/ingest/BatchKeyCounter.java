package dev.bullet.ingest;

import java.util.SplittableRandom;

/**
 * The keys a spout gives its record batches ({@link TopologyNames.Fields#BATCH_KEY}): a random 32-bit prefix, drawn
 * when the spout opens, then a count in the low 32 bits. The Join keeps the keys each query merged to drop a batch
 * sent again (SPEC §3.1); keys that count up are kept there as a few runs however long a query runs, where random
 * keys cost memory per batch. Two spout instances share a prefix with probability 2^-32 per pair. Never 0 (0 means
 * "no key"). Not thread-safe.
 */
public final class BatchKeyCounter {
    private static final long LOW = 0xFFFF_FFFFL;
    private final SplittableRandom random;
    private long prefix;
    private long next;

    public BatchKeyCounter(SplittableRandom random) {
        this.random = random;
        newPrefix();
    }

    public long next() {
        if (next > LOW) {
            newPrefix(); // 2^32 batches later: a fresh prefix, so no key comes twice
        }
        return prefix << 32 | next++;
    }

    private void newPrefix() {
        int p;
        do {
            p = random.nextInt();
        } while (p == 0);
        prefix = p & LOW;
        next = 1;
    }
}
