// What the demo page and the console's Try it add to the official client: it has no option for
// additional_context, nor for choosing meta.language (it sends navigator.language). Both pages bundle this module
// (web/build.mjs), which wraps window.fetch and touches only the client's suggest requests.

/**
 * Wraps window.fetch: a POST with a JSON string body to a URL `isSuggest` accepts gets `context()` as
 * data.additional_context (when not undefined) and `language()` as meta.language (when not empty); `onRequest` sees
 * the body as sent, `onResponse` the status and text of the answer. Every other request passes through untouched.
 * Returns the unwrapped fetch, for the page's own requests.
 */
export function overrideSuggestRequests({ isSuggest, language, context, onRequest, onResponse }) {
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const suggest = isSuggest(url) && (init?.method ?? "GET").toUpperCase() === "POST" && typeof init?.body === "string";
    if (!suggest) return nativeFetch(input, init);

    const body = JSON.parse(init.body);
    const extra = context();
    if (extra !== undefined) body.data.additional_context = extra;
    const tag = language();
    if (tag) body.meta.language = tag;
    onRequest?.(body);
    const response = await nativeFetch(input, { ...init, body: JSON.stringify(body) });
    onResponse?.(response.status, await response.clone().text());
    return response;
  };
  return nativeFetch;
}
