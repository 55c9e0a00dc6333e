// Access-token mode of the official client against a real server: the page's getAccessToken calls a tiny
// backend route (played here by the test, through Playwright's request routing) that mints with a secret
// key at POST /api/auth/token. The token really expires (the tenant copy's access_tokens.lifetime is the
// shortest allowed, 30s); the client must then refresh once and retry once. Runs only on a build that has
// /api/auth/token; otherwise it is skipped with a message saying so.
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { after, before, it } from "node:test";
import { cli, demoTenants, launchBrowser, recordTraffic, screenshot, startServer } from "./harness.mjs";

const TRAVEL_ID = "6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61";
/** The shortest token lifetime a tenant may set (README: 30s to 24h). */
const LIFETIME_SECONDS = 30;
/** The server accepts a token this long past its `exp` (README: clock-skew leeway). */
const SERVER_LEEWAY_SECONDS = 10;
/**
 * How far the test backend moves `expires_at` ahead of the token's real expiry. The official client refreshes
 * 30 s before `expires_at`, so with the real value it would refresh ahead of time and never meet an expired
 * token. Handing it a later `expires_at` plays a client whose clock runs behind the server's: the client
 * believes the token is still good, sends it after its real expiry, and must recover from the 401.
 */
const CLIENT_CLOCK_BEHIND_SECONDS = 600;

let tenants;
let server;
let browser;
let secretKey;

/** `keys create --type secret` prints the key on its last line. */
function createSecretKey() {
  const lines = cli("keys", "create", "--tenants", tenants, "--tenant", "demo", "--type", "secret").trim().split("\n");
  return lines[lines.length - 1].trim();
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
  appendFileSync(path.join(tenants, "demo/tenant.yaml"), `access_tokens:\n  lifetime: ${LIFETIME_SECONDS}s\n`);
  secretKey = createSecretKey();
  server = await startServer(tenants);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

it("refreshes once and retries once when its access token has expired", async (t) => {
  const probe = await mint(secretKey);
  if (probe.status === 404 && probe.body?.error?.code === "NOT_FOUND") {
    t.skip("pending: this build has no POST /api/auth/token (the access-token issue)");
    return;
  }
  assert.equal(probe.status, 200, JSON.stringify(probe.body));
  assert.match(probe.body.access_token, /^at_v1_/);
  const lifetime = probe.body.expires_at - Date.now() / 1000;
  assert.ok(lifetime > LIFETIME_SECONDS - 2 && lifetime <= LIFETIME_SECONDS + 1, `lifetime ${lifetime}s`);

  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const origin = new URL(server.url).origin;
  const traffic = recordTraffic(page, origin);

  // The customer's backend: mints with its secret key and hands the browser only the token, with the
  // skewed expires_at described above.
  const minted = [];
  await page.route(`${origin}/test-backend/token`, async (route) => {
    const token = await mint(secretKey);
    minted.push(token.body);
    const body = { ...token.body, expires_at: token.body.expires_at + CLIENT_CLOCK_BEHIND_SECONDS };
    await route.fulfill({ status: token.status, contentType: "application/json", body: JSON.stringify(body) });
  });

  await page.goto(`${server.url}/?product=travel&theme=light&token_url=/test-backend/token`);
  const initial = await traffic.waitFor((e) => e.request.data.raw_query === "", { what: "the initial request" });
  assert.equal(initial.status, 200);
  assert.equal(initial.headers.authorization, `Bearer ${minted[0].access_token}`);
  assert.equal(minted.length, 1);

  // Let the first token really expire: past its exp and the server's leeway, with a second to spare.
  const expiredAt = (minted[0].expires_at + SERVER_LEEWAY_SECONDS + 1) * 1000;
  await new Promise((r) => setTimeout(r, Math.max(0, expiredAt - Date.now())));
  assert.equal(minted.length, 1, "the client did not refresh ahead of time");

  // One request, exactly: switching the language resets the widget, which asks for the empty query.
  const from = traffic.exchanges.length;
  await page.locator("#language").selectOption("en");
  const retried = await traffic.waitFor((e) => e.status === 200, { from, what: "a successful retry" });
  const sent = traffic.exchanges.slice(from, traffic.exchanges.indexOf(retried) + 1);
  assert.deepEqual(sent.map((e) => e.status), [401, 200], "one 401, then one successful retry");
  assert.equal(sent[0].response?.error?.code, "TOKEN_EXPIRED");
  assert.equal(sent[0].headers.authorization, `Bearer ${minted[0].access_token}`);
  assert.equal(sent[1].headers.authorization, `Bearer ${minted[1].access_token}`);
  assert.equal(sent[1].request.meta.request_id, sent[0].request.meta.request_id, "the same request, retried");
  assert.equal(minted.length, 2, "exactly one refresh");
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(traffic.exchanges.filter((e) => e.status === 401).length, 1, "no other 401");
  await screenshot(page, "access-token-after-refresh");
});
