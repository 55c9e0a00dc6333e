// The operator console in Debian's headless Chromium against a real `./autocomplete serve` with the demo tenant
// and another one (acme): every section renders with the server's data, the try-it client (the official one)
// reaches is_ready on acme's travel product, and the analytics charts show the picks it made.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import path from "node:path";
import { OUTPUT, demoAndAnotherTenant, launchBrowser, recordTraffic, screenshot, startServer } from "./harness.mjs";

let server;
let browser;

before(async () => {
  server = await startServer(demoAndAnotherTenant());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const option = (page, text) => page.locator("[data-aia-option]").filter({ hasText: new RegExp(`^${text}$`) });

async function pick(page, text) {
  await option(page, text).click();
  await page.mouse.move(5, 5);
  await page.waitForTimeout(600); // the client's selection animation
}

describe("the console", () => {
  let page;
  let traffic;

  it("is served on the management listener only", async () => {
    assert.ok(server.management, `serve printed the console's address:\n${server.output()}`);
    const publicAnswer = await fetch(`${server.url}/admin/`);
    assert.equal(publicAnswer.status, 404, "the public port does not serve the console");
    const page = await fetch(`${server.management}/admin/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy"), /default-src 'self'/);
  });

  it("shows tenants, products, catalogs, checks and keys", async () => {
    page = await browser.context.newPage();
    const port = new URL(server.url).port;
    traffic = recordTraffic(page, new URL(server.url).origin);
    const foreign = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.hostname !== "127.0.0.1") foreign.push(request.url());
    });
    await page.goto(`${server.management}/admin/?try=acme/travel&product=acme/travel&days=1`);
    await page.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    for (const tenant of ["demo", "acme"]) {
      const card = page.locator(`[data-tenant=${tenant}]`);
      await card.waitFor();
      assert.match(await card.textContent(), /UP/);
      assert.match(await card.locator("[data-product=travel]").textContent(), /circuit closed/);
      assert.match(await card.locator("[data-catalog=cities]").textContent(), /cities: \d+ options, generation \d+/);
    }
    assert.match(await page.locator("#checks").textContent(), /keys/);
    const keys = await page.locator("#keys").textContent();
    assert.match(keys, /\(in memory\)/, "serve's demo keys, never written");
    assert.doesNotMatch(keys, /pk_v1_/, "never a key itself");
    assert.match(await page.locator("#server-line").textContent(), new RegExp(`port ${port}`));
    assert.deepEqual(foreign, [], "nothing from another host");
    // The official client focuses its input on mount unless told not to, which scrolled the console to "Try it".
    assert.equal(await page.evaluate(() => window.scrollY), 0, "the console opens at its top");
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, "nothing took the focus");
    await screenshot(page, "console-tenants");
  });

  it("tries acme's travel with the official client until it is ready", async () => {
    assert.equal(
      await page.locator("#context").getAttribute("placeholder"),
      '{"home_city":"<origin>","home_country":"<country>"}',
      "the context editor shows what travel's params read",
    );
    await page.locator("#autocomplete [data-aia-input]").click();
    await page.keyboard.type("Book a flight from Par", { delay: 70 });
    await option(page, "Paris").waitFor();
    await pick(page, "Paris");
    await page.keyboard.type(" to lon", { delay: 70 });
    await option(page, "London").waitFor();
    await pick(page, "London");
    await page.waitForFunction(() => window.autocompleteConsole.widget.isReady === true, null, { timeout: 10_000 });
    assert.equal(await page.locator("#ready").getAttribute("data-ready"), "true");
    const ready = await traffic.waitFor((e) => e.response?.data?.is_ready === true, { what: "a ready answer" });
    assert.match(ready.headers.authorization, /^Bearer pk_v1_/, "the console's minted public key");
    assert.notEqual(ready.headers.authorization, `Bearer ${server.keys.travel}`, "not the demo's key");
    assert.match(await page.locator("#last-response").textContent(), /"is_ready": true/);
    await page.locator("#try").screenshot({ path: path.join(OUTPUT, "console-try-it.png") });
    // Enter hands the host page the query, as on the demo page: Try it says what it got.
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#try-submitted").textContent.length > 0, null, {
      timeout: 5_000,
    });
    assert.match(await page.locator("#try-submitted").textContent(), /^Submitted: “Book a flight from Paris +to London”/);
  });

  it("charts the picks it made in the analytics of acme's travel", async () => {
    // Picks reach learning within a second, analytics' store within five.
    const deadline = Date.now() + 30_000;
    for (;;) {
      await page.locator("#an-refresh").click();
      await page.waitForTimeout(1000);
      const picks = Number(await page.locator("[data-figure=picks] .value").textContent());
      if (picks >= 2) break;
      if (Date.now() > deadline) assert.fail(`no picks charted after 30 s (${picks})`);
      await page.waitForTimeout(1500);
    }
    assert.equal(await page.locator("#chart-picks").getAttribute("data-picks"), "2");
    assert.equal(await page.locator("#chart-picks canvas").count(), 1, "uPlot drew the chart");
    const top = await page.locator("#top-picks tbody").textContent();
    assert.match(top, /origin.*Paris/s);
    assert.match(top, /destination.*London/s);
    assert.ok(Number(await page.locator("[data-figure=requests] .value").textContent()) >= 3);
    assert.equal(await page.locator("[data-figure=ready_sessions] .value").textContent(), "1");
    await page.locator("#analytics").scrollIntoViewIfNeeded();
    await screenshot(page, "console-analytics");
  });

  it("shows the refused requests of a product by code, and those of no known key in the overview", async () => {
    // An operator trial: a client sending bad bodies showed as a product with fewer requests and no reason.
    const send = (key, body) => fetch(`${server.url}/api/suggest`, {
      method: "POST",
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), "Content-Type": "application/json" },
      body,
    });
    for (let i = 0; i < 2; i++) assert.equal((await send(server.keys.travel, '{"data": {"raw_query": "Book a fl')).status, 400);
    assert.equal((await send(`pk_v1_${"Q".repeat(40)}`, "{}")).status, 401);
    const visit = await browser.context.newPage();
    await visit.goto(`${server.management}/admin/?product=demo/travel&days=1`);
    await visit.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    // Counted as the answer leaves, in the store within five seconds.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const refused = Number(await visit.locator("[data-figure=refused] .value").textContent());
      if (refused >= 2) break;
      if (Date.now() > deadline) assert.fail(`no refused requests shown after 30 s (${refused})`);
      await visit.waitForTimeout(1500);
      await visit.locator("#an-refresh").click();
      await visit.waitForTimeout(500);
    }
    assert.equal(await visit.locator("[data-figure=refused] .value").textContent(), "2");
    assert.equal(await visit.locator("#chart-traffic").getAttribute("data-refused"), "2");
    const row = visit.locator("#refused tbody tr[data-code=INVALID_JSON]");
    assert.deepEqual(await row.locator("td").allTextContents(), ["suggest", "400", "INVALID_JSON", "2"]);
    assert.equal(await visit.locator("#refused tbody tr").count(), 1, "the unknown key's 401 is no product's");
    const nobody = await visit.locator("#refused-without-tenant tbody").textContent();
    assert.match(nobody, /suggest\s*401\s*INVALID_CREDENTIALS\s*1/);
    assert.doesNotMatch(await visit.locator("body").textContent(), /pk_v1_|Book a fl/, "never a key or a query");
    await visit.locator("#refused").scrollIntoViewIfNeeded();
    await screenshot(visit, "console-refused");
    // A product with none says so, like the other tables.
    await visit.locator("#an-product").selectOption("demo/workspace");
    await visit.locator("#refused tbody tr td[colspan]").waitFor();
    assert.equal(await visit.locator("#refused tbody").textContent(), "No refused requests in this period.");
    await visit.close();
  });

  it("sends no suggest request when opened, only once the operator asks to try", async () => {
    // An operator trial: every visit of the console counted a session in the first product's analytics.
    const visit = await browser.context.newPage();
    const sent = recordTraffic(visit, new URL(server.url).origin);
    await visit.goto(`${server.management}/admin/?product=acme/travel&days=1`);
    await visit.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    await visit.waitForTimeout(1500);
    assert.equal(sent.exchanges.length, 0, "no suggest request on opening");
    await visit.locator("#try-start").click();
    await sent.waitFor(() => true, { what: "the client's first request" });
    await visit.waitForFunction(() => document.activeElement?.matches("#autocomplete [data-aia-input]"), null, {
      timeout: 10_000,
    });
    await visit.close();
  });

  it("tries a product in the language picked, not the browser's: German, then French", async () => {
    // An operator trial: Try it always sent navigator.language (en-US here), so a German or French product could not
    // be tried in its language.
    const visit = await browser.context.newPage();
    const sent = recordTraffic(visit, new URL(server.url).origin);
    await visit.goto(`${server.management}/admin/?product=acme/travel&days=1`);
    await visit.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    // Try it offers the first product, without running it: a travel product, which has German and French words.
    assert.match(await visit.locator("#try-product").inputValue(), /^\w+\/travel$/);
    const offered = await visit.locator("#try-language option").evaluateAll((options) => options.map((o) => o.value));
    assert.deepEqual(offered, ["", "en", "de", "fr"], "the browser's, then the languages travel has words in");
    await visit.locator("#try-language").selectOption("de");
    await visit.waitForTimeout(1000);
    assert.equal(sent.exchanges.length, 0, "picking a language sends no request by itself");

    await visit.locator("#try-start").click();
    const first = await sent.waitFor(() => true, { what: "the client's first request" });
    assert.equal(first.request.meta.language, "de");
    await visit.locator("#autocomplete [data-aia-input]").click();
    await visit.keyboard.type("Flug buchen von Münch", { delay: 70 });
    await option(visit, "München").waitFor();
    const german = await sent.waitFor((e) => e.request.data.raw_query?.includes("Münch"), { what: "the German request" });
    assert.equal(german.request.meta.language, "de");
    assert.match(await visit.locator("#last-request").textContent(), /"language": "de"/);
    await visit.locator("#try").screenshot({ path: path.join(OUTPUT, "console-try-it-german.png") });

    // Switching takes effect on the next request, with the client that runs.
    const from = sent.exchanges.length;
    await visit.locator("#try-language").selectOption("fr");
    await visit.locator("#autocomplete [data-aia-input]").click();
    await visit.keyboard.type("Réserver un vol de Lond", { delay: 70 });
    await option(visit, "Londres").waitFor();
    const french = await sent.waitFor((e) => e.request.data.raw_query?.includes("Lond"), { from, what: "the French request" });
    assert.equal(french.request.meta.language, "fr");
    assert.ok(sent.exchanges.slice(from).every((e) => e.request.meta.language === "fr"), "no request in German after");

    // Another product offers its own languages; the demo's workspace has words in English only.
    await visit.locator("#try-product").selectOption("demo/workspace");
    assert.deepEqual(await visit.locator("#try-language option").evaluateAll((options) => options.map((o) => o.value)),
      ["", "en"]);
    assert.equal(await visit.locator("#try-language").inputValue(), "", "French is not kept for an English product");
    await visit.close();
  });

  it("fits a 400-pixel screen: nothing makes the page wider than the screen", async () => {
    // An operator trial: at 400 px the page was 800 px wide (the keys table, the nav, two panels side by side).
    const narrow = await browser.context.newPage();
    await narrow.setViewportSize({ width: 400, height: 900 });
    await narrow.goto(`${server.management}/admin/?product=acme/travel&days=7`);
    await narrow.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    await narrow.locator("#chart-traffic canvas").waitFor();
    const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 400, `the page is ${width} px wide on a 400 px screen`);
    await screenshot(narrow, "console-narrow");
    await narrow.close();
  });

  it("draws the charts' axes in the scheme's text colour: readable in the dark scheme", async () => {
    // uPlot draws on a canvas, which CSS does not reach: its text was black on the dark scheme's charts.
    const dark = await browser.context.newPage();
    await dark.emulateMedia({ colorScheme: "dark" });
    await dark.goto(`${server.management}/admin/?product=acme/travel&days=7`);
    await dark.locator("body[data-loaded=true]").waitFor({ timeout: 20_000 });
    await dark.locator("#chart-traffic canvas").waitFor();
    // Drawn again for another period: an operator's trial saw black text from the second drawing on.
    await dark.locator("#an-days").selectOption("30");
    await dark.waitForTimeout(1000);
    await dark.locator("#chart-traffic canvas").waitFor();
    const lightPixels = await dark.evaluate(() => {
      const canvas = document.querySelector("#chart-traffic canvas");
      const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      let light = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 200 && data[i] > 180 && data[i + 1] > 180 && data[i + 2] > 180) light++;
      }
      return light;
    });
    assert.ok(lightPixels > 50, `the axes' text is drawn light on the dark chart (${lightPixels} light pixels)`);
    await dark.locator("#analytics").scrollIntoViewIfNeeded();
    await screenshot(dark, "console-analytics-dark");
    await dark.close();
  });

  it("gives the client the focus when the operator picks another product to try", async () => {
    await page.locator("#try-product").selectOption("demo/workspace");
    await page.waitForFunction(() => document.activeElement?.matches("#autocomplete [data-aia-input]"), null, {
      timeout: 10_000,
    });
    await page.keyboard.type("Create an em", { delay: 70 });
    await option(page, "email").waitFor();
    assert.equal(await page.locator("#context").getAttribute("placeholder"), '{"team":"<team>","contact":["<contact>"]}');
  });

  it("shows, in Try it, a product that cannot be tried, with none of the previous product's client or key", async () => {
    // An operator trial: after a failed switch the old product's client and key stayed, under the new name, and the
    // error went to the banner at the top of the page.
    await page.evaluate(() => {
      const select = document.querySelector("#try-product");
      select.add(new Option("gone / travel", "gone/travel"));
      select.value = "gone/travel";
      select.dispatchEvent(new Event("change"));
    });
    await page.locator("#try-problem").waitFor({ state: "visible", timeout: 10_000 });
    assert.match(await page.locator("#try-problem").textContent(), /gone \/ travel cannot be tried/);
    assert.equal(await page.locator("#try-key").textContent(), "none");
    assert.equal(await page.locator("#autocomplete [data-aia-input]").count(), 0, "no client left to type into");
    assert.equal(await page.locator("#last-request").textContent(), "—");
    await page.locator("#try-product").selectOption("acme/travel");
    await page.locator("#autocomplete [data-aia-input]").waitFor({ timeout: 10_000 });
    assert.equal(await page.locator("#try-problem").isHidden(), true);
    assert.match(await page.locator("#try-key").textContent(), /^key_/);
  });
});
