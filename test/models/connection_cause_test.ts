/**
 * A failed fetch is told in a few words, without Deno's request dump: the
 * backends and the Hub's pulls say the same thing for the same failure.
 * Real fetches: a name under `.invalid` (reserved, never resolves) and a
 * loopback port nothing listens on.
 */
import { assertEquals } from "../support/assert.ts";
import { connectionCause } from "../../src/models/errors.ts";

async function failure(url: string): Promise<unknown> {
  try {
    await (await fetch(url)).body?.cancel();
  } catch (error) {
    return error;
  }
  throw new Error(`${url} answered`);
}

Deno.test("connectionCause: a name that does not resolve, and a port nothing listens on", async () => {
  assertEquals(
    connectionCause(await failure("https://wisp-test.invalid/api/models")),
    "its host name does not resolve",
  );
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  assertEquals(
    connectionCause(await failure(`http://127.0.0.1:${port}/`)),
    "could not connect to the server",
  );
});
