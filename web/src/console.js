// The operator console, on the management listener only: tenants and products (health, circuits, catalogs,
// problems, keys by id), a try-it client (the official vanilla client against any product, with a public key
// the console mints for itself) and analytics with uPlot charts. Everything is bundled by web/build.mjs; the
// only other host it talks to is this server's public port, for the try-it client's requests.
import { AIAutocomplete } from "@magicx-eng/ai-autocomplete-vanilla";
import uPlot from "uplot";
import { overrideSuggestRequests } from "./suggest-requests.js";

/* global CLIENT_VERSION */
const MAX_CONTEXT_BYTES = 2000;
const $ = (id) => document.getElementById(id);
const state = { overview: null, tryIt: null, context: undefined, widget: null, charts: [] };

async function getJson(path, init) {
  const res = await fetch(path, { cache: "no-store", ...init });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error?.message ?? `${path} answered ${res.status}`);
  return body.data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined).map((c) =>
    typeof c === "string" || typeof c === "number" ? String(c) : c));
  return node;
}

function showProblem(message) {
  $("problem").textContent = message;
  $("problem").hidden = false;
}

/** A problem of "Try it", shown there (the page's banner is at the top, out of sight). */
function tryProblem(message) {
  $("try-problem").textContent = message;
  $("try-problem").hidden = false;
}

function productOptions(select) {
  select.replaceChildren(...state.overview.tenants.flatMap((tenant) => tenant.products.map((product) =>
    el("option", { value: `${tenant.id}/${product.slug}` }, `${tenant.id} / ${product.slug}`))));
}

/** Rows of refused requests by endpoint, status and code (most first, as the server lists them), or one saying none. */
function refusalRows(refusals, noneText) {
  if (!refusals.length) return [el("tr", {}, el("td", { colspan: "4", class: "muted" }, noneText))];
  return refusals.map((r) => el("tr", { "data-code": r.code }, el("td", {}, r.endpoint), el("td", { class: "num" }, r.status),
    el("td", {}, r.code), el("td", { class: "num" }, r.count)));
}

// --- Tenants and products ----------------------------------------------------------------------
function renderTenants(overview) {
  const server = overview.server;
  $("server-line").textContent = `Server ${server.status}; the API listens on port ${server.public_port} `
    + `(${server.public_scheme}). This listener is not for the public.`
    + (server.ready === false
      ? " /ready answers 503 DOWN: load balancers send this replica no traffic until every tenant below is up."
      : "");
  $("tenant-list").replaceChildren(...overview.tenants.map((tenant) => el("article", { class: "card", "data-tenant": tenant.id },
    el("h3", {}, el("span", {}, tenant.display_name ? `${tenant.display_name} (${tenant.id})` : tenant.id),
      el("span", { class: `status-${tenant.status}` }, tenant.status)),
    tenant.learn === undefined ? null : el("p", { class: "muted small" }, tenant.learn ? "learns from picks" : "does not learn"),
    tenant.products.length ? el("div", { class: "small" }, "Products:") : null,
    tenant.products.length ? el("ul", {}, ...tenant.products.map((product) => {
      const circuit = product.health?.circuit ?? "closed";
      const engines = Object.entries(product.health?.engines ?? {}).map(([name, e]) => `${name}: ${e.circuit}`);
      return el("li", { "data-product": product.slug }, `${product.slug} `,
        el("span", { class: `circuit-${circuit}` }, `circuit ${circuit}`),
        engines.length ? el("span", { class: "muted small" }, ` (${engines.join(", ")})`) : null);
    })) : null,
    tenant.catalogs.length ? el("div", { class: "small" }, "Catalogs:") : null,
    tenant.catalogs.length ? el("ul", {}, ...tenant.catalogs.map((c) =>
      el("li", { "data-catalog": c.name }, `${c.name}: ${c.size} options, generation ${c.generation}`))) : null,
    tenant.problems.length ? el("div", { class: "problem" }, ...tenant.problems.map((p) => el("div", {}, p))) : null)));
  $("refused-without-tenant").tBodies[0].replaceChildren(...refusalRows(server.refused_without_tenant ?? [],
    "None since this replica started."));
  $("checks").tBodies[0].replaceChildren(...overview.checks.map((check) => el("tr", {},
    el("td", {}, check.name), el("td", {}, el("span", { class: `status-${check.status}` }, check.status)),
    el("td", { class: "small" }, Object.entries(check.data ?? {}).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("; ")))));
}

