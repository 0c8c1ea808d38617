package dev.bullet.fuzz;

import dev.bullet.testing.Fuzz;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.util.List;

/**
 * Fuzzing with jqwik: good queries and records mutated by inserted fragments (brackets, quotes, escapes,
 * ill-formed UTF-8, adversarial literals, deep nesting), replaced and deleted units and truncation. jqwik shrinks a
 * failure to a small mutation list; found failures are kept in {@code src/test/resources/fuzz} and replayed by
 * {@link FuzzCorpusTest}. Tries: {@code jqwik.tries.default} (junit-platform.properties; raise it with -D for a long run).
 */
class FuzzPropertiesTest {

    private static Arbitrary<List<Fuzz.Mutation>> mutations() {
        Arbitrary<Fuzz.Mutation> one = Combinators.combine(
                Arbitraries.integers().between(0, 9).map(k -> k < 6 ? 0 : k - 6),
                Arbitraries.integers().between(0, 4000),
                Arbitraries.integers().between(0, 1000)).as(Fuzz.Mutation::new);
        return one.list().ofMinSize(0).ofMaxSize(8);
    }

    @Provide
    Arbitrary<String> queries() {
        return Combinators.combine(Arbitraries.of(Fuzz.QUERY_SEEDS), mutations()).as(Fuzz::mutateQuery);
    }

    @Provide
    Arbitrary<byte[]> records() {
        return Combinators.combine(Arbitraries.of(Fuzz.RECORD_SEEDS), mutations()).as(Fuzz::mutateRecord);
    }

    @Property
    void theParserAndValidatorAnswerEveryQueryAndTheEngineRunsEveryValidOne(@ForAll("queries") String query)
            throws IOException {
        FuzzChecks.queryIsAnsweredNeverThrown(query);
    }

    @Property
    void theScannerAgreesWithGsonOnEveryMessage(@ForAll("records") byte[] message) {
        FuzzChecks.lazyDecodeEqualsGson(message);
    }

    @Property(tries = 100)
    void anyStringIsAnsweredAsAQuery(@ForAll String anything) throws IOException {
        FuzzChecks.queryIsAnsweredNeverThrown(anything);
    }

    @Property(tries = 100)
    void anyBytesAreDecodedOrRejectedAsGsonDoes(@ForAll byte[] anything) {
        FuzzChecks.lazyDecodeEqualsGson(anything);
    }
}
