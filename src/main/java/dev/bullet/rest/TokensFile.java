package dev.bullet.rest;

import dev.bullet.BulletException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokens file of {@code bullet.rest.auth.type: tokens}: one {@code TOKEN TENANT [admin]} per line, separated by
 * spaces or tabs; {@code #} starts a comment, blank lines are skipped. Several tokens may name one tenant (to rotate
 * a token, add the new one, then remove the old one). A UTF-8 byte-order mark before the first line is skipped. Every
 * bad line is reported with its number, at once.
 */
final class TokensFile {
    /** Shortest token accepted: shorter ones are guessable. */
    static final int MIN_TOKEN_LENGTH = 16;
    static final String ADMIN = "admin";

    private TokensFile() {
    }

    /** Reads and parses the file; a missing or unreadable file, or any bad line, is a {@link BulletException}. */
    static Map<String, Tenant> load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BulletException("Cannot read the tokens file " + file + " (bullet.rest.auth.tokens.file): "
                                      + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        return parse(lines, file.toString());
    }

    /** Tenant by token. {@code source} names the file in errors. */
    static Map<String, Tenant> parse(List<String> lines, String source) {
        Map<String, Tenant> tokens = new HashMap<>();
        Map<String, Integer> firstLine = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = lines.get(i);
            if (i == 0 && line.startsWith("\uFEFF")) {
                line = line.substring(1); // the byte-order mark some editors write first: not part of the token
            }
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (content.isEmpty()) {
                continue;
            }
            String[] words = content.split("[ \\t]+");
            String problem = check(words);
            if (problem == null && firstLine.containsKey(words[0])) {
                problem = "the token is already on line " + firstLine.get(words[0]);
            }
            if (problem != null) {
                problems.add("line " + number + ": " + problem);
                continue;
            }
            firstLine.put(words[0], number);
            tokens.put(words[0], new Tenant(words[1], words.length == 3));
        }
        if (!problems.isEmpty()) {
            throw new BulletException("The tokens file " + source + " (bullet.rest.auth.tokens.file) has "
                                      + problems.size() + " bad line" + (problems.size() == 1 ? "" : "s")
                                      + " (each line is TOKEN TENANT [admin]):\n  " + String.join("\n  ", problems));
        }
        if (tokens.isEmpty()) {
            throw new BulletException("The tokens file " + source + " (bullet.rest.auth.tokens.file) has no token: "
                                      + "add lines TOKEN TENANT [admin], or nobody can use the service");
        }
        return tokens;
    }

    /** What is wrong with the words of one line, or null. Never echoes the token (the message is logged). */
    private static String check(String[] words) {
        if (words.length < 2 || words.length > 3) {
            return "expected TOKEN TENANT [admin], got " + words.length + " word" + (words.length == 1 ? "" : "s");
        }
        if (words[0].length() < MIN_TOKEN_LENGTH) {
            return "the token has " + words[0].length() + " characters, fewer than " + MIN_TOKEN_LENGTH
                   + " (make one with: openssl rand -hex 32)";
        }
        if (!words[0].chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return "the token has characters other than printable ASCII";
        }
        if (!Tenant.NAME.matcher(words[1]).matches()) {
            return "the tenant \"" + Replies.printable(words[1], 64) + "\" must be 1 to 128 of A-Z a-z 0-9 . _ @ -";
        }
        if (words.length == 3 && !words[2].equals(ADMIN)) {
            return "the third word may only be \"admin\", got \"" + Replies.printable(words[2], 64) + "\"";
        }
        return null;
    }
}
