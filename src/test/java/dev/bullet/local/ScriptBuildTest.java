package dev.bullet.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scripts build what they need: {@code scripts/lib.sh} runs Maven when {@code target/} is missing or
 * older than the sources, once, and not again until a source changes. Runs the real lib.sh in a copy of the
 * repository's layout with a stand-in {@code mvn} on the PATH that counts its runs.
 */
class ScriptBuildTest {
    private static final Path LIB = Path.of("scripts/lib.sh").toAbsolutePath();

    record Run(int exitCode, String output) {
    }

    @Test
    void buildsOnceWhenMissingThenOnlyWhenASourceIsNewer(@TempDir Path repo) throws Exception {
        Path counter = layout(repo, "0");
        Run first = script(repo);
        assertEquals(0, first.exitCode(), first.output());
        assertTrue(first.output().contains("Building Bullet"), first.output());
        assertTrue(first.output().contains("CP=" + repo.resolve("target/classes") + ":/deps/a.jar"), first.output());
        assertEquals(1, runs(counter));

        Run second = script(repo);
        assertEquals(0, second.exitCode(), second.output());
        assertFalse(second.output().contains("Building"), second.output());
        assertEquals(1, runs(counter));

        Files.setLastModifiedTime(repo.resolve("src/main/A.java"), FileTime.from(Instant.now().plusSeconds(5)));
        Run edited = script(repo);
        assertEquals(0, edited.exitCode(), edited.output());
        assertEquals(2, runs(counter));
    }

    @Test
    void aFailedBuildIsOneClearErrorWithMavensOutput(@TempDir Path repo) throws Exception {
        layout(repo, "1");
        Run run = script(repo);
        assertEquals(1, run.exitCode(), run.output());
        assertTrue(run.output().contains("COMPILATION ERROR in A.java"), run.output());
        assertTrue(run.output().contains("error: the build failed"), run.output());
        assertFalse(run.output().contains("CP="), run.output());
    }

    @Test
    void stoppingTheScriptDuringTheBuildStopsMaven(@TempDir Path repo) throws Exception {
        layout(repo, "slow");
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("scripts/t.sh").toString())
                .redirectErrorStream(true).redirectOutput(repo.resolve("out.txt").toFile());
        pb.environment().put("PATH", repo.resolve("bin") + ":" + System.getenv("PATH"));
        Process script = pb.start();
        script.getOutputStream().close();
        Path mavenPid = repo.resolve("mvn.pid");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(mavenPid) && !Files.readString(mavenPid).isBlank()) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // polling interval
        }
        assertTrue(Files.exists(mavenPid), "Maven never started: " + Files.readString(repo.resolve("out.txt")));
        long pid = Long.parseLong(Files.readString(mavenPid).trim());
        ProcessHandle maven = ProcessHandle.of(pid).orElseThrow();
        new ProcessBuilder("kill", "-TERM", String.valueOf(script.pid())).start().waitFor(10, TimeUnit.SECONDS);
        assertTrue(script.waitFor(30, TimeUnit.SECONDS), "the script did not stop");
        assertEquals(130, script.exitValue(), Files.readString(repo.resolve("out.txt")));
        assertTrue(maven.onExit().get(30, TimeUnit.SECONDS) != null && !maven.isAlive(), "Maven was left running");
    }

    /** The repository layout, and a stand-in mvn that exits with {@code status} (building target/ when 0). */
    private static Path layout(Path repo, String status) throws IOException {
        Files.createDirectories(repo.resolve("scripts"));
        Files.createDirectories(repo.resolve("src/main"));
        Files.createDirectories(repo.resolve("bin"));
        Files.copy(LIB, repo.resolve("scripts/lib.sh"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>\n");
        Files.writeString(repo.resolve("src/main/A.java"), "class A {}\n");
        Files.writeString(repo.resolve("scripts/t.sh"), """
                #!/usr/bin/env bash
                set -euo pipefail
                source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
                bullet_classpath
                echo "CP=$BULLET_CP"
                """);
        Path counter = repo.resolve("mvn-runs");
        Files.writeString(counter, "");
        Path mvn = repo.resolve("bin/mvn");
        Files.writeString(mvn, """
                #!/usr/bin/env bash
                echo run >> '%s'
                if [[ %s == slow ]]; then echo $$ > mvn.pid; exec sleep 60; fi
                if [[ %s != 0 ]]; then echo 'COMPILATION ERROR in A.java'; exit %s; fi
                mkdir -p target/classes && echo /deps/a.jar > target/classpath.txt
                """.formatted(counter, status, status, status));
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        return counter;
    }

    private static int runs(Path counter) throws IOException {
        return (int) Files.readAllLines(counter).stream().filter(l -> !l.isBlank()).count();
    }

    private static Run script(Path repo) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("scripts/t.sh").toString())
                .redirectErrorStream(true);
        pb.environment().put("PATH", repo.resolve("bin") + ":" + System.getenv("PATH"));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script did not finish");
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