function renderKeys(keys) {
  const when = (t) => (t ? new Date(t).toLocaleString(undefined, { timeZoneName: "short" }) : "—"); // the zone said
  $("keys").tBodies[0].replaceChildren(...keys.map((key) => el("tr", { "data-key-id": key.id },
    el("td", {}, key.id, key.in_memory ? el("span", { class: "muted small" }, " (in memory)") : null),
    el("td", {}, key.tenant), el("td", {}, key.type), el("td", {}, key.product ?? "—"),
    el("td", {}, key.type === "secret" ? key.scopes.join(", ") : "suggest"),
    el("td", {}, key.origins.length ? key.origins.join(", ") : "any"),
    el("td", {}, when(key.expires_at)), el("td", {}, when(key.revoked_at)), el("td", {}, when(key.last_used_at)))));
}

// --- Try it -------------------------------------------------------------------------------------
// The wrapper (suggest-requests.js, shared with the demo page) adds the editor's JSON to suggest requests sent to the
// public port and the picked language as their meta.language, and keeps a copy of the last request and response for
// the panels.
overrideSuggestRequests({
  isSuggest: (url) => Boolean(state.tryIt) && url.href === state.tryIt.endpoint,
  language: () => $("try-language").value,
  context: () => state.context,
  onRequest: (body) => { $("last-request").textContent = JSON.stringify(body, null, 2); },
  onResponse: (status, text) => {
    $("request-status").textContent = `HTTP ${status}`;
    $("request-status").dataset.state = status === 200 ? "ok" : "error";
    try {
      $("last-response").textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      $("last-response").textContent = text;
    }
  },
});

/**
 * The languages Try it offers for meta.language: the browser's (what the client sends unless told otherwise), then
 * those the chosen product's configuration has words in (the overview's `languages`). The choice is kept when the
 * next product has it too. Changing the choice sends nothing by itself.
 */
function languageOptions() {
  const [tenantId, slug] = $("try-product").value.split("/");
  const product = state.overview.tenants.find((t) => t.id === tenantId)?.products.find((p) => p.slug === slug);
  const select = $("try-language");
  const kept = select.value;
  const named = (tag) => {
    try {
      return `${new Intl.DisplayNames([tag], { type: "language" }).of(tag)} (${tag})`;
    } catch {
      return tag;
    }
  };
  select.replaceChildren(el("option", { value: "" }, `Browser default (${navigator.language})`),
    ...(product?.languages ?? []).map((tag) => el("option", { value: tag }, named(tag))));
  select.value = [...select.options].some((o) => o.value === kept) ? kept : "";
}

function setReady(ready) {
  $("ready").dataset.ready = String(Boolean(ready));
  $("ready").textContent = ready ? "ready to submit" : "not yet";
}

// The client focuses its input on mount by default, which would scroll the console down to "Try it" on every
// visit: it takes the focus only when the operator has just picked a product to try.
async function mountTryIt({ focus }) {
  const [tenant, product] = $("try-product").value.split("/");
  // The previous product's client, key and exchange go first: a product that cannot be tried shows none of them
  // under its name (an operator trial typed into the old product's client after a failed switch).
  state.widget?.destroy();
  state.widget = undefined;
  state.tryIt = undefined;
  $("autocomplete").replaceChildren();
  $("try-key").textContent = "none";
  $("request-status").textContent = "none yet";
  delete $("request-status").dataset.state;
  $("last-request").textContent = "—";
  $("last-response").textContent = "—";
  $("try-problem").hidden = true;
  $("try-submitted").textContent = "";
  setReady(false);
  let minted;
  try {
    minted = await getJson("api/try-key", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tenant, product }),
    });
  } catch (error) {
    tryProblem(`${tenant} / ${product} cannot be tried: ${error.message}`);
    return;
  }
  state.tryIt = {
    ...minted,
    endpoint: `${minted.public_scheme}://${location.hostname}:${minted.public_port}/api/suggest`,
  };
  $("try-key").textContent = `${minted.key_id}, until ${new Date(minted.expires_at).toLocaleTimeString()}`;
  // What this product's params read in the context (the server's example), else what any product reads.
  const example = minted.context_example ?? {};
  $("context").placeholder = JSON.stringify(Object.keys(example).length ? example : GENERIC_CONTEXT);
  state.widget = new AIAutocomplete($("autocomplete"), {
    apiConfig: { endpoint: state.tryIt.endpoint, apiKey: minted.public_key },
    mode: "auto",
    autoFocus: focus,
    // What the host page gets on Enter, as the demo page shows it (the client submits whether or not it is ready).
    onSubmit: (result) => {
      const ready = $("ready").dataset.ready === "true";
      $("try-submitted").textContent = `${ready ? "Submitted" : "Submitted before it was ready"}: “${result.query}”`
        + ` as ${result.raw_query}`;
    },
    onError: (error) => tryProblem(`The client reported: ${error.message}`),
  });
  state.widget.on("stateChange", (s) => setReady(s.isReady));
  // The key just minted joins the keys table (it was read before Try it asked for one).
  renderKeys((await getJson("api/keys")).keys);
}

