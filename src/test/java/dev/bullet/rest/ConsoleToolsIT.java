package dev.bullet.rest;

import dev.bullet.local.LocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;

import static dev.bullet.testing.Ports.freePortPair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A new user's path through the console's tools, in headless Chromium against the real local stack: the schema panel
 * is open on a first visit and finds a field, the editor completes it, the builder writes a GROUP query that runs, the
 * result is exported as CSV and saved, a reload finds it in the history and the saved queries, and its share link
 * opens the query in a fresh browser profile. Screenshots of the schema panel and the builder go to {@code docs/} (the
 * README shows them) and {@code target/console-screenshots/}.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ConsoleToolsIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static final Path DOCS = Path.of("docs");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String GROUP_BQL = "SELECT s_00, COUNT(*) FROM STREAM(3000, TIME) GROUP BY s_00 LIMIT 10";

    private static LocalStack stack;
    @TempDir
    static Path profiles;

    @BeforeAll
    static void startStack() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                   "no browser: install Debian's chromium and chromium-driver (.ci/run does) to run the console tests");
        stack = LocalStack.start(new LocalStack.Options(null, freePortPair(), null, 0, 50),
                                 new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static ChromeDriver browser(Path profile, Path downloads) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--disable-background-networking", "--disable-component-update", "--disable-sync",
                             "--no-first-run", "--user-data-dir=" + profile);
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                                                      "download.prompt_for_download", false));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1400, 950));
        driver.executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow",
                                                                       "downloadPath", downloads.toString()));
        return driver;
    }

    private static void screenshot(WebDriver browser, String name, boolean forReadme) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.createDirectories(SHOTS);
        Files.copy(shot.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        if (forReadme && Files.isDirectory(DOCS)) {
            Files.copy(shot.toPath(), DOCS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void open(WebDriver browser, String url) {
        browser.get(url);
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("health")).getText().contains("UP"));
    }

    private static String editorText(WebDriver browser) {
        return (String) ((JavascriptExecutor) browser).executeScript("return document.getElementById('query').value");
    }

    private static void assertNoConsoleErrors(WebDriver browser) {
        List<LogEntry> severe = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                                       .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                                       .filter(e -> !(e.getMessage().contains(RestServer.VALIDATE_QUERY)
                                                      && e.getMessage().contains("status of 400")))
                                       .toList();
        assertEquals(List.of(), severe.stream().map(LogEntry::getMessage).toList(), "browser console errors");
    }

    @Test
    void aNewUserFindsAFieldBuildsAGroupQueryRunsExportsSavesAndSharesIt() throws Exception {
        Path downloads = Files.createDirectories(profiles.resolve("downloads"));
        ChromeDriver browser = browser(profiles.resolve("first"), downloads);
        try {
            String console = stack.restUrl() + "/console";
            open(browser, console);
            WebDriverWait wait = new WebDriverWait(browser, WAIT);

            findAFieldInTheSchemaPanel(browser, wait);

            // completion in the editor: typing a prefix offers the field, Tab takes it
            WebElement editor = browser.findElement(By.id("query"));
            ((JavascriptExecutor) browser).executeScript("arguments[0].value = ''; arguments[0].focus();", editor);
            editor.sendKeys("SELECT s_0");
            wait.until(d -> d.findElement(By.id("completion")).isDisplayed());
            assertTrue(browser.findElement(By.id("completion")).getText().contains("s_00"));
            editor.sendKeys(Keys.TAB);
            assertTrue(editorText(browser).startsWith("SELECT s_00"), editorText(browser));

            // a click on a field adds it to the SELECT list
            editor.sendKeys(" FROM STREAM(1000, TIME)");
            clearSearch(browser);
            browser.findElement(By.id("schema-search")).sendKeys("s_01");
            wait.until(d -> !d.findElements(By.cssSelector(".schema-name[data-path='s_01']")).isEmpty());
            browser.findElement(By.cssSelector(".schema-name[data-path='s_01']")).click();
            assertTrue(editorText(browser).startsWith("SELECT s_00, s_01 FROM"), editorText(browser));

            clearSearch(browser);
            // the builder writes a GROUP BY + COUNT query into the editor, which runs
            browser.findElement(By.cssSelector("#builder summary")).click();
            new Select(browser.findElement(By.id("b-agg"))).selectByValue("GROUP");
            browser.findElement(By.id("b-fields")).sendKeys("s_00");
            WebElement duration = browser.findElement(By.id("b-duration"));
            duration.clear();
            duration.sendKeys("3");
            browser.findElement(By.id("b-write")).click();
            assertEquals(GROUP_BQL, editorText(browser));
            editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
            wait.until(d -> d.findElement(By.id("status")).getText().equals("done"));
            screenshot(browser, "console-builder", true);
            assertTrue(browser.findElements(By.cssSelector("#results tbody tr")).size() > 1);
            assertTrue(browser.findElement(By.cssSelector("#results thead")).getText().contains("COUNT(*)"));

            // export CSV
            browser.findElement(By.id("export-csv")).click();
            wait.until(d -> csvIn(downloads) != null);
            List<String> csv = Files.readAllLines(csvIn(downloads), StandardCharsets.UTF_8);
            assertEquals("s_00,COUNT(*)", csv.get(0));
            assertTrue(csv.size() > 2, csv.toString());
            // a value a spreadsheet would run as a formula is exported as text; a negative number stays a number
            Object formulas = ((JavascriptExecutor) browser).executeScript(
                    "return toCsv([{f: '=1+1', n: -5, t: '-x,y'}, {f: '@a', n: 3, t: '+b'}])");
            assertEquals("f,n,t|'=1+1,-5,\"'-x,y\"|'@a,3,'+b|", String.valueOf(formulas).replaceAll("\r?\n", "|"));

            // save it, reload, find it in the saved queries and the history with its last result
            browser.findElement(By.id("save-name")).sendKeys("kinds");
            browser.findElement(By.id("save")).click();
            open(browser, console);
            assertTrue(browser.findElement(By.id("saved")).getText().contains("kinds"));
            WebElement last = browser.findElement(By.cssSelector("#history .query-open"));
            assertEquals(GROUP_BQL, last.getDomAttribute("title"));
            last.click();
            assertEquals(GROUP_BQL, editorText(browser));
            assertTrue(browser.findElements(By.cssSelector("#results tbody tr")).size() > 1, "the last result is kept");
            browser.findElement(By.id("share")).click();
            String link = browser.findElement(By.id("share-link")).getDomProperty("value");
            assertTrue(link.contains("#q="), link);
            assertTrue(!browser.findElement(By.id("pivot")).isDisplayed(), "no pivot for one group field");

            groupByTwoFieldsIsPivoted(browser, wait);
            assertNoConsoleErrors(browser);

            // the share link in a fresh profile opens the console with the query
            ChromeDriver fresh = browser(profiles.resolve("second"), downloads);
            try {
                open(fresh, link);
                assertEquals(GROUP_BQL, editorText(fresh));
                assertTrue(fresh.findElement(By.id("schema-panel")).isDisplayed());
                assertTrue(fresh.findElement(By.id("history")).getText().isEmpty(), "nothing of the first profile");
                assertNoConsoleErrors(fresh);
            } finally {
                fresh.quit();
            }
        } finally {
            browser.quit();
        }
    }

    /**
     * What a user types, clicks and runs is written as the query names it: a keyword already whole stays as typed,
     * a list of maps' key goes through its first map, a field whose name is no identifier is quoted, the builder's
     * strings double their quotes; a query run while another runs stops the first, and both are kept in the history;
     * a query's warnings stay listed while and after it runs.
     */
    @Test
    void typingClickingAndRunningAgainWriteWhatTheUserMeant() throws Exception {
        ChromeDriver browser = browser(profiles.resolve("third"), Files.createDirectories(profiles.resolve("dl3")));
        try {
            open(browser, stack.restUrl() + "/console");
            WebDriverWait wait = new WebDriverWait(browser, WAIT);
            JavascriptExecutor js = browser;
            wait.until(d -> Boolean.TRUE.equals(js.executeScript(
                    "return schemaState.fields.some((f) => f.name === 'lm_1' && f.fields && f.fields.length > 0)")));

            // Enter after a whole keyword keeps it (AS did become ASC)
            WebElement editor = browser.findElement(By.id("query"));
            js.executeScript("arguments[0].value = ''; arguments[0].focus();", editor);
            editor.sendKeys("SELECT s_00 AS");
            wait.until(d -> d.findElement(By.id("completion")).isDisplayed());
            editor.sendKeys(Keys.ENTER);
            assertTrue(editorText(browser).startsWith("SELECT s_00 AS") && !editorText(browser).contains("ASC"),
                       editorText(browser));
            assertEquals(List.of(), js.executeScript("return candidates('s_0', true).filter((c) => c.kind !== 'field')"),
                         "no BQL in JSON");
            assertEquals(List.of("COUNT DISTINCT", "COUNT"), js.executeScript(
                    "return candidates('CO', true).map((c) => c.text).filter((t) => t.startsWith('COUNT'))"));
            assertEquals(Boolean.TRUE, js.executeScript("return insideBqlString(\"SELECT * FROM STREAM() WHERE s = 'al\")"));

            // paths as BQL and the JSON form name them
            js.executeScript("arguments[0].value = '';", editor);
            assertEquals(List.of("lm_1[0].k0", "\"<b>x</b>\"", "m_03['a b']"), js.executeScript(
                    "return [queryPath(['lm_1', 'k0']), queryPath(['<b>x</b>']), queryPath(['m_03', 'a b'])]"));
            js.executeScript("arguments[0].value = '{';", editor);
            assertEquals("lm_1.0.k0", js.executeScript("return queryPath(['lm_1', 'k0'])"));
            assertEquals(List.of("'O''Brien'", "'a\\b'"),
                         js.executeScript("return [bqlLiteral('s_00', \"O'Brien\"), bqlLiteral('s_00', 'a\\\\b')]"));

            // a GROUP's chart shows its count, and a group of records without the field as null
            assertEquals("null:3,a:1", js.executeScript(
                    "state.type = 'GROUP'; return chartData([{g: null, 'COUNT(*)': 3, 'SUM(v)': 10},"
                    + " {g: 'a', 'COUNT(*)': 1, 'SUM(v)': 2}]).points.map((p) => p.label + ':' + p.value).join(',')"));

            // a query run while another runs: the first stops and is kept as stopped, the second runs to its end
            String waiting = "SELECT * FROM STREAM(30000, TIME) WHERE id = 'never' LIMIT 1";
            String counting = "SELECT COUNT(*) FROM STREAM(2000, TIME)";
            js.executeScript("setQueryText(arguments[0]);", waiting);
            editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
            wait.until(d -> d.findElement(By.id("status")).getText().startsWith("running"));
            js.executeScript("setQueryText(arguments[0]);", counting);
            editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
            wait.until(d -> d.findElement(By.id("status")).getText().equals("done"));
            assertEquals(List.of(counting + "|done|1", waiting + "|stopped|none"), js.executeScript(
                    "return readList(HISTORY_KEY).slice(0, 2).map((h) => h.query + '|' + h.status + '|'"
                    + " + (h.result ? h.result.records.length : 'none'))"));
            assertTrue(browser.findElement(By.id("run")).isEnabled());

            // warnings stay listed after the run
            js.executeScript("setQueryText(arguments[0]);", "SELECT COUNT(*) FROM STREAM(2000, TIME) WHERE s_0o = 'x'");
            browser.findElement(By.id("run")).click();
            wait.until(d -> d.findElement(By.id("status")).getText().equals("done"));
            assertTrue(browser.findElement(By.id("errors")).getText().contains("s_0o"),
                       browser.findElement(By.id("errors")).getText());
            assertNoConsoleErrors(browser);
        } finally {
            browser.quit();
        }
    }

    private static void findAFieldInTheSchemaPanel(WebDriver browser, WebDriverWait wait) throws IOException {
        // the schema panel is open on a first visit and lists the stream's fields once sampled
        assertTrue(browser.findElement(By.id("schema-panel")).isDisplayed(), "the schema panel is open at first");
        wait.until(d -> d.findElements(By.cssSelector("#schema-fields .schema-name[data-path='s_00']")).size() == 1);
        assertTrue(browser.findElements(By.cssSelector("#schema-fields > li")).size() > 50, "every top-level field");
        // a list of maps opens on its maps' keys
        WebElement lm0 = browser.findElement(By.cssSelector(".schema-name[data-path='lm_0']"));
        lm0.findElement(By.xpath("preceding-sibling::button")).click();
        WebElement key = browser.findElement(By.cssSelector(".schema-name[data-path='lm_0.k0']"));
        assertTrue(key.isDisplayed());
        screenshot(browser, "console-schema", true);
        browser.findElement(By.id("schema-search")).sendKeys("s_00");
        wait.until(d -> d.findElements(By.cssSelector("#schema-fields > li")).size() == 1);
        String row = browser.findElement(By.cssSelector("#schema-fields > li")).getText();
        assertTrue(row.contains("s_00") && row.contains("STRING") && row.contains("100%"), row);
    }

    private static void groupByTwoFieldsIsPivoted(WebDriver browser, WebDriverWait wait) {
        // GROUP BY two fields: the pivot shows one by the other
        browser.findElement(By.cssSelector("#builder summary")).click();
        new Select(browser.findElement(By.id("b-agg"))).selectByValue("GROUP");
        browser.findElement(By.id("b-fields")).sendKeys("s_00, s_05");
        WebElement seconds = browser.findElement(By.id("b-duration"));
        seconds.clear();
        seconds.sendKeys("2");
        browser.findElement(By.id("b-write")).click();
        browser.findElement(By.id("run")).click();
        wait.until(d -> d.findElement(By.id("status")).getText().equals("done")
                        && d.findElement(By.id("pivot")).isDisplayed());
        browser.findElement(By.cssSelector("#pivot summary")).click();
        assertEquals("s_00 \\ s_05", browser.findElement(By.cssSelector("#pivot-table thead th")).getText());
        assertTrue(browser.findElements(By.cssSelector("#pivot-table tbody tr")).size() > 1);
    }

    /** Empties the search box as a user does (an input event; Selenium's clear() sends none). */
    private static void clearSearch(WebDriver browser) {
        ((JavascriptExecutor) browser).executeScript("const s = document.getElementById('schema-search');"
                                                     + "s.value = ''; s.dispatchEvent(new Event('input'));");
    }

    private static Path csvIn(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".csv")).findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }
}
