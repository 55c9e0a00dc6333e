// Access-token mode of the official client against a real server: the page's getAccessToken calls a tiny
// backend route (played here by the test, through Playwright's request routing) that mints with a secret
// key at POST /api/auth/token. When the token stops being valid the client must refresh once and retry
// once. Runs only on a build that has /api/auth/token; otherwise it is skipped with a message saying so.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { cli, demoTenants, launchBrowser, recordTraffic, screenshot, startServer } from "./harness.mjs";

const TRAVEL_ID = "6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61";

let tenants;
let server;
let browser;
const secret = {};

/** `keys create --type secret` prints "Created secret key ID ..." and the key on its last line. */
function createSecretKey() {
  const out = cli("keys", "create", "--tenants", tenants, "--tenant", "demo", "--type", "secret");
  const lines = out.trim().split("\n");
  return { id: out.match(/Created secret key (\S+)/)[1], key: lines[lines.length - 1].trim() };
}

async function mint(key) {
  const res = await fetch(`${server.url}/api/auth/token`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ product_id: TRAVEL_ID }),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

before(async () => {
  tenants = demoTenants();
  secret.first = createSecretKey();
  secret.second = createSecretKey();
  server = await startServer(tenants);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

it("refreshes once and retries once when its access token stops being accepted", async (t) => {
  const probe = await mint(secret.first.key);
  if (probe.status === 404 && probe.body?.error?.code === "NOT_FOUND") {
    t.skip("pending: this build has no POST /api/auth/token (the access-token issue)");
    return;
  }
  assert.equal(probe.status, 200, JSON.stringify(probe.body));
  assert.match(probe.body.access_token, /^at_v1_/);

  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const origin = new URL(server.url).origin;
  const traffic = recordTraffic(page, origin);

  // The customer's backend: mints with its secret key, hands the browser only the token. The first
  // call mints with the first secret key, later calls with the second.
  const minted = [];
  await page.route(`${origin}/test-backend/token`, async (route) => {
    const key = minted.length === 0 ? secret.first.key : secret.second.key;
    const token = await mint(key);
    minted.push(token.body.access_token);
    await route.fulfill({ status: token.status, contentType: "application/json", body: JSON.stringify(token.body) });
  });

  await page.goto(`${server.url}/?product=travel&theme=light&token_url=/test-backend/token`);
  const initial = await traffic.waitFor((e) => e.request.data.raw_query === "", { what: "the initial request" });
  assert.equal(initial.status, 200);
  assert.equal(initial.headers.authorization, `Bearer ${minted[0]}`);
  assert.equal(minted.length, 1);

  // The first token's key is revoked: the server stops accepting its tokens within 2 seconds.
  cli("keys", "revoke", "--tenants", tenants, "--tenant", "demo", secret.first.id);
  await new Promise((r) => setTimeout(r, 2500));

  // One request, exactly: switching the language resets the widget, which asks for the empty query.
  const from = traffic.exchanges.length;
  await page.locator("#language").selectOption("en");
  const retried = await traffic.waitFor((e) => e.status === 200, { from, what: "a successful retry" });
  const sent = traffic.exchanges.slice(from, traffic.exchanges.indexOf(retried) + 1);
  assert.deepEqual(sent.map((e) => e.status), [401, 200], "one 401, then one successful retry");
  assert.equal(sent[0].headers.authorization, `Bearer ${minted[0]}`);
  assert.equal(sent[1].headers.authorization, `Bearer ${minted[1]}`);
  assert.equal(sent[1].request.meta.request_id, sent[0].request.meta.request_id, "the same request, retried");
  assert.equal(minted.length, 2, "exactly one refresh");
  await screenshot(page, "access-token-after-refresh");
});
