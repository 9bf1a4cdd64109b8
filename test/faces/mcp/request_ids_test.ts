/**
 * skipRequestIdZero against the SDK's own Server: the counter it moves is
 * the one the SDK numbers requests with, and a protocol without it is
 * reported, not silently passed.
 */
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { assertEquals } from "../../support/assert.ts";
import { skipRequestIdZero } from "../../../src/faces/mcp/request_ids.ts";

Deno.test("the SDK server's request counter starts past 0, once", () => {
  const server = new Server({ name: "t", version: "1" }, { capabilities: {} });
  const counter = server as unknown as { _requestMessageId: number };
  assertEquals(counter._requestMessageId, 0, "the SDK still starts at 0");
  assertEquals(skipRequestIdZero(server), true);
  assertEquals(counter._requestMessageId, 1);
  counter._requestMessageId = 7;
  assertEquals(skipRequestIdZero(server), true);
  assertEquals(counter._requestMessageId, 7, "a counter already past 0 is left alone");
});

Deno.test("a protocol without the counter is reported", () => {
  assertEquals(skipRequestIdZero({}), false);
});
