// The demo page: the official vanilla client's full widget pointed at this server, plus a product and
// language switcher, an additional_context editor and the last request/response. Everything comes from
// this server; the bundle is built by web/build.mjs from the npm package pinned in package-lock.json.
import { AIAutocomplete } from "@magicx-eng/ai-autocomplete-vanilla";
import { overrideSuggestRequests } from "./suggest-requests.js";

/* global CLIENT_VERSION */
const MAX_CONTEXT_BYTES = 2000;
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const state = {
  config: null,
  product: null,
  language: "",
  context: undefined, // parsed additional_context, or undefined when empty or invalid
  widget: null,
  serverError: null, // the last refused request's error, as the server said it
};

// --- additional_context and meta.language through a fetch wrapper ---------------------------------
// The wrapper (suggest-requests.js, shared with the console) touches only POSTs to this server's suggest URL: it adds
// the editor's JSON as data.additional_context, overrides meta.language when one is picked, and keeps a copy of the
// request and the response for the panels.
const nativeFetch = overrideSuggestRequests({
  isSuggest: (url) => url.origin === location.origin && url.pathname === suggestPath(),
  language: () => state.language,
  context: () => state.context,
  onRequest: showRequest,
  onResponse: (status, text) => {
    showResponse(status, text);
    state.serverError = status >= 200 && status < 300 ? null : serverError(status, text);
  },
});

/** The server's own words for a refused request ({"error": {"code", "message"}}), which the client reduces to its status. */
function serverError(status, text) {
  try {
    const { code, message } = JSON.parse(text).error;
    return `The server answered ${status} ${code}: ${message}`;
  } catch {
    return `The server answered ${status}.`;
  }
}

function suggestPath() {
  return state.config?.suggest_path ?? "/api/suggest";
}

// --- the widget ------------------------------------------------------------------------------------
function apiConfig(product) {
  const endpoint = new URL(suggestPath(), location.href).href;
  const tokenUrl = params.get("token_url");
  if (tokenUrl && tokenUrl.startsWith("/")) {
    // Access-token mode: a backend of yours mints with its secret key; the browser only sees tokens.
    return {
      type: "accessToken",
      endpoint,
      getAccessToken: async () => {
        const res = await nativeFetch(tokenUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ product_id: product.id }),
        });
        if (!res.ok) throw new Error(`token backend answered ${res.status}`);
        const token = await res.json();
        // The server's expires_at is unix seconds; the client wants milliseconds.
        return {
          accessToken: token.access_token,
          expiresAt: token.expires_at == null ? undefined : token.expires_at * 1000,
        };
      },
    };
  }
  return { endpoint, apiKey: product.public_key };
}

function mountWidget() {
  state.widget?.destroy();
  const container = $("autocomplete");
  container.replaceChildren();
  setReady(false);
  state.widget = new AIAutocomplete(container, {
    apiConfig: apiConfig(state.product),
    mode: $("theme").value,
    autoFocus: true,
    onSubmit: (result) => {
      // The official client submits on Enter whether or not the query is ready, then clears the input: say which.
      const ready = $("ready").dataset.ready === "true";
      $("submitted").textContent = ready
        ? `Submitted: “${result.query}” as ${result.raw_query}`
        : `Submitted before it was ready (Enter always submits; a required value was missing): “${result.query}”`
          + ` as ${result.raw_query}`;
    },
    onError: (error) => showProblem(state.serverError ?? `The client reported: ${error.message}`),
  });
  state.widget.on("stateChange", (s) => setReady(s.isReady));
}

// The running client, for the browser console and the browser suite (which reads the client's own isReady).
window.autocompleteDemo = Object.freeze({ get widget() { return state.widget; } });

function setReady(ready) {
  const badge = $("ready");
  badge.dataset.ready = String(Boolean(ready));
  badge.textContent = ready ? "ready to submit" : "not yet";
}

// --- controls --------------------------------------------------------------------------------------
function renderProducts() {
  const group = $("products");
  group.replaceChildren(...state.config.products.map((product) => {
    const button = document.createElement("button");
    button.type = "button";
    button.role = "radio";
    button.textContent = product.slug;
    button.dataset.product = product.slug;
    button.setAttribute("aria-checked", String(product === state.product));
    button.addEventListener("click", () => {
      if (product === state.product) return;
      state.product = product;
      renderProducts();
      showContextHint();
      clearPanels();
      mountWidget();
    });
    return button;
  }));
}

