package dev.bullet.rest;

import dev.bullet.config.SettingsTable;
import dev.bullet.local.LocalStack;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static dev.bullet.testing.Ports.freePortPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The browser console in a real headless Chromium (Debian's chromium + chromedriver, which {@code .ci/run} installs)
 * against the real local stack (embedded Kafka, LocalCluster, REST): the seed's query finds its records, a GROUP query
 * draws a chart, an invalid query shows its errors, Stop ends a query; every page runs under the service's
 * Content-Security-Policy, and against a second REST server with token authentication the page asks for a token and
 * then runs queries with it. A screenshot of each state goes to {@code target/console-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static LocalStack stack;
    private static WebDriver browser;
    /** The browser's profile: JUnit deletes it after the class (after {@link #stop}). */
    @TempDir
    static Path profile;

    @BeforeAll
    static void startStackAndBrowser() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                   "no browser: install Debian's chromium and chromium-driver (.ci/run does) to run the console tests");
        int kafkaPort = freePortPair();
        // REST port 0: the server binds an ephemeral port itself. A port picked free here can be taken by Kafka's
        // or Storm's connections before the REST server binds it, half a minute later (a CI run failed on that).
        stack = LocalStack.start(new LocalStack.Options(null, kafkaPort, null, 0, 50),
                                 new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--disable-background-networking", "--disable-component-update", "--disable-sync",
                             "--no-first-run", "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1280, 900));
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void open() {
        browser.get(stack.restUrl() + "/console");
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("health")).getText().contains("UP"));
    }

    private static void type(String query) {
        WebElement editor = browser.findElement(By.id("query"));
        ((JavascriptExecutor) browser).executeScript(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", editor, query);
    }

    private static int resultRows() {
        return browser.findElements(By.cssSelector("#results tbody tr")).size();
    }

    /**
     * No script errors and no failed loads in the browser's console. Chromium also logs every 4xx and 5xx answer of a
     * fetch: a 400 from validate-query is the API's answer to an invalid query (which the page shows), and a 503 from
     * health is the service saying it is down (which the badge shows); neither is a page error.
     */
    private static void assertNoConsoleErrors() {
        List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                                       .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                                       .filter(e -> !(e.getMessage().contains(RestServer.VALIDATE_QUERY)
                                                      && e.getMessage().contains("status of 400")))
                                       .filter(e -> !(e.getMessage().contains(RestServer.API)
                                                      && e.getMessage().contains("status of 401")))
                                       .filter(e -> !(e.getMessage().contains(RestServer.HEALTH)
                                                      && e.getMessage().contains("status of 503")))
                                       .toList();
        assertEquals(List.of(), severe.stream().map(LogEntry::getMessage).toList(), "browser console errors");
    }

    @Test
    @Order(0)
    void thePageAndItsAssetsAreServedWithTheirTypesAndWeighUnder500KiB() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long total = 0;
        for (String[] file : new String[][] {{"/", "text/html"}, {"/console", "text/html"},
                                             {"/console/console.js", "application/javascript"},
                                             {"/console/console.css", "text/css"}}) {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(stack.restUrl() + file[0])).build(),
                                               HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode(), file[0]);
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith(file[1]), file[0]);
            total += file[0].equals("/") ? 0 : r.body().length;
        }
        assertTrue(total < 500 * 1024, "the page weighs " + total + " bytes");
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create(stack.restUrl() + "/console/nope.js"))
                                                            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
    }

    @Test
    @Order(1)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theSeedQueryShowsItsRecordsInTheTable() throws Exception {
        open();
        screenshot("1-loaded");
        type("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"c39ba8cfe8\"]}],"
             + "\"aggregation\":{\"type\":\"LIMIT\",\"size\":10},\"duration\":30000}");
        browser.findElement(By.id("query")).sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("status")).getText().startsWith("running"));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            String topic = stack.settings().getString(SettingsTable.DATASOURCE_KAFKA_TOPIC);
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, ("{\"id\":\"c39ba8cfe8\",\"n\":" + i + "}")
                        .getBytes(StandardCharsets.UTF_8)));
            }
        }
        new WebDriverWait(browser, WAIT).until(d -> resultRows() == 10);
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("status")).getText().equals("done"));
        screenshot("2-seed-query-rows");
        assertTrue(browser.findElement(By.cssSelector("#results thead")).getText().contains("id"));
        assertNoConsoleErrors();
    }

    @Test
    @Order(2)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aGroupQueryDrawsABarChart() throws Exception {
        open();
        type("{\"aggregation\":{\"type\":\"GROUP\",\"fields\":{\"s_00\":\"kind\"},"
             + "\"attributes\":{\"operations\":[{\"type\":\"COUNT\"}]}},\"duration\":3000}");
        browser.findElement(By.id("run")).click();
        new WebDriverWait(browser, WAIT).until(d -> !d.findElements(By.cssSelector("#chart svg rect")).isEmpty());
        screenshot("3-group-chart");
        assertTrue(resultRows() > 0);
        assertNoConsoleErrors();
    }

    @Test
    @Order(3)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anInvalidQueryShowsEveryErrorWithItsResolution() throws Exception {
        open();
        type("{\"aggregation\":{\"type\":\"NOPE\"},\"duration\":\"soon\"}");
        new WebDriverWait(browser, WAIT).until(d -> d.findElements(By.cssSelector("#errors li.error")).size() >= 2);
        assertTrue(browser.findElement(By.id("errors")).getText().contains("→"), "each error with its resolution");
        screenshot("4-invalid-query");
    }

    @Test
    @Order(4)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stopEndsARunningQuery() throws Exception {
        open();
        type("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"never-sent\"]}],\"duration\":60000}");
        browser.findElement(By.id("run")).click();
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("status")).getText().startsWith("running"));
        new WebDriverWait(browser, WAIT).until(d -> !runningQueries().equals("[]"));
        screenshot("5-running");
        browser.findElement(By.id("stop")).click();
        new WebDriverWait(browser, WAIT).until(d -> runningQueries().equals("[]"));
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("run")).isEnabled());
        screenshot("6-stopped");
        assertNoConsoleErrors();
    }

    @Test
    @Order(5)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theNarrowLayoutStillShowsTheEditorAndTheRunButton() throws Exception {
        browser.manage().window().setSize(new Dimension(400, 900));
        open();
        assertTrue(browser.findElement(By.id("query")).isDisplayed());
        assertTrue(browser.findElement(By.id("run")).isDisplayed());
        screenshot("7-narrow");
        browser.manage().window().setSize(new Dimension(1280, 900));
    }

    @Test
    @Order(6)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withTokensThePageAsksForATokenAndSendsItWithEveryRequest(@TempDir Path dir) throws Exception {
        String token = "console-token-0123456789";
        String otherTeams = "console-token-other-team";
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, token + " console-team\n" + otherTeams + " other-team\n");
        try (QueryService service = QueryService.start(stack.settings().withOverrides(Map.of(
                     SettingsTable.REST_PORT, 0, SettingsTable.REST_AUTH_TYPE, "tokens",
                     SettingsTable.REST_AUTH_TOKENS_FILE, tokens.toString(),
                     // reads the stack's response partitions: it must not kill the stack's queries as its own
                     SettingsTable.TOPOLOGY_QUERY_STORE_ENABLE, false)));
             RestServer server = RestServer.start(service)) {
            // the new service answers 503 on health until its first probe query came back through the topology
            new WebDriverWait(browser, WAIT).until(d -> status(server.url() + RestServer.HEALTH) == 200);
            browser.get(server.url() + "/console");
            new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("token")).isDisplayed());
            screenshot("8-token-asked");
            browser.findElement(By.id("token")).sendKeys(token);
            browser.findElement(By.id("signin-button")).click();
            new WebDriverWait(browser, WAIT).until(d -> !d.findElement(By.id("token")).isDisplayed());
            type("{\"filters\":[{\"field\":\"id\",\"operation\":\"==\",\"values\":[\"never-sent\"]}],\"duration\":60000}");
            browser.findElement(By.id("run")).click();
            new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("status")).getText().startsWith("running"));
            new WebDriverWait(browser, WAIT).until(d -> !d.findElements(By.cssSelector("#running tbody tr")).isEmpty());
            assertEquals(1, service.running().size());
            assertEquals("console-team", service.running().get(0).tenant());
            screenshot("9-token-running");
            browser.findElement(By.id("stop")).click();
            new WebDriverWait(browser, WAIT).until(d -> service.running().isEmpty());
            new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("run")).isEnabled());
            new WebDriverWait(browser, WAIT).until(d -> historyMentions("never-sent"));
            assertNoConsoleErrors();
            // another team in the same browser profile sees none of this team's queries or results, and back again
            ((JavascriptExecutor) browser).executeScript("sessionStorage.setItem('bullet.token', arguments[0])", otherTeams);
            browser.navigate().refresh();
            new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("health")).getText().contains("UP"));
            assertFalse(historyMentions("never-sent"), "another team's history");
            ((JavascriptExecutor) browser).executeScript("sessionStorage.setItem('bullet.token', arguments[0])", token);
            browser.navigate().refresh();
            new WebDriverWait(browser, WAIT).until(d -> historyMentions("never-sent"));
        }
    }

    private static boolean historyMentions(String text) {
        return browser.findElements(By.cssSelector("#history li button.query-open")).stream()
                      .anyMatch(b -> String.valueOf(b.getDomAttribute("title")).contains(text));
    }

    private static int status(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                                                   HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String runningQueries() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(stack.restUrl() + RestServer.QUERIES)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.body().replaceAll("\\s", "");
        } catch (IOException e) {
            return "unreachable";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }


}
