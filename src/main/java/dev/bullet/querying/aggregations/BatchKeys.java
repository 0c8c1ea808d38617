package dev.bullet.querying.aggregations;

import dev.bullet.record.Record;

import java.util.Arrays;
import java.util.List;

/**
 * The keys of an index batch's records (up to 64) for the aggregations fed a batch at a time
 * ({@link Aggregator#consumeBatch}), cut once per record, field list and way of cutting ({@link Cut}) and numbered:
 * every distinct key among the batch's records gets a small id, shared by all the queries that cut keys over the same
 * fields alike (per thread, in a table per field list and cut). A query then meets its matches as {@link Runs}: one
 * run per distinct key, in the order the keys first occur among its matches, with the positions of the records that
 * have it. Updating a sketch once per run in that order is
 * what updating it once per record gives when duplicates within a batch change nothing but a count (see each
 * aggregator's {@code consumeBatch}).
 */
final class BatchKeys {
    private BatchKeys() {
    }

    static final int POSITIONS = 64;
    /**
     * Tables of a batch's keys a thread keeps at once (one per field list and cut), all dropped when one more comes:
     * a mix of dashboards over a few dozen field lists keeps each list's keys of the batch for all its queries.
     */
    static final int TABLES = 128;

    /**
     * Keys numbered 0, 1, 2… in the order they come: open addressing on the key's hash code (id + 1 in a slot, 0 for
     * free, at most half full), for at most {@code capacity} keys of at most {@code maxChars} characters in all. The
     * arrays start at room for {@code initial} keys and double as keys come, so a numbering of a few keys is small.
     */
    private static final class Numbering {
        private final int capacity;
        private final int maxChars;
        private String[] keys;
        private int[] slots;
        private int shift;
        private int size;
        private int chars;

        Numbering(int initial, int capacity, int maxChars) {
            this.capacity = capacity;
            this.maxChars = maxChars;
            allocate(initial);
        }

        private void allocate(int room) {
            keys = new String[room];
            slots = new int[2 * room];
            shift = Integer.numberOfLeadingZeros(slots.length - 1);
        }

        /** The id of {@code key}, given the next one if it is new; -1 when it is new and no more keys fit. */
        int idOf(String key) {
            return idOf(key, true);
        }

        /** As {@link #idOf(String)}; a new key is not numbered (-1) unless {@code mayAdd}. */
        int idOf(String key, boolean mayAdd) {
            int mask = slots.length - 1;
            int slot = key.hashCode() * 0x9E3779B9 >>> shift & mask;
            while (true) {
                int entry = slots[slot];
                if (entry == 0) {
                    if (!mayAdd || size == capacity || (long) chars + key.length() > maxChars) {
                        return -1;
                    }
                    if (size == keys.length) {
                        grow();
                        return idOf(key, true);
                    }
                    chars += key.length();
                    keys[size] = key;
                    slots[slot] = size + 1;
                    return size++;
                }
                if (keys[entry - 1].equals(key)) {
                    return entry - 1;
                }
                slot = slot + 1 & mask;
            }
        }

        /** Twice the room, the keys placed again under the same ids. */
        private void grow() {
            String[] old = keys;
            allocate(Math.min(2 * old.length, capacity));
            System.arraycopy(old, 0, keys, 0, size);
            int mask = slots.length - 1;
            for (int id = 0; id < size; id++) {
                int slot = keys[id].hashCode() * 0x9E3779B9 >>> shift & mask;
                while (slots[slot] != 0) {
                    slot = slot + 1 & mask;
                }
                slots[slot] = id + 1;
            }
        }

        String key(int id) {
            return keys[id];
        }

        int size() {
            return size;
        }

        int chars() {
            return chars;
        }

        void clear() {
            Arrays.fill(keys, 0, size, null);
            Arrays.fill(slots, 0);
            size = 0;
            chars = 0;
        }
    }

