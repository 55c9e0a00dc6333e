// What the browser suite needs: a real server started as a newcomer would (`./autocomplete serve --port 0`
// on a copy of the demo tenant), Debian's Chromium driven by playwright-core, and a recorder of what the
// official client sends and receives.
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const OUTPUT = path.join(REPO, "web/test-output");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** No network beyond loopback: Chromium's own background traffic is switched off. */
const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** The temporary directories this test file made, removed when its process exits (the servers are stopped by then). */
const made = [];
process.once("exit", () => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fresh tenants directory with the bundled demo tenant, without its per-machine keys (data/ goes beside it). */
export function demoTenants() {
  const root = mkdtempSync(path.join(tmpdir(), "autocomplete-web-"));
  made.push(root);
  const dir = path.join(root, "tenants");
  cpSync(path.join(REPO, "tenants/demo"), path.join(dir, "demo"), { recursive: true });
  rmSync(path.join(dir, "demo/keys.yaml"), { force: true });
  return dir;
}

/**
 * A tenants directory with the demo tenant and a copy of it that is not the demo: tenant `acme` ("Acme Travel"),
 * its product ids changed so that they are its own.
 */
export function demoAndAnotherTenant() {
  const dir = demoTenants();
  cpSync(path.join(dir, "demo"), path.join(dir, "acme"), { recursive: true });
  const file = path.join(dir, "acme/tenant.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace("display_name: Demo", "display_name: Acme Travel")
    .replace("6f1c2a8e-3b4d", "7f1c2a8e-3b4d").replace("0b7e4d2c-5a6f", "1b7e4d2c-5a6f"));
  return dir;
}

/** Runs `./autocomplete ARGS...` to completion and returns its stdout. */
export function cli(...args) {
  return execFileSync(path.join(REPO, "autocomplete"), args, { cwd: REPO, encoding: "utf8" });
}

/**
 * Starts `./autocomplete serve --port 0 --management-port 0 --tenants DIR` (free ports, so runs never collide)
 * and reads the URL and demo keys it prints.
 * Resolves to { url, keys: { travel, workspace }, products: { slug: id }, stop() }.
 */
export async function startServer(tenants) {
  const child = spawn(path.join(REPO, "autocomplete"), ["serve", "--port", "0", "--management-port", "0", "--tenants", tenants], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  // eslint-disable-next-line no-control-regex
  child.stdout.setEncoding("utf8").on("data", (chunk) => { out += chunk.replace(/\x1b\[[0-9;]*m/g, ""); });
  child.stderr.setEncoding("utf8").on("data", (chunk) => { err += chunk; });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", resolve);
    child.kill("SIGTERM");
  });
  const deadline = Date.now() + 240_000; // the first run may build the jar
  while (!/^Try it:/m.test(out)) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${out}\n${err}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`serve printed no URL in time:\n${out}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = out.match(/^Serving .* on (http:\S+)$/m)?.[1];
  const keys = Object.fromEntries([...out.matchAll(/^ {2}(\w+): (pk_v1_\w+)$/gm)].map((m) => [m[1], m[2]]));
  if (!url || !keys.travel || !keys.workspace) {
    await stop();
    throw new Error(`serve did not print a URL and demo keys:\n${out}`);
  }
  const management = out.match(/^Console \(.*\): (http:\S+)\/admin\/$/m)?.[1];
  return { url, keys, management, stop, output: () => out };
}

/** Debian's Chromium through playwright-core, with a fresh profile. Fails clearly when it is missing. */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does.`);
  }
  const profile = mkdtempSync(path.join(tmpdir(), "autocomplete-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1180, height: 900 },
    locale: "en-US",
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

/**
 * Records every suggest request the page sends (the JSON body as sent) with its response, and every
 * request that leaves the server's origin (there must be none).
 */
export function recordTraffic(page, origin) {
  const exchanges = [];
  const foreign = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== "data:") foreign.push(request.url());
  });
  page.on("response", async (response) => {
    const request = response.request();
    if (new URL(request.url()).pathname !== "/api/suggest" || request.method() !== "POST") return;
    const entry = { request: JSON.parse(request.postData()), status: response.status() };
    exchanges.push(entry);
    entry.headers = await request.allHeaders(); // headers() leaves out Authorization
    try {
      entry.response = await response.json();
    } catch {
      entry.response = null;
    }
  });
  return {
    exchanges,
    foreign,
    /** Waits for the first recorded exchange (counting from index `from`) that matches. */
    async waitFor(predicate, { from = 0, timeout = 10_000, what = "a matching request" } = {}) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const found = exchanges.slice(from).find((e) => e.response !== undefined && predicate(e));
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = exchanges.slice(from).map((e) => JSON.stringify(e.request.data)).join("\n  ");
          throw new Error(`timed out waiting for ${what}; requests seen:\n  ${seen}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

export async function screenshot(page, name) {
  mkdirSync(OUTPUT, { recursive: true });
  const file = path.join(OUTPUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Stops the page's clock (installed with `context.clock.install()`) a moment ahead of now, so keys typed next reach
 * the client as one burst. Ahead, not at now: the clock runs on between reading it and pausing it, and Playwright
 * refuses to pause in the past ("Cannot fast-forward to the past").
 */
export async function pauseClock(page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 250);
}
