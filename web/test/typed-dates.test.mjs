// Typed dates picked in the official client (issue 20): the client replaces only the tail of the typed text
// that starts the picked option's text, so the date engine offers "12 March 2027 (Friday)" for "12 mar". In
// English, French and German, the whole query typed in one burst, the first date option picked, the text read
// back. A whole word ("tomorrow") is settled and not offered, so its start is typed ("tomo"). Runs alone with `cd web && node --test test/typed-dates.test.mjs`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTenants, launchBrowser, pauseClock, recordTraffic, screenshot, startServer } from "./harness.mjs";

let server;

before(async () => {
  server = await startServer(demoTenants());
  // Each journey's query asked once directly, until it is read within the product's budget: on a loaded machine
  // a cold server's first readings can run past it and answer the product's fallback, which is not what these
  // journeys test (the client's handling of a pick).
  for (const journey of JOURNEYS) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const reply = await fetch(`${server.url}/api/suggest`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.keys.travel}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          data: { raw_query: journey.before + journey.date, completed_params: [] },
          meta: { request_id: crypto.randomUUID(), request_at: new Date().toISOString(), language: journey.language },
        }),
      });
      const body = await reply.json();
      if ((body.data?.suggestions ?? []).some((s) => s.type === "date") || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

after(async () => {
  await server?.stop();
});

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const editorText = async (page) =>
  (await page.locator("[data-aia-input]").textContent()).replace(/\s+/g, " ").trim();

const JOURNEYS = [
  { language: "en", before: "Book a flight from Paris to London on ", date: "12 mar", shape: /^12 March \d{4} \(\w+\)$/ },
  { language: "en", before: "Book a flight from Paris to London ", date: "tomo", shape: /^tomorrow, \w+ \d{1,2} \w+/ },
  { language: "fr", before: "Réserver un vol de Paris à Londres le ", date: "12 mar", shape: /^12 mars \d{4} \(\w+\)$/ },
  { language: "fr", before: "Réserver un vol de Paris à Londres ", date: "dem", shape: /^demain, \w+ \d{1,2}(er)? \S+/ },
  { language: "de", before: "Flug von Paris nach London am ", date: "12. Mär", shape: /^12\. März \d{4} \(\w+\)$/ },
  { language: "de", before: "Flug von Paris nach London ", date: "morg", shape: /^morgen, \w+, \d{1,2}\. \S+/ },
];

describe("typed dates picked in the official client read cleanly", () => {
  for (const journey of JOURNEYS) {
    it(`${journey.language}: '${journey.before}${journey.date}' then the first date option`, async (t) => {
      // A browser of its own: the page's clock stands still while the keys go in, so the client's debounce sees
      // one burst, and a clock belongs to a whole context.
      const browser = await launchBrowser();
      t.after(() => browser.close());
      await browser.context.clock.install();
      const page = await browser.context.newPage();
      const traffic = recordTraffic(page, new URL(server.url).origin);
      await page.goto(`${server.url}/?product=travel&language=${journey.language}`);
      await traffic.waitFor((e) => e.request.data.raw_query === "", { what: "the initial request" });

      await page.locator("[data-aia-input]").click();
      await pauseClock(page);
      await page.keyboard.type(journey.before + journey.date, { delay: 20 });
      await page.clock.resume();
      const typed = await traffic.waitFor((e) => e.request.data.raw_query === journey.before + journey.date,
        { what: `the request for '${journey.date}'`, timeout: 15_000 });
      assert.equal(typed.request.meta.language, journey.language);
      const date = (typed.response.data.suggestions ?? []).find((s) => s.type === "date");
      assert.ok(date, JSON.stringify(typed.response.data));
      const offered = date.options[0].text;
      assert.match(offered, journey.shape);
      assert.ok(offered.toLowerCase().startsWith(journey.date.toLowerCase()), `${offered} starts with the typed date`);

      const from = traffic.exchanges.length;
      await page.locator("[data-aia-option]").filter({ hasText: new RegExp(`^${escape(offered)}$`) }).click();
      await page.mouse.move(5, 5);
      await page.waitForTimeout(600); // the client's selection animation
      assert.equal(await editorText(page), (journey.before + offered).trim(), "the pick replaced what was typed");

      // A space makes the client ask again: the date travels as the picked param, with the option's text.
      await page.keyboard.type(" ");
      const next = await traffic.waitFor(() => true, { from, what: "the request after the pick" });
      assert.match(next.request.data.raw_query, new RegExp(`^${escape(journey.before)}\\{\\{DATE_1\\}\\}\\s*$`));
      const picked = next.request.data.completed_params.find((p) => p.type === "date");
      assert.equal(picked.text, offered);
      assert.equal(next.response.data.is_ready, true);
      assert.ok(!(next.response.data.suggestions ?? []).some((s) => s.type === "date"), "the date is filled");
      await screenshot(page, `typed-date-${journey.language}-${journey.date.replace(/\W+/g, "-")}`);
    });
  }
});