/** Try it before it runs: a button that mounts the client for the chosen product, focused. */
function offerTryIt() {
  const start = el("button", { type: "button", class: "try-start", id: "try-start" },
    `Click to try ${$("try-product").value.replace("/", " / ")}`);
  start.addEventListener("click", () => mountTryIt({ focus: true }).catch((e) => tryProblem(e.message)));
  $("autocomplete").replaceChildren(start);
}

// Any string value outside the keys of a product's params names options of any param (docs/protocol.md §4.6).
const GENERIC_CONTEXT = { recent: ["<an option's text>"] };

function readContext() {
  const text = $("context").value.trim();
  const badge = $("context-bytes");
  $("context").removeAttribute("aria-invalid");
  if (!text) {
    state.context = undefined;
    badge.textContent = `0 / ${MAX_CONTEXT_BYTES} bytes`;
    delete badge.dataset.state;
    return;
  }
  try {
    state.context = JSON.parse(text);
  } catch {
    state.context = undefined;
    $("context").setAttribute("aria-invalid", "true");
    badge.textContent = "not JSON: not sent";
    badge.dataset.state = "error";
    return;
  }
  const bytes = new TextEncoder().encode(JSON.stringify(state.context)).length;
  badge.textContent = `${bytes} / ${MAX_CONTEXT_BYTES} bytes`;
  badge.dataset.state = bytes > MAX_CONTEXT_BYTES ? "over" : "ok";
}

// --- Analytics ----------------------------------------------------------------------------------
const FIGURES = [
  ["requests", "Requests"], ["sessions", "Sessions"], ["ready_sessions", "Sessions ready"], ["picks", "Picks"],
  ["keystroke_saving", "Keystroke saving"], ["fallbacks", "Engine fallbacks"], ["p50_ms", "p50 (ms)"], ["p99_ms", "p99 (ms)"],
  ["refused", "Refused requests"],
];

function shown(name, value) {
  if (value === null || value === undefined) return "—";
  return name === "keystroke_saving" ? `${Math.round(value * 100)}%` : String(value);
}

/**
 * A colour of the page's theme, resolved: demo.css's custom properties hold light-dark() pairs, which only an element's
 * computed style resolves to the scheme in use.
 */
function themeColour(name, fallback) {
  const probe = el("span", { style: `color: var(${name})`, hidden: "" });
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour || fallback;
}

const DAY = 86400;

/**
 * One chart of the analytics: times in UTC (the analytics' hours and days are UTC), one label a day for a daily
 * series, axis text and grid in the theme's colours (uPlot draws on a canvas, which CSS does not reach: its
 * default black text was unreadable in dark mode), and the right axis named by its series.
 */
function chart(target, data, series, daily, rightValues) {
  const width = Math.max(320, $(target).clientWidth || 800);
  const text = themeColour("--text", "#111");
  const line = themeColour("--border", "#ddd");
  const axis = (more) => ({ stroke: text, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 }, ...more });
  const right = series.filter((s) => s[2] === "r").map((s) => s[0]).join(", ");
  const plot = new uPlot({
    width,
    height: 200,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
    series: [{ label: "UTC" }, ...series.map(([label, stroke, scale]) => ({
      label, stroke, width: 2, scale: scale ?? "y", spanGaps: true,
      ...(scale === "r" && rightValues ? { value: (u, v) => (v == null ? "--" : rightValues(v)) } : {}),
    }))],
    axes: [
      axis(daily ? { space: 100, incrs: [DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY], values: (u, splits) => splits.map((s) => new Date(s * 1e3).toISOString().slice(0, 10)) } : {}),
      axis({ scale: "y" }),
      ...(right ? [axis({ scale: "r", side: 1, label: right, labelSize: 20, grid: { show: false },
        ...(rightValues ? { values: (u, splits) => splits.map(rightValues) } : {}) })] : []),
    ],
    scales: { x: { time: true } },
    padding: [8, right ? 12 : 40, 0, 0], // room for the last date's label
  }, data, $(target));
  state.charts.push(plot);
}

