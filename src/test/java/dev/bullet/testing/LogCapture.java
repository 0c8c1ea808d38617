package dev.bullet.testing;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Captures every log event of this JVM (messages and stack traces as text) while installed, plus the INFO events of
 * the given loggers, which go to the capture only (not to the console). For checks that something is never logged.
 */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<String> infoLoggers;

    private LogCapture(List<String> infoLoggers) {
        super("capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
        this.infoLoggers = infoLoggers;
    }

    /** Installs a capture; {@code infoLoggers} (e.g. the ones that dump configurations) are captured from INFO. */
    public static LogCapture install(String... infoLoggers) {
        LogCapture capture = new LogCapture(List.of(infoLoggers));
        capture.start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        for (LoggerConfig logger : config.getLoggers().values()) {
            logger.addAppender(capture, null, null);
        }
        config.getRootLogger().addAppender(capture, null, null);
        for (String name : infoLoggers) {
            LoggerConfig logger = LoggerConfig.newBuilder().withLoggerName(name).withLevel(Level.INFO)
                    .withAdditivity(false).withConfig(config).build();
            logger.addAppender(capture, null, null);
            config.addLogger(name, logger);
        }
        context.updateLoggers();
        return capture;
    }

    @Override
    public void append(LogEvent event) {
        StringBuilder text = new StringBuilder(event.getLoggerName()).append(": ")
                .append(event.getMessage().getFormattedMessage());
        if (event.getThrown() != null) {
            StringWriter trace = new StringWriter();
            event.getThrown().printStackTrace(new PrintWriter(trace));
            text.append('\n').append(trace);
        }
        events.add(text.toString());
    }

    /** The events captured so far. */
    public List<String> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        for (String name : infoLoggers) {
            config.removeLogger(name);
        }
        for (LoggerConfig logger : config.getLoggers().values()) {
            logger.removeAppender(getName());
        }
        config.getRootLogger().removeAppender(getName());
        context.updateLoggers();
        stop();
    }
}