// What each demo product's context can say (tenants/demo/tenant.yaml): shown as the editor's placeholder.
const CONTEXT_HINTS = {
  travel: '{"home_country": "PT", "recent_cities": ["Lisbon"]}',
  workspace: '{"team": "Sales"}',
};

function showContextHint() {
  $("context").placeholder = CONTEXT_HINTS[state.product?.slug] ?? '{"recent_cities": ["Lisbon"]}';
}

function compactBytes(value) {
  // The server's measure: UTF-8 length of the compact JSON form, '/' and non-ASCII unescaped.
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

function isEmptyContext(value) {
  return value === null || value === ""
    || (Array.isArray(value) && value.length === 0)
    || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
}

function readContext() {
  const area = $("context");
  const badge = $("context-bytes");
  const text = area.value.trim();
  area.removeAttribute("aria-invalid");
  if (!text) {
    state.context = undefined;
    badge.textContent = `0 / ${MAX_CONTEXT_BYTES} bytes`;
    delete badge.dataset.state;
    return;
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    state.context = undefined;
    area.setAttribute("aria-invalid", "true");
    badge.textContent = "not JSON: not sent";
    badge.dataset.state = "error";
    return;
  }
  const bytes = compactBytes(value);
  state.context = isEmptyContext(value) ? undefined : value;
  badge.textContent = `${bytes} / ${MAX_CONTEXT_BYTES} bytes`;
  badge.dataset.state = bytes > MAX_CONTEXT_BYTES ? "over" : "ok";
}

// --- panels ----------------------------------------------------------------------------------------
function showRequest(body) {
  $("last-request").textContent = JSON.stringify(body, null, 2);
}

function showResponse(status, text) {
  const badge = $("request-status");
  badge.textContent = `HTTP ${status}`;
  badge.dataset.state = status === 200 ? "ok" : "error";
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: show as is
  }
  $("last-response").textContent = pretty;
  if (status === 200) hideProblem();
}

function clearPanels() {
  $("last-request").textContent = "—";
  $("last-response").textContent = "—";
  const badge = $("request-status");
  badge.textContent = "none yet";
  delete badge.dataset.state;
}

function showProblem(message) {
  const box = $("problem");
  box.textContent = message;
  box.hidden = false;
}

function hideProblem() {
  $("problem").hidden = true;
}

function applyTheme() {
  const mode = $("theme").value;
  if (mode === "auto") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.dataset.theme = mode;
  state.widget?.setMode(mode);
}

// --- start -----------------------------------------------------------------------------------------
async function start() {
  $("about").textContent = `The official vanilla client (@magicx-eng/ai-autocomplete-vanilla ${CLIENT_VERSION}), `
    + "talking to this server.";
  const theme = params.get("theme");
  if (theme === "light" || theme === "dark") $("theme").value = theme;
  applyTheme();
  $("theme").addEventListener("change", applyTheme);
  $("language").value = params.get("language") ?? "";
  state.language = $("language").value;
  $("language").addEventListener("change", () => {
    state.language = $("language").value;
    state.widget?.reset();
  });
  $("context").addEventListener("input", readContext);
  // Once the context is edited, an empty command bar asks again, so that what the context puts first shows at once
  // (an end-user trial saw the old list until it typed a letter and deleted it). Typed text is left alone.
  $("context").addEventListener("change", () => {
    const widget = state.widget;
    if (widget && !widget.getState().text && widget.getState().completedParams.length === 0) widget.reset();
  });
  readContext();

  const res = await nativeFetch("demo/config.json", { cache: "no-store" });
  if (!res.ok) {
    // serve mints demo keys for the bundled demo tenant only; any tenant can be tried in the operator console.
    showProblem("This server has no demo keys: it does not serve the demo tenant. Try any product of any tenant in"
      + " the operator console, /admin/ on the management listener (`serve` prints its address).");
    return;
  }
  state.config = await res.json();
  const wanted = params.get("product");
  state.product = state.config.products.find((p) => p.slug === wanted) ?? state.config.products[0];
  renderProducts();
  showContextHint();
  mountWidget();
}

start().catch((error) => showProblem(`The demo could not start: ${error.message}`));
