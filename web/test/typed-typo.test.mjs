// A trailing typo picked in the official client (issue 20): what the client's rules allow, read back. The server
// offers the corrected city first ("London" for "Londn"), but the client filters and starts a pick at one
// position: filtering from the typo's start hides "London" (no option contains "Londn"), and a pick at the end
// keeps the typo, since a misspelling does not start the option's text. docs/protocol.md §10 says so; this pins
// it, so that a client that changes its rules shows here. Runs alone with `cd web && node --test test/typed-typo.test.mjs`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { demoTenants, launchBrowser, pauseClock, recordTraffic, screenshot, startServer } from "./harness.mjs";

let server;

before(async () => {
  server = await startServer(demoTenants());
});

after(async () => {
  await server?.stop();
});

const editorText = async (page) =>
  (await page.locator("[data-aia-input]").textContent()).replace(/\s+/g, " ").trim();

describe("a trailing typo picked in the official client", () => {
  it("'Book a flight from Paris to Londn' offers London first; the pick follows the typo", async (t) => {
    const browser = await launchBrowser();
    t.after(() => browser.close());
    await browser.context.clock.install();
    const page = await browser.context.newPage();
    const traffic = recordTraffic(page, new URL(server.url).origin);
    await page.goto(`${server.url}/?product=travel&language=en`);
    await traffic.waitFor((e) => e.request.data.raw_query === "", { what: "the initial request" });

    const typed = "Book a flight from Paris to Londn";
    await page.locator("[data-aia-input]").click();
    await pauseClock(page);
    await page.keyboard.type(typed, { delay: 20 });
    await page.clock.resume();
    const answer = await traffic.waitFor((e) => e.request.data.raw_query === typed,
      { what: `the request for '${typed}'`, timeout: 15_000 });
    const active = (answer.response.data.suggestions ?? []).find((s) => s.type !== "placeholder");
    assert.equal(active?.type, "destination", JSON.stringify(answer.response.data));
    assert.equal(active.options[0].text, "London", "the corrected city is offered first");

    await page.locator("[data-aia-option]").filter({ hasText: /^London$/ }).click();
    await page.mouse.move(5, 5);
    await page.waitForTimeout(600); // the client's selection animation
    assert.equal(await editorText(page), "Book a flight from Paris to Londn London",
      "the client keeps what was typed before the pick (docs/protocol.md §10)");
    await screenshot(page, "typed-typo-en-Londn");
  });
});
