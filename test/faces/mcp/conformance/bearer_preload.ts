/**
 * Loaded before the MCP conformance suite (`deno run --preload`): every
 * request the suite sends to wisp's address carries the bearer token wisp
 * printed, as a configured HTTP client's would. The suite has no option for
 * a header, and it sends through two doors: the global fetch (the SDK client
 * and its own probes) and undici's request (the DNS-rebinding probe).
 * Nothing else changes: the Host and Origin headers go as the suite wrote
 * them, so the server's own checks still decide.
 */
import { type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";

const url = Deno.env.get("WISP_CONFORMANCE_URL");
const token = Deno.env.get("WISP_CONFORMANCE_TOKEN");
if (!url || !token) {
  throw new Error("set WISP_CONFORMANCE_URL and WISP_CONFORMANCE_TOKEN before the preload runs");
}
const target = new URL(url);
const authorization = `Bearer ${token}`;

/** Whether a request goes to wisp (the token is never handed to another address). */
function toWisp(address: string | URL): boolean {
  const u = new URL(address);
  return u.port === target.port && u.hostname === target.hostname;
}

const originalFetch = globalThis.fetch;
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const address = input instanceof Request ? input.url : input;
  if (!toWisp(address)) return originalFetch(input, init);
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
  headers.set("authorization", authorization);
  return originalFetch(input, { ...init, headers });
};

/** Add the token to a request undici sends to wisp; any other goes as it was. */
const withToken: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  if (!toWisp(new URL(options.path, String(options.origin)))) return dispatch(options, handler);
  const given = options.headers;
  const headers = Array.isArray(given)
    ? [...given, "authorization", authorization]
    : { ...(given as Record<string, string> | null | undefined), authorization };
  return dispatch({ ...options, headers } as Dispatcher.DispatchOptions, handler);
};
setGlobalDispatcher(getGlobalDispatcher().compose(withToken));