    /** A field list's numbered keys of the batch being aggregated. */
    private static final class Table {
        /** The {@link Cut#table} the table holds the keys of; {@code -1}: none yet. */
        int owner = -1;
        /** By batch position: the record whose key is numbered (by identity), and its key's id. */
        final Record[] records = new Record[POSITIONS];
        final int[] ids = new int[POSITIONS];
        /** The keys by id: at most one a position, so every key fits. */
        final Numbering keys = new Numbering(POSITIONS, POSITIONS, Integer.MAX_VALUE);
        /** By id: the key's id in its field list's {@link Dictionary}, where its bit is set in {@link #known}. */
        final int[] stable = new int[POSITIONS];
        long known;
        /** The {@link Dictionary#epoch()} the {@link #stable} ids are of. */
        long knownEpoch = -1;
        /** By id: the key's Theta hash ({@link ThetaHashes#of}), made where its bit is set in {@link #hashed}. */
        final long[] hashes = new long[POSITIONS];
        long hashed;

        void clear() {
            Arrays.fill(records, null);
            keys.clear();
            known = 0;
            hashed = 0;
        }
    }

    /**
     * A query's matches of one batch grouped by key: run {@code i} ({@code 0 <= i < size()}) is the key
     * {@link #key(int)} and the positions {@link #positions(int)} of the records that have it; runs are in the order
     * their keys first occur among the matches. Valid until the next {@link #runs} on the thread.
     */
    static final class Runs {
        private final String[] keys = new String[POSITIONS];
        private final long[] positions = new long[POSITIONS];
        /** By position: the run of the record there. */
        private final int[] runAt = new int[POSITIONS];
        /** By key id: its run + 1, 0 for none; the ids of the runs, to clear it. */
        private final int[] runOfId = new int[POSITIONS];
        private final int[] ids = new int[POSITIONS];
        private int size;

        private Runs(State state) {
            this.state = state;
        }

        /** The table the runs' keys were numbered in, and the thread's state. */
        private Table table;
        private final State state;

        int size() {
            return size;
        }

        /**
         * The id of run {@code run}'s key in {@code dictionary} (its field list's, on this thread), looked up once per
         * batch for every query; -1 when the key is new and the dictionary full.
         */
        int dictionaryId(int run, Dictionary dictionary) {
            Table t = table;
            if (t.knownEpoch != dictionary.epoch) {
                t.known = 0;
                t.knownEpoch = dictionary.epoch;
            }
            int id = ids[run];
            if ((t.known & 1L << id) == 0) {
                int stable = dictionary.idOf(t.keys.key(id));
                if (stable < 0) {
                    return -1;
                }
                t.stable[id] = stable;
                t.known |= 1L << id;
            }
            return t.stable[id];
        }

        String key(int run) {
            return keys[run];
        }

        /**
         * The Theta hash of run {@code run}'s key ({@link ThetaHashes#of(String)}), made once per batch for every query
         * over the fields.
         */
        long thetaHash(int run) {
            Table t = table;
            int id = ids[run];
            if ((t.hashed & 1L << id) == 0) {
                t.hashes[id] = ThetaHashes.of(t.keys.key(id));
                t.hashed |= 1L << id;
            }
            return t.hashes[id];
        }

        /** The batch positions of the run's records, as bits. */
        long positions(int run) {
            return positions[run];
        }

        /** The key of the record at {@code position}, a record of one of the runs. */
        String keyAt(int position) {
            return keys[runAt[position]];
        }

        private void clear() {
            for (int i = 0; i < size; i++) {
                runOfId[ids[i]] = 0;
                keys[i] = null;
            }
            size = 0;
        }

        private void add(int position, int id, Table table) {
            int run = runOfId[id] - 1;
            if (run < 0) {
                run = size++;
                runOfId[id] = run + 1;
                ids[run] = id;
                keys[run] = table.keys.key(id);
                positions[run] = 0;
            }
            positions[run] |= 1L << position;
            runAt[position] = run;
        }
    }

    /**
     * A field list's keys numbered on one thread from batch to batch, not per batch: an aggregation that keeps its
     * groups apart from its sketch between partials ({@link KeptKeys}) finds them by these ids, each key's looked up
     * once per batch for all the queries over the fields. Holds at most {@link #CAPACITY} keys of at most
     * {@link #MAX_KEY_CHARS} characters in all, in arrays that grow with its keys, and a thread's dictionaries together
     * at most {@link #THREAD_KEYS} keys of {@link #THREAD_CHARS} characters (a new key past either is refused as in a
     * full dictionary): ~25 MiB at most for keys of one-byte characters, ~35 MiB for wider ones, and a few KiB for a
     * dictionary that never held more than a few keys;
     * {@link #clear} starts a new {@link #epoch()}, whose ids mean other keys.
     */
    static final class Dictionary {
        static final int CAPACITY = 4096;
        /** The keys a new dictionary has room for before its arrays grow. */
        static final int INITIAL = 64;
        static final int MAX_KEY_CHARS = 1 << 17;
        private final State state;
        /** A thread's dictionaries hold at most as many keys, and characters of keys, as 64 full ones. */
        static final int THREAD_KEYS = 64 * CAPACITY;
        static final long THREAD_CHARS = 64L * MAX_KEY_CHARS;
        private final Numbering keys = new Numbering(INITIAL, CAPACITY, MAX_KEY_CHARS);
        private long epoch;
        /** The {@link State#generation} the dictionary belongs to: its keys count in that generation's totals. */
        private final long generation;
        /** Whether the last key refused was refused by the dictionary's own bounds ({@link #full}). */
        private boolean full;

