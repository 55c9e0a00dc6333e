// The compatibility suite: the official vanilla client (bundled into the demo page, unchanged) in Debian's
// headless Chromium against a real `./autocomplete serve`. Every assertion is on what the client really
// sent over the wire, what the server answered, and what the widget shows.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTenants, launchBrowser, recordTraffic, screenshot, startServer } from "./harness.mjs";

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
async function openDemo(product, { theme = "light" } = {}) {
  const page = await browser.context.newPage();
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
    assert.equal(reply.response.data.suggestions[0].type, "origin");
    await option(page, "Paris").waitFor();
    assert.deepEqual((await pills(page)).slice(0, 2), ["From", "To"]);
    await page.waitForTimeout(300);
    await screenshot(page, "travel-from-par");
  });

  it("picks Paris, types ' to lon', picks London: tokens, completed_params and recently_suggested", async () => {
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
    assert.equal(typing.response.data.suggestions[0].type, "destination");
    assert.equal(typing.response.data.is_ready, false, "the destination is still missing");

    await pick(page, "London");
    const text = (await editor(page).textContent()).replace(/\s+/g, " ");
    assert.equal(text.trim(), "Book a flight from Paris to London");
    const boldTexts = await bold(page);
    assert.ok(boldTexts.includes("Paris") && boldTexts.includes("London"), `bold params: ${boldTexts}`);
    assert.deepEqual(await pills(page), ["Date", "Cabin", "Passengers"], "the optional params remain as pills");
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

describe("workspace: tapping an option on the empty input", () => {
  it("builds 'Create a <option>' from the prompt and sends it as a token", async () => {
    const { page, traffic } = await openDemo("workspace");
    const initial = traffic.exchanges[0];
    const placeholder = initial.response.data.suggestions.find((s) => s.type === "placeholder");
    assert.equal(placeholder.text, "Create a");
    await editor(page).click();
    await option(page, "email").waitFor();
    const from = traffic.exchanges.length;
    await option(page, "email").click();

    const text = (await editor(page).textContent()).replace(/\s+/g, " ").trim();
    assert.equal(text, "Create a email");
    const sent = await traffic.waitFor(() => true, { from, what: "the request after the tap" });
    assert.equal(sent.request.data.raw_query, "Create a {{TYPE_1}} ");
    assert.deepEqual(params(sent),
      [{ placeholder: "{{TYPE_1}}", type: "type", text: "email" }]);
    assert.equal(sent.status, 200);
    assert.equal(types(sent)[0], "contact", "the email's required contact comes next");
    assert.deepEqual(await bold(page), ["email"]);
    await page.waitForTimeout(700);
    assert.deepEqual(traffic.foreign, []);
    await screenshot(page, "workspace-create-a-email");
  });
});

describe("the demo page", () => {
  it("reads well in dark mode and counts additional_context bytes as the server does", async () => {
    const { page, traffic } = await openDemo("travel", { theme: "dark" });
    const context = JSON.stringify({ recent_cities: ["Lisbon", "Zürich"] });
    await page.locator("#context").fill(context);
    assert.equal(await page.locator("#context-bytes").textContent(),
      `${Buffer.byteLength(context, "utf8")} / 2000 bytes`);
    await editor(page).click();
    const from = traffic.exchanges.length;
    await typeSlowly(page, "Book a flight from ");
    await page.keyboard.type("L", { delay: 70 });
    await page.keyboard.type("i", { delay: 70 });
    const sent = await traffic.waitFor((e) => e.request.data.additional_context !== undefined,
      { from, what: "a request with additional_context" });
    assert.deepEqual(sent.request.data.additional_context, { recent_cities: ["Lisbon", "Zürich"] });
    assert.equal(sent.status, 200);
    assert.equal(sent.response.data.suggestions[0].options[0].text, "Lisbon", "options the context names come first");
    await option(page, "Lisbon").waitFor();
    await page.locator("#last-response").filter({ hasText: "Lisbon" }).waitFor();
    await screenshot(page, "demo-dark");
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
    assert.deepEqual((await pills(page)).slice(0, 2), ["Départ", "Arrivée"]);
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
      assert.equal(workspace.response.data.suggestions[0].text, "Create a");

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
    });
});
