package dev.bullet.index;

import dev.bullet.record.FieldPath;
import dev.bullet.regex.LiteralMatcher;
import dev.bullet.regex.RegexDfa;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The RLIKE queries of one path in the {@link RegexPrefilter}: their literals and the automata over them, the entries
 * under each literal, under their first character, or decided by the path's DFA. Not thread-safe.
 *
 * @param <Q> the per-query object the index hands out
 */
final class RegexPathFilter<Q> {
    final FieldPath path;
    /** The path's id in {@link PathSpans}. */
    int span;
    final Map<String, Integer> literalIds = new HashMap<>();
    final List<String> literals = new ArrayList<>();
    /** Entries that mention each literal id (an entry is listed under each of its literals once). */
    final List<List<RegexEntry<Q>>> byLiteral = new ArrayList<>();
    /** Entries without a required literal: by the value's first (folded) character, index 128 = non-ASCII. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: Java has no List<RegexEntry<Q>>[] constructor
    final List<RegexEntry<Q>>[] byFirst = new List[129];
    /** Entries without a required literal that may start with any character. */
    final List<RegexEntry<Q>> anyFirst = new ArrayList<>();
    final List<RegexEntry<Q>> unfiltered = new ArrayList<>();
    /** The negated entries (also placed as the others are): each value meets those its RLIKE surely fails. */
    final List<RegexEntry<Q>> negated = new ArrayList<>();
    int entries;
    /**
     * The patterns the DFA decides, by id, and the entries that use each: a pattern stays after its entries leave
     * (a query that ends and comes again finds the DFA as it was); the DFA is built again only for a new one.
     */
    final Map<String, Integer> dfaIds = new HashMap<>();
    final List<String> dfaPatterns = new ArrayList<>();
    final List<List<RegexEntry<Q>>> byPattern = new ArrayList<>();
    int dfaEntries;
    /** Of those, the ones whose patterns require no literal worth looking for (counted in {@link RegexPrefilter#unfiltered}). */
    int dfaLiteralFree;
    /** Null: to be built (from {@link #dfaPatterns}) when a value next needs it. */
    RegexDfa dfa;
    LiteralMatcher matcher;
    boolean[] found = new boolean[0];
    int[] foundList = new int[0];
    int foundCount;

    RegexPathFilter(FieldPath path) {
        this.path = path;
    }

    int literalId(String text) {
        Integer id = literalIds.get(text);
        if (id == null) {
            id = literals.size();
            literalIds.put(text, id);
            literals.add(text);
            byLiteral.add(new ArrayList<>(1));
            matcher = null;
        }
        return id;
    }

    boolean isEmpty() {
        return entries == 0 && unfiltered.isEmpty() && dfaEntries == 0;
    }

    void placeDecided(RegexEntry<Q> entry) {
        for (String pattern : entry.patterns) {
            Integer id = dfaIds.get(pattern);
            if (id == null) {
                id = dfaPatterns.size();
                dfaIds.put(pattern, id);
                dfaPatterns.add(pattern);
                byPattern.add(new ArrayList<>(1));
                dfa = null;
            }
            List<RegexEntry<Q>> users = byPattern.get(id);
            if (!users.contains(entry)) {
                users.add(entry);
            }
        }
        dfaEntries++;
        dfaLiteralFree += entry.literalFree ? 1 : 0;
    }

    void unplaceDecided(RegexEntry<Q> entry) {
        for (String pattern : entry.patterns) {
            byPattern.get(dfaIds.get(pattern)).remove(entry);
        }
        dfaEntries--;
        dfaLiteralFree -= entry.literalFree ? 1 : 0;
        int unused = 0;
        for (List<RegexEntry<Q>> users : byPattern) {
            unused += users.isEmpty() ? 1 : 0;
        }
        if (dfaPatterns.size() > 64 && unused * 2 > dfaPatterns.size()) { // most patterns gone: a smaller DFA
            List<RegexEntry<Q>> kept = new ArrayList<>();
            for (List<RegexEntry<Q>> users : byPattern) {
                for (RegexEntry<Q> e : users) {
                    if (!kept.contains(e)) {
                        kept.add(e);
                    }
                }
            }
            dfaIds.clear();
            dfaPatterns.clear();
            byPattern.clear();
            dfaEntries = 0;
            dfaLiteralFree = 0;
            dfa = null;
            for (RegexEntry<Q> e : kept) {
                placeDecided(e);
            }
        }
    }
}