        private Dictionary(State state) {
            this.state = state;
            this.epoch = ++state.epochs;
            this.generation = state.generation;
        }

        /** Which numbering the ids are of: unique on the thread, across its dictionaries. */
        long epoch() {
            return epoch;
        }

        /**
         * The id of {@code key}, given the next one if it is new; -1 when it is new and the dictionary full (in keys or
         * in characters, its own or the thread's).
         */
        int idOf(String key) {
            boolean room = state.keys < THREAD_KEYS && state.chars + key.length() <= THREAD_CHARS;
            int before = keys.size();
            int id = keys.idOf(key, room);
            if (id < 0) {
                full = room;
            } else if (keys.size() > before && generation == state.generation) {
                state.keys++;
                state.chars += key.length();
            }
            return id;
        }

        /**
         * Whether the last key refused was refused by the dictionary's own bounds (starting it again makes room), not
         * by the thread's budget (starting it again would make none).
         */
        boolean full() {
            return full;
        }

        /** Forgets every key: a new epoch. */
        void clear() {
            if (generation == state.generation) {
                state.keys -= keys.size();
                state.chars -= keys.chars();
            }
            keys.clear();
            full = false;
            epoch = ++state.epochs;
        }
    }

    private static final class State {
        /** The last epoch given to a {@link Dictionary} of this thread. */
        long epochs;
        /** Dictionaries by their {@link Cut#table}, in open addressing; all dropped when it is half full. */
        final Dictionary[] dictionaries = new Dictionary[DICTIONARY_SLOTS];
        final int[] dictionaryOwners = new int[DICTIONARY_SLOTS];
        int dictionaryCount;
        /** Counts the times the dictionaries were all dropped; the keys and characters the current ones hold. */
        long generation;
        int keys;
        long chars;
        /** Tables by their {@link Cut#table}, in open addressing (twice as many slots as tables kept). */
        final Table[] tables = new Table[2 * TABLES];
        int tableCount;
        /** For fields without an id: numbered afresh on each call. */
        final Table loose = new Table();
        final Runs runs = new Runs(this);

        Table table(int id) {
            if (id < 0) {
                loose.clear();
                return loose;
            }
            int mask = tables.length - 1;
            int slot = id * 0x9E3779B9 >>> 24 & mask;
            while (true) {
                Table table = tables[slot];
                if (table == null) {
                    if (tableCount == TABLES) {
                        Arrays.fill(tables, null);
                        tableCount = 0;
                        return table(id);
                    }
                    table = new Table();
                    table.owner = id;
                    tables[slot] = table;
                    tableCount++;
                    return table;
                }
                if (table.owner == id) {
                    return table;
                }
                slot = slot + 1 & mask;
            }
        }
    }

    /**
     * How an aggregation cuts a record's key, with the table of a batch's keys it shares with every aggregation that
     * cuts keys alike: the fields' {@link SketchKeys} key, or bullet-core's GROUP, TOP K or COUNT DISTINCT key of
     * them (BQL's {@code groupValuesAsStrings}).
     */
    abstract static class Cut {
        /** The table's id ({@link State#table}); -1: a table of its own, numbered afresh on each call. */
        final int table;

        private Cut(SketchKeys.Fields fields, int kind) {
            this.table = fields.id < 0 ? -1 : fields.id * 4 + kind;
        }

        /** The record's key, or null when the record has none (it is not aggregated). */
        abstract String keyOf(Record record);

        /** The fields' {@link SketchKeys} key. */
        static Cut of(SketchKeys.Fields fields) {
            return new Cut(fields, 0) {
                @Override
                String keyOf(Record record) {
                    return SketchKeys.makeKey(fields, record);
                }
            };
        }

