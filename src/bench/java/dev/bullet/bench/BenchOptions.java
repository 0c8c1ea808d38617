package dev.bullet.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code --name value} command lines of the benchmark mains: {@code --help} prints the usage, bad input exits 2. */
final class BenchOptions {
    private BenchOptions() {
    }

    /** The options by name, or {@code null} after printing the usage for {@code --help}. */
    static Map<String, String> parse(String[] args, String usage) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                System.out.println(usage);
                return null;
            }
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                System.err.println("error: bad argument '" + args[i] + "'\n" + usage);
                System.exit(2);
            }
            options.put(args[i], args[++i]);
        }
        return options;
    }
}
