// The compatibility suite: the official vanilla client (bundled into the demo page, unchanged) in Debian's
// headless Chromium against a real `./autocomplete serve`. Every assertion is on what the client really
// sent over the wire, what the server answered, and what the widget shows.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTenants, launchBrowser, pauseClock, recordTraffic, screenshot, startServer } from "./harness.mjs";

let server;
let browser;

before(async () => {
  server = await startServer(demoTenants());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Opens the demo page for a product and waits for the client's initial (empty) request. */
async function openDemo(product, { theme = "light", context = browser.context } = {}) {
  const page = await context.newPage();
  const traffic = recordTraffic(page, new URL(server.url).origin);
  await page.goto(`${server.url}/?product=${product}&theme=${theme}`);
  await traffic.waitFor((e) => e.request.data.raw_query === "", { what: "the initial request" });
  return { page, traffic };
}

const editor = (page) => page.locator("[data-aia-input]");
const option = (page, text) => page.locator("[data-aia-option]").filter({ hasText: new RegExp(`^${text}$`) });
const pills = (page) => page.locator("[data-aia-pill]").allTextContents();
const bold = (page) => page.locator("[data-aia-input] strong").allTextContents();
/** completed_params without `kind`: the client copies it from the option, and this server's options have none. */
const params = (exchange) => exchange.request.data.completed_params.map(({ kind, ...rest }) => rest);
const types = (exchange) => (exchange.response.data.suggestions ?? []).map((s) => s.type);

/** The client's own isReady, read from the running widget (the demo's Ready badge shows the same). */
const clientReady = (page) => page.evaluate(() => window.autocompleteDemo.widget.isReady);
const optionTexts = (suggestion) => (suggestion?.options ?? []).map((o) => o.text);
const suggestion = (exchange, type) => (exchange.response.data.suggestions ?? []).find((s) => s.type === type);

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
  "November", "December"];
/** How the date engine writes a day in English, e.g. "Sunday 22 November 2026" (the demo's travel runs on UTC). */
const dateLabel = (d) =>
  `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
const plusDays = (d, days) => new Date(d.getTime() + days * 86_400_000);
const REAL_DATE = new RegExp(`^(${WEEKDAYS.join("|")}) \\d{1,2} (${MONTHS.join("|")}) \\d{4}$`);

/**
 * The date options offered with nothing typed: real days, today first, then tomorrow. `since` is a time
 * taken before the request, so a run across midnight UTC still knows which day the server meant.
 */
function assertRealDateOptions(options, since) {
  assert.ok(options.length >= 2, `date options: ${options}`);
  for (const text of options) assert.match(text, REAL_DATE);
  const now = new Date();
  const today = [since, now].map(dateLabel).find((label) => label === options[0]);
  assert.ok(today, `the first date option is today (UTC): ${options[0]} vs ${dateLabel(now)}`);
  const day = today === dateLabel(since) ? since : now;
  assert.equal(options[1], dateLabel(plusDays(day, 1)), "then tomorrow");
}

/** Clicks an option, then moves the pointer off the dropdown so it highlights nothing (as a typist would). */
async function pick(page, text) {
  await option(page, text).click();
  await page.mouse.move(5, 5);
  await page.waitForTimeout(600); // the client's selection animation
}

/**
 * The client's skip: ArrowRight with the caret at the end of the input. Escape first drops a highlight the
 * pointer may have left on an option (with one, ArrowRight moves through the options instead).
 */
async function skipActivePill(page) {
  await editor(page).press("End");
  await page.keyboard.press("Escape");
  await page.keyboard.press("ArrowRight");
}

async function typeSlowly(page, text) {
  await page.keyboard.type(text, { delay: 70 });
}

describe("travel: the journey from the issue, then skipping optional params", () => {
  let page;
  let traffic;

  it("types 'Book a flight from Par' and gets Paris offered for the origin", async () => {
    ({ page, traffic } = await openDemo("travel"));
    await editor(page).click();
    await typeSlowly(page, "Book a flight from Par");
    const reply = await traffic.waitFor((e) => e.request.data.raw_query === "Book a flight from Par",
      { what: "the request for 'Book a flight from Par'" });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.authorization, `Bearer ${server.keys.travel}`, "the demo public key, as Bearer");
    assert.match(reply.headers["content-type"], /^application\/json/);
    assert.equal(reply.request.meta.client_version, "0.7.0");
    assert.deepEqual(reply.request.data.completed_params, [], "completed_params is sent, empty");
    // While a required param is open only the required ones are listed (protocol §4.4).
    assert.deepEqual(types(reply), ["origin", "destination"]);
    await option(page, "Paris").waitFor();
    assert.deepEqual(await pills(page), ["From", "To"]);
    await page.waitForTimeout(300);
    await screenshot(page, "travel-from-par");
  });

  it("picks Paris, types ' to lon', picks London: tokens, recently_suggested, then ready at once", async () => {
    const from = traffic.exchanges.length;
    await pick(page, "Paris");
    await typeSlowly(page, " to lon");
    await option(page, "London").waitFor();

    // "to l" matches no cached option, so the client must ask the server (exactly when depends on its debounce).
    const typing = await traffic.waitFor((e) => /to l/.test(e.request.data.raw_query),
      { from, what: "a request for the typed 'to l…'" });
    assert.equal(typing.status, 200);
    assert.match(typing.request.data.raw_query, /^Book a flight from \{\{ORIGIN_1\}\} +to lo?n?$/);
    for (const e of traffic.exchanges.slice(from)) {
      assert.match(e.request.data.raw_query, /^Book a flight from \{\{ORIGIN_1\}\} /, "Paris travels as a token");
    }
    assert.deepEqual(params(typing),
      [{ placeholder: "{{ORIGIN_1}}", type: "origin", text: "Paris" }]);
    // The user typed trailing text no pill covers yet: the client says what was on screen.
    const recent = typing.request.data.recently_suggested ?? [];
    assert.ok(recent.some((r) => r.type === "destination" && r.text === "To"), JSON.stringify(recent));
    assert.ok(recent.every((r) => r.type !== "placeholder"));
    assert.deepEqual(types(typing), ["destination"], "only the open required param, no optional ones yet");
    assert.equal(typing.response.data.is_ready, false, "the destination is still missing");
    assert.equal(await clientReady(page), false);

    // Issue 10, defect 7: the pick that fills the last required param leaves the client ready within one
    // round trip. Nothing is typed after it: the first request the pick itself sends must answer ready.
    const since = new Date();
    const picked = traffic.exchanges.length;
    await pick(page, "London");
    const afterPick = await traffic.waitFor(() => true, { from: picked, what: "the request the London pick sends" });
    assert.match(afterPick.request.data.raw_query,
      /^Book a flight from \{\{ORIGIN_1\}\} +to \{\{DESTINATION_1\}\} $/);
    assert.deepEqual(params(afterPick), [
      { placeholder: "{{ORIGIN_1}}", type: "origin", text: "Paris" },
      { placeholder: "{{DESTINATION_1}}", type: "destination", text: "London" },
    ]);
    assert.equal(afterPick.response.data.is_ready, true);
    assert.deepEqual(types(afterPick), ["date", "cabin", "passengers"], "the optional params, now that ready");
    assertRealDateOptions(optionTexts(suggestion(afterPick, "date")), since);
    await page.locator("#ready[data-ready=true]").waitFor();
    assert.equal(await clientReady(page), true, "the client's own isReady");
    assert.equal(await page.locator("#ready").textContent(), "ready to submit");

    const text = (await editor(page).textContent()).replace(/\s+/g, " ");
    assert.equal(text.trim(), "Book a flight from Paris to London");
    const boldTexts = await bold(page);
    assert.ok(boldTexts.includes("Paris") && boldTexts.includes("London"), `bold params: ${boldTexts}`);
    await page.locator("[data-aia-pill]").filter({ hasText: "Passengers" }).waitFor();
    assert.deepEqual(await pills(page), ["Date", "Cabin", "Passengers"], "the optional params come as pills");
    const shown = await page.locator("[data-aia-option]").allTextContents();
    assert.deepEqual(shown, optionTexts(suggestion(afterPick, "date")), "the dropdown shows the real dates");
    await page.waitForTimeout(300);
    await screenshot(page, "travel-paris-to-london");
  });

  it("skips Date with ArrowRight; the next request carries the skipped entry and Date is not suggested again",
    async () => {
      await skipActivePill(page);
      assert.deepEqual(await pills(page), ["Cabin", "Passengers"], "the skipped pill is gone at once");

      const from = traffic.exchanges.length;
      await typeSlowly(page, "in Bus");
      // The skip fires no request while other pills remain; it rides on the next one, sent once the
      // typed "in" reaches the server (then "Bus" may filter the cached cabin options locally).
      const next = await traffic.waitFor(() => true, { from, what: "the request after the skip" });
      assert.match(next.request.data.raw_query, /\{\{DESTINATION_1\}\} in/);
      assert.equal(next.status, 200);
      assert.deepEqual(params(next), [
        { placeholder: "{{ORIGIN_1}}", type: "origin", text: "Paris" },
        { placeholder: "{{DESTINATION_1}}", type: "destination", text: "London" },
        { placeholder: "", type: "date", text: "skipped" },
      ]);
      assert.ok(!types(next).includes("date"), `suggested: ${types(next)}`);
      assert.equal(types(next)[0], "cabin");
      assert.equal(next.response.data.is_ready, true, "origin and destination are filled");
      await option(page, "Business").waitFor();
      for (const e of traffic.exchanges.slice(from)) assert.ok(!types(e).includes("date"));
    });

  it("picks Business, skips the last pill; the immediate request is ready and the widget says so", async () => {
    await pick(page, "Business");
    assert.deepEqual(await pills(page), ["Passengers"]);
    const from = traffic.exchanges.length;
    await skipActivePill(page);
    const last = await traffic.waitFor(() => true, { from, what: "the request after skipping the last pill" });
    // Two spaces before "to": the client leaves one after a pick and the journey types " to lon".
    assert.match(last.request.data.raw_query,
      /^Book a flight from \{\{ORIGIN_1\}\} +to \{\{DESTINATION_1\}\} in \{\{CABIN_1\}\} $/);
    assert.deepEqual(last.request.data.completed_params.map((p) => [p.type, p.text]), [
      ["origin", "Paris"], ["destination", "London"], ["cabin", "Business"], ["date", "skipped"],
      ["passengers", "skipped"],
    ]);
    assert.equal(last.response.data.is_ready, true);
    assert.ok(!types(last).includes("date") && !types(last).includes("passengers"), `suggested: ${types(last)}`);
    await page.locator("#ready[data-ready=true]").waitFor();
    assert.deepEqual((await bold(page)).filter((t) => t.trim()), ["Paris", "London", "Business"]);
    assert.deepEqual(traffic.foreign, [], "nothing was loaded from another host");
    await page.waitForTimeout(800); // let the dropdown settle after the last response
    await screenshot(page, "travel-ready");
  });
});

describe("travel: tapping Paris then London, nothing typed, then typing a date", () => {
  let page;
  let traffic;
  // A browser of its own: the date step stops the page's clock, and a clock belongs to a whole context.
  let own;

  before(async () => {
    own = await launchBrowser();
    await own.context.clock.install();
  });

  after(async () => {
    await own?.close();
  });

  it("leaves the client ready after the London tap, within one round trip (issue 10, defect 7)", async () => {
    ({ page, traffic } = await openDemo("travel", { context: own.context }));
    // The host names the user's recent cities, so both are tappable on the empty input.
    await page.locator("#context").fill(JSON.stringify({ recent_cities: ["Paris", "London"] }));
    let from = traffic.exchanges.length;
    await page.locator("#language").selectOption("en"); // resets the widget: a fresh empty request, with the context
    const initial = await traffic.waitFor((e) => e.request.data.additional_context !== undefined,
      { from, what: "the empty request with additional_context" });
    assert.equal(initial.request.data.raw_query, "");
    assert.deepEqual(types(initial), ["placeholder", "origin", "destination"], "only the required params");
    assert.deepEqual(optionTexts(suggestion(initial, "origin")).slice(0, 2).sort(), ["London", "Paris"]);

    await editor(page).click();
    await option(page, "Paris").waitFor();
    await pick(page, "Paris");
    assert.equal(await clientReady(page), false, "the destination is still missing");
    assert.deepEqual(await pills(page), ["To"]);

    from = traffic.exchanges.length;
    const since = new Date();
    await pick(page, "London");
    const afterTap = await traffic.waitFor(() => true, { from, what: "the request the London tap sends" });
    assert.equal(afterTap.request.data.raw_query, "Book a flight from {{ORIGIN_1}} {{DESTINATION_1}} ");
    assert.deepEqual(params(afterTap), [
      { placeholder: "{{ORIGIN_1}}", type: "origin", text: "Paris" },
      { placeholder: "{{DESTINATION_1}}", type: "destination", text: "London" },
    ]);
    assert.equal(afterTap.status, 200);
    assert.equal(afterTap.response.data.is_ready, true);
    assert.deepEqual(types(afterTap), ["date", "cabin", "passengers"]);
    assertRealDateOptions(optionTexts(suggestion(afterTap, "date")), since);
    await page.locator("#ready[data-ready=true]").waitFor();
    assert.equal(await clientReady(page), true, "the client's own isReady, with nothing typed");
    assert.equal(await page.locator("#ready").textContent(), "ready to submit");
    assert.deepEqual(await bold(page), ["Paris", "London"]);
    await page.locator("[data-aia-pill]").filter({ hasText: "Passengers" }).waitFor();
    assert.deepEqual(await pills(page), ["Date", "Cabin", "Passengers"]);
    await page.waitForTimeout(300);
    await screenshot(page, "travel-tapped-paris-london");
  });

  it("types 'on 12 march': the date engine reads it, the text stays as typed, cabin comes next", async () => {
    const from = traffic.exchanges.length;
    await editor(page).press("End");
    // The page's clock stands still while the keys go in, so the client's debounce sees one burst and asks
    // about the whole date, as it does for a quick typist. At this machine's uneven pace it may instead ask
    // at "12 ma", get "Friday 12 March 2027" offered, and filter that locally from then on without asking.
    await pauseClock(page);
    await typeSlowly(page, "on 12 march");
    await page.clock.resume();
    const dated = await traffic.waitFor((e) => / on 12 march$/.test(e.request.data.raw_query),
      { from, what: "the request for 'on 12 march'" });
    assert.equal(dated.request.data.raw_query, "Book a flight from {{ORIGIN_1}} {{DESTINATION_1}} on 12 march");
    assert.equal(dated.status, 200);
    const date = dated.response.data.input.find((i) => i.type === "date");
    assert.deepEqual(date, { type: "date", text: "12 march", state: "completed", source: "identified" },
      "read by the date engine and kept literal (note 11)");
    assert.equal(dated.response.data.is_ready, true);
    assert.deepEqual(types(dated), ["cabin", "passengers"], "the filled date is not suggested again");
    await option(page, "Economy").waitFor();
    assert.deepEqual(await pills(page), ["Cabin", "Passengers"]);
    await page.locator('[data-aia-input] strong[data-seg="identified"]', { hasText: "12 march" }).waitFor();
    const text = (await editor(page).textContent()).replace(/\s+/g, " ").trim();
    assert.equal(text, "Book a flight from Paris London on 12 march");
    assert.equal(await clientReady(page), true);
    assert.deepEqual(traffic.foreign, []);
    await page.waitForTimeout(300);
    await screenshot(page, "travel-on-12-march");
  });
});

describe("workspace: tapping an option on the empty input", () => {
  it("builds 'Create an <option>' from the prompt and sends it as a token", async () => {
    const { page, traffic } = await openDemo("workspace");
    const initial = traffic.exchanges[0];
    const placeholder = initial.response.data.suggestions.find((s) => s.type === "placeholder");
    assert.equal(placeholder.text, "Create an");
    await editor(page).click();
    await option(page, "email").waitFor();
    const from = traffic.exchanges.length;
    await option(page, "email").click();

    const text = (await editor(page).textContent()).replace(/\s+/g, " ").trim();
    assert.equal(text, "Create an email");
    const sent = await traffic.waitFor(() => true, { from, what: "the request after the tap" });
    assert.equal(sent.request.data.raw_query, "Create an {{TYPE_1}} ");
    assert.deepEqual(params(sent),
      [{ placeholder: "{{TYPE_1}}", type: "type", text: "email" }]);
    assert.equal(sent.status, 200);
    assert.deepEqual(types(sent), ["contact"], "the email's required contact; no optional topic while it is open");
    assert.deepEqual(await bold(page), ["email"]);
    await page.waitForTimeout(700);
    assert.deepEqual(traffic.foreign, []);
    await screenshot(page, "workspace-create-an-email");
  });
});

describe("the demo page", () => {
  it("reads well in dark mode and counts additional_context bytes as the server does", async () => {
    const { page, traffic } = await openDemo("travel", { theme: "dark" });
    const context = JSON.stringify({ recent_cities: ["Lisbon", "Zürich"] });
    await page.locator("#context").fill(context);
    assert.equal(await page.locator("#context-bytes").textContent(),
      `${Buffer.byteLength(context, "utf8")} / 2000 bytes`);
    const from = traffic.exchanges.length;
    // Leaving the editor for the empty command bar asks again, with the context: its cities come first at once.
    await editor(page).click();
    const sent = await traffic.waitFor((e) => e.request.data.additional_context !== undefined,
      { from, what: "a request with additional_context" });
    assert.deepEqual(sent.request.data.additional_context, { recent_cities: ["Lisbon", "Zürich"] });
    assert.equal(sent.status, 200);
    const origins = sent.response.data.suggestions.find((s) => s.type === "origin");
    assert.deepEqual(origins.options.slice(0, 2).map((o) => o.text).sort(), ["Lisbon", "Zürich"],
      "options the context names come first");
    await typeSlowly(page, "Book a flight from ");
    await page.keyboard.type("L", { delay: 70 });
    await page.keyboard.type("i", { delay: 70 });
    await option(page, "Lisbon").waitFor();
    assert.deepEqual(await pills(page), ["From", "To"], "only the required params while they are open");
    await page.locator("#last-response").filter({ hasText: "Lisbon" }).waitFor();
    await screenshot(page, "demo-dark");
  });

  it("asks again on an empty command bar once the context is edited, so what the context names shows at once",
    async () => {
      const { page, traffic } = await openDemo("travel");
      const from = traffic.exchanges.length;
      await page.locator("#context").fill(JSON.stringify({ recent_cities: ["Reykjavík"] }));
      await page.locator("#context").blur();
      const asked = await traffic.waitFor(
        (e) => e.request.data.raw_query === "" && e.request.data.additional_context !== undefined,
        { from, what: "an empty request carrying the context" });
      assert.equal(asked.response.data.suggestions.find((s) => s.type === "origin").options[0].text, "Reykjavík");
      await editor(page).click(); // the dropdown shows while the command bar has the focus: the new list, unasked
      await option(page, "Reykjavík").waitFor();
    });

  it("says when Enter submitted a query that was not ready (the client submits on Enter whatever its state)",
    async () => {
      const { page, traffic } = await openDemo("travel");
      await editor(page).click();
      await typeSlowly(page, "Book a flight from Par");
      await traffic.waitFor((e) => e.request.data.raw_query === "Book a flight from Par",
        { what: "the request for 'Book a flight from Par'" });
      assert.equal(await clientReady(page), false);
      await page.keyboard.press("Enter");
      const said = await page.locator("#submitted").textContent();
      assert.match(said, /^Submitted before it was ready/, said);
    });
});

describe("the language switcher", () => {
  it("sends the chosen language as meta.language and the server answers in it", async () => {
    const { page, traffic } = await openDemo("travel");
    const from = traffic.exchanges.length;
    await page.locator("#language").selectOption("fr");
    const french = await traffic.waitFor((e) => e.request.meta.language === "fr", { from, what: "a request in fr" });
    assert.equal(french.request.data.raw_query, "");
    assert.equal(french.response.data.suggestions[0].text, "Réserver un vol au départ de");
    await page.locator("[data-aia-pill]").filter({ hasText: "Départ" }).first().waitFor();
    assert.deepEqual(await pills(page), ["Départ", "Arrivée"]);
  });
});

describe("the product switcher and the context limit", () => {
  it("switches to workspace with its own key, and shows the server's 400 for a context over 2000 bytes",
    async () => {
      const { page, traffic } = await openDemo("travel");
      let from = traffic.exchanges.length;
      await page.locator('#products button[data-product="workspace"]').click();
      const workspace = await traffic.waitFor(() => true, { from, what: "the workspace's first request" });
      assert.equal(workspace.headers.authorization, `Bearer ${server.keys.workspace}`);
      assert.equal(workspace.response.data.suggestions[0].text, "Create an");

      // {"k":"xxx…"} compacts to 8 bytes plus the string: 1993 x's make 2001 bytes.
      await page.locator("#context").fill(JSON.stringify({ k: "x".repeat(1993) }, null, 2));
      assert.equal(await page.locator("#context-bytes").textContent(), "2001 / 2000 bytes");
      assert.equal(await page.locator("#context-bytes").getAttribute("data-state"), "over");
      from = traffic.exchanges.length;
      await editor(page).click();
      await typeSlowly(page, "Create a xy");
      const refused = await traffic.waitFor(() => true, { from, what: "the request with the large context" });
      assert.equal(refused.status, 400);
      assert.equal(refused.response.error.code, "ADDITIONAL_CONTEXT_TOO_LARGE");
      await page.locator("#request-status", { hasText: "HTTP 400" }).waitFor();
      // The problem box says what the server said, not only the client's "API error: 400 Bad Request".
      await page.locator("#problem", { hasText: "The server answered 400 ADDITIONAL_CONTEXT_TOO_LARGE" }).waitFor();
    });
});
