package dev.bullet.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.bullet.querying.FilterEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineABTest {
    /** A build directory as bench-ab.sh sees one: target/classes and target/classpath.txt, here this JVM's own. */
    private static Path home(Path dir) throws Exception {
        String classes = Path.of(FilterEngine.class.getProtectionDomain().getCodeSource()
                                         .getLocation().toURI()).toString();
        Path target = Files.createDirectories(dir.resolve("target"));
        Files.createSymbolicLink(target.resolve("classes"), Path.of(classes));
        List<String> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar")) {
                jars.add(entry);
            }
        }
        Files.writeString(target.resolve("classpath.txt"), String.join(File.pathSeparator, jars));
        return dir;
    }

    @Test
    void eachSideRunsItsOwnBuildInItsOwnLoaderAndTheRatioIsPrinted(@TempDir Path tmp) throws Exception {
        Path base = home(Files.createDirectories(tmp.resolve("base")));
        Path current = home(Files.createDirectories(tmp.resolve("current")));
        Path records = tmp.resolve("records.jsonl");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            lines.add("{\"id\":\"r" + i + "\",\"s\":\"" + (i % 3 == 0 ? "error in " + i : "ok") + "\",\"n\":" + i + "}");
        }
        Files.write(records, lines);
        Path queries = tmp.resolve("queries.jsonl");
        Files.write(queries, List.of(
                "{\"filters\":[{\"field\":\"s\",\"operation\":\"RLIKE\",\"values\":[\".*error.*\"]}],"
                + "\"aggregation\":{\"type\":\"RAW\",\"size\":5}}",
                "{\"filters\":[{\"field\":\"n\",\"operation\":\">\",\"values\":[\"100\"]}],"
                + "\"aggregation\":{\"type\":\"COUNT DISTINCT\",\"fields\":{\"s\":\"s\"}}}"));
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            EngineAB.main(new String[] {"--base-dir", base.toString(), "--current-dir", current.toString(),
                                        "--records", records.toString(), "--queries-file", queries.toString(),
                                        "--rounds", "3", "--slice-ms", "20"});
        } finally {
            System.setOut(out);
        }
        JsonObject result = JsonParser.parseString(printed.toString(StandardCharsets.UTF_8).trim()).getAsJsonObject();
        assertEquals(2, result.get("queries").getAsInt());
        assertEquals(3, result.get("rounds").getAsInt());
        double ratio = result.get("current_over_base").getAsDouble();
        assertTrue(result.get("base_us_per_record").getAsDouble() > 0 && ratio > 0.05 && ratio < 20, result.toString());
        assertTrue(result.get("current_over_base_min").getAsDouble() <= ratio
                   && ratio <= result.get("current_over_base_max").getAsDouble(), result.toString());
    }

    @Test
    void theSidesAreSeparateCopiesOfTheEngine(@TempDir Path tmp) throws Exception {
        Path home = home(Files.createDirectories(tmp.resolve("one")));
        ClassLoader a = EngineAB.loader(home.toString());
        ClassLoader b = EngineAB.loader(home.toString());
        Class<?> engineA = Class.forName("dev.bullet.querying.FilterEngine", false, a);
        Class<?> engineB = Class.forName("dev.bullet.querying.FilterEngine", false, b);
        assertNotSame(engineA, engineB, "one class per build: neither side's JIT profile is the other's");
        assertNotSame(FilterEngine.class, engineA);
        assertEquals(List.of(a, b), List.of(engineA.getClassLoader(), engineB.getClassLoader()).stream()
                .collect(Collectors.toList()));
    }
}