async function renderAnalytics() {
  const [tenant, product] = $("an-product").value.split("/");
  const days = $("an-days").value;
  // Cleared first: a product whose analytics cannot be read shows none, not the previous product's under its name.
  state.charts.forEach((c) => c.destroy());
  state.charts = [];
  ["chart-traffic", "chart-picks", "chart-latency", "figures"].forEach((id) => $(id).replaceChildren());
  $("top-picks").tBodies[0].replaceChildren();
  $("unmatched").tBodies[0].replaceChildren();
  $("refused").tBodies[0].replaceChildren();
  const data = await getJson(`api/analytics?tenant=${encodeURIComponent(tenant)}&product=${encodeURIComponent(product)}&days=${days}`);
  $("figures").replaceChildren(...FIGURES.map(([name, label]) => el("div", { class: "figure", "data-figure": name },
    el("div", { class: "value" }, shown(name, data[name])), el("div", { class: "name" }, label))));
  const x = data.series.map((p) => Date.parse(p.at) / 1000);
  const daily = Number(days) > 2; // docs/operations.md: one point an hour up to 2 days, else one a UTC day
  const col = (name) => data.series.map((p) => p[name]);
  chart("chart-traffic", [x, col("requests"), col("sessions"), col("ready_sessions"), col("refused")],
    [["requests", "#4f46e5"], ["sessions", "#0891b2"], ["ready sessions", "#16a34a"], ["refused", "#dc2626"]], daily);
  $("chart-traffic").dataset.refused = String(data.refused);
  chart("chart-picks", [x, col("picks"), col("keystroke_saving")],
    [["picks", "#ea580c"], ["keystroke saving", "#7c3aed", "r"]], daily, (v) => `${Math.round(v * 100)}%`);
  chart("chart-latency", [x, col("p50_ms"), col("p99_ms"), col("fallbacks")],
    [["p50 ms", "#0891b2"], ["p99 ms", "#dc2626"], ["fallbacks", "#854d0e", "r"]], daily);
  $("chart-picks").dataset.picks = String(data.picks);
  const none = (columns, text) => [el("tr", {}, el("td", { colspan: String(columns), class: "muted" }, text))];
  $("top-picks").tBodies[0].replaceChildren(...(data.top_picks.length ? data.top_picks.map((p) => el("tr", {},
    el("td", {}, p.type), el("td", {}, p.text), el("td", { class: "num" }, p.count)))
    : none(3, "No picks in this period.")));
  $("unmatched").tBodies[0].replaceChildren(...(!data.unmatched_kept
    ? none(2, "Not kept (analytics.keep-unmatched: false).")
    : data.unmatched.length ? data.unmatched.map((u) => el("tr", {}, el("td", {}, u.text), el("td", { class: "num" }, u.count)))
      : none(2, "No unmatched text in this period.")));
  $("refused").tBodies[0].replaceChildren(...refusalRows(data.refused_by_code ?? [], "No refused requests in this period."));
}

// --- start --------------------------------------------------------------------------------------
async function start() {
  $("about").textContent = `The official vanilla client (@magicx-eng/ai-autocomplete-vanilla ${CLIENT_VERSION}) against `
    + "any product of any tenant, with a public key the console minted for itself: valid one hour, in this process's "
    + "memory only, never written anywhere.";
  state.overview = await getJson("api/overview");
  renderTenants(state.overview);
  renderKeys((await getJson("api/keys")).keys);
  const params = new URLSearchParams(location.search);
  for (const id of ["try-product", "an-product"]) {
    productOptions($(id));
    const wanted = params.get(id === "try-product" ? "try" : "product");
    if (wanted && [...$(id).options].some((o) => o.value === wanted)) $(id).value = wanted;
  }
  if (params.get("days")) $("an-days").value = params.get("days");
  languageOptions();
  if ([...$("try-language").options].some((o) => o.value === params.get("language"))) {
    $("try-language").value = params.get("language");
  }
  $("context").addEventListener("input", readContext);
  $("try-product").addEventListener("change", () => {
    languageOptions();
    mountTryIt({ focus: true }).catch((e) => tryProblem(e.message));
  });
  // The next request says the language picked: a running client asks again at once (its options and prompt were in
  // the previous language); before Try it runs, nothing is sent.
  $("try-language").addEventListener("change", () => state.widget?.reset());
  $("an-product").addEventListener("change", () => renderAnalytics().catch((e) => showProblem(e.message)));
  $("an-days").addEventListener("change", () => renderAnalytics().catch((e) => showProblem(e.message)));
  $("an-refresh").addEventListener("click", () => renderAnalytics().catch((e) => showProblem(e.message)));
  // The charts' colours are drawn in: drawn again when the system's scheme changes.
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change",
    () => $("an-product").value && renderAnalytics().catch((e) => showProblem(e.message)));
  // Opening the console sends no suggest request (the client asks at once when mounted, and Try it counts in the
  // analytics as any traffic): it is mounted when the operator asks for it, or at once for `?try=`.
  if (params.get("try") && $("try-product").value) await mountTryIt({ focus: false });
  else if ($("try-product").value) offerTryIt();
  if ($("an-product").value) await renderAnalytics();
  document.body.dataset.loaded = "true";
}

// The running client, for the browser suite (which reads the client's own isReady).
window.autocompleteConsole = Object.freeze({ get widget() { return state.widget; } });

start().catch((error) => showProblem(`The console could not start: ${error.message}`));
