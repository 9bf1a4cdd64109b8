/**
 * Where wisp's home is: WISP_HOME when set (an absolute one needs no HOME,
 * since MCP clients often start servers with an environment of their own),
 * else ~/.wisp; without either, one sentence.
 */
import { assertEquals, assertThrows } from "../support/assert.ts";
import { homeRoot } from "../../src/config/home.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("an absolute WISP_HOME needs no HOME; ~ in it does", () => {
  assertEquals(homeRoot(envOf({ WISP_HOME: "/srv/wisp-home" })), "/srv/wisp-home");
  assertEquals(homeRoot(envOf({ WISP_HOME: "~/w", HOME: "/home/ann" })), "/home/ann/w");
  assertEquals(homeRoot(envOf({ HOME: "/home/ann" })), "/home/ann/.wisp");
  assertThrows(() => homeRoot(envOf({ WISP_HOME: "~/w" })), Error, "HOME is not set");
  assertThrows(() => homeRoot(envOf({})), Error, "HOME is not set");
});