        /** bullet-core's GROUP key ({@link BulletCoreKeys#groupKey}). */
        static Cut bulletCoreGroup(SketchKeys.Fields fields, int[] order) {
            return new Cut(fields, 1) {
                @Override
                String keyOf(Record record) {
                    return BulletCoreKeys.groupKey(fields.fields, order, record);
                }
            };
        }

        /**
         * bullet-core's COUNT DISTINCT key: its TOP K key ({@link BulletCoreKeys#topKKey}) of the fields in their own
         * order, in tables of its own (a TOP K's order is bullet-core's order of its field map).
         */
        static Cut bulletCoreDistinct(SketchKeys.Fields fields, int[] order) {
            return new Cut(fields, 3) {
                @Override
                String keyOf(Record record) {
                    return BulletCoreKeys.topKKey(fields.fields, order, record);
                }
            };
        }

        /** bullet-core's TOP K key ({@link BulletCoreKeys#topKKey}). */
        static Cut bulletCoreTopK(SketchKeys.Fields fields, int[] order) {
            return new Cut(fields, 2) {
                @Override
                String keyOf(Record record) {
                    return BulletCoreKeys.topKKey(fields.fields, order, record);
                }
            };
        }
    }

    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

    /** The keys this thread's dictionaries hold, as counted against {@link Dictionary#THREAD_KEYS}. */
    static int threadKeys() {
        return STATE.get().keys;
    }
    /**
     * Room for the dictionaries of a thread's field lists and cuts: at most half as many are kept (128). A GROUP and a
     * TOP K over the same fields in BQL cut their keys differently, so a dashboards mix over 48 field lists needs ~70.
     */
    static final int DICTIONARY_SLOTS = 256;

    /**
     * The thread's {@link Dictionary} of {@code cut}'s field list, or null when its fields have no id; {@code runs} the
     * thread's last {@link #runs}.
     */
    static Dictionary dictionary(Cut cut, Runs runs) {
        if (cut.table < 0) {
            return null;
        }
        State state = runs.state;
        int mask = DICTIONARY_SLOTS - 1;
        int slot = cut.table * 0x9E3779B9 >>> 24 & mask;
        while (true) {
            Dictionary d = state.dictionaries[slot];
            if (d == null) {
                if (2 * state.dictionaryCount >= DICTIONARY_SLOTS) {
                    Arrays.fill(state.dictionaries, null);
                    state.dictionaryCount = 0;
                    state.generation++;
                    state.keys = 0;
                    state.chars = 0;
                    return dictionary(cut, runs);
                }
                d = new Dictionary(state);
                state.dictionaries[slot] = d;
                state.dictionaryOwners[slot] = cut.table;
                state.dictionaryCount++;
                return d;
            }
            if (state.dictionaryOwners[slot] == cut.table) {
                return d;
            }
            slot = slot + 1 & mask;
        }
    }

    /**
     * The records of {@code batch} at {@code from + i} for each bit {@code i} set in {@code mask} (positions 0 to 63),
     * grouped by their key as {@code cut} cuts it (a record it gives no key, null, is in no run). The {@link Runs}
     * object is the thread's, reused by the next call.
     *
     * <p>A position holding another record than the one numbered there means another batch: the table starts again.
     * Between two starts each position is numbered once at most, so a table never holds more than 64 keys.
     */
    static Runs runs(Cut cut, List<? extends Record> batch, int from, long mask) {
        State state = STATE.get();
        Table table = state.table(cut.table);
        Runs runs = state.runs;
        runs.clear();
        runs.table = table;
        for (long m = mask; m != 0; m &= m - 1) {
            int position = Long.numberOfTrailingZeros(m);
            Record record = batch.get(from + position);
            Record known = table.records[position];
            if (known != record) {
                if (known != null) { // another batch: number afresh, from the first match
                    table.clear();
                    runs.clear();
                    m = mask;
                    position = Long.numberOfTrailingZeros(m);
                    record = batch.get(from + position);
                }
                table.records[position] = record;
                String key = cut.keyOf(record);
                table.ids[position] = key == null ? -1 : table.keys.idOf(key);
            }
            int id = table.ids[position];
            if (id >= 0) {
                runs.add(position, id, table);
            }
        }
        return runs;
    }
}
