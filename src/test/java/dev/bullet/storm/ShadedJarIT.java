package dev.bullet.storm;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The topology jar that {@code storm jar} takes (RECIPES: it must not bundle Storm), checked after {@code package}. */
class ShadedJarIT {
    private static Path shadedJar() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> jars = files.filter(p -> p.getFileName().toString().matches("bullet-storm-.*\\.jar"))
                                   .filter(p -> !p.getFileName().toString().startsWith("original-")).toList();
            assertEquals(1, jars.size(), "one shaded jar in target/: " + jars);
            return jars.get(0);
        }
    }

    @Test
    void topologyJarHasTheTopologyAndItsLibrariesButNotStorm() throws IOException {
        try (JarFile jar = new JarFile(shadedJar().toFile())) {
            assertNotNull(jar.getEntry("dev/bullet/storm/BulletTopologyMain.class"));
            assertNotNull(jar.getEntry("org/apache/kafka/clients/consumer/KafkaConsumer.class"));
            assertNotNull(jar.getEntry("org/apache/datasketches/theta/Sketch.class"));
            assertNotNull(jar.getEntry("bullet_defaults.yaml"));
            assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("org/apache/storm/")), "Storm classes bundled");
            assertFalse(jar.stream().anyMatch(e -> e.getName().equals("defaults.yaml")), "Storm's defaults.yaml bundled");
            assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("kafka/server/")), "the Kafka broker bundled");
            assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("com/yahoo/bullet/")), "bullet-core bundled");
        }
    }
}
