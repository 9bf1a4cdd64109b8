/**
 * The one choice of `wisp chat`'s front end: each branch, and that the flags
 * win over what the streams are.
 */
import { assertEquals } from "../support/assert.ts";
import { chooseFrontEnd, type FrontEndFacts } from "../../src/util/front_end.ts";

const facts = (over: Partial<FrontEndFacts> = {}): FrontEndFacts => ({
  stdinTerminal: true,
  stdoutTerminal: true,
  term: "xterm-256color",
  plainFlag: false,
  jsonFlag: false,
  ...over,
});

Deno.test("front end: wisp-tui when both streams are terminals and TERM can draw", () => {
  assertEquals(chooseFrontEnd(facts()), { face: "tui", why: "stdin and stdout are terminals" });
  // An unset TERM is not a dumb one.
  assertEquals(chooseFrontEnd(facts({ term: undefined })).face, "tui");
});

Deno.test("front end: the plain chat when a stream is not a terminal or TERM is dumb", () => {
  assertEquals(chooseFrontEnd(facts({ stdoutTerminal: false })), {
    face: "plain",
    why: "stdout is not a terminal; wisp chat --plain is the same",
  });
  assertEquals(chooseFrontEnd(facts({ stdinTerminal: false })), {
    face: "plain",
    why: "stdin is not a terminal",
  });
  assertEquals(chooseFrontEnd(facts({ term: "dumb" })), { face: "plain", why: "TERM is dumb" });
  // Both streams piped: stdout is named, the one that decides where chat's text goes.
  assertEquals(
    chooseFrontEnd(facts({ stdinTerminal: false, stdoutTerminal: false, term: "dumb" })).why,
    "stdout is not a terminal; wisp chat --plain is the same",
  );
});

Deno.test("front end: --json, then --plain, win over the streams", () => {
  assertEquals(chooseFrontEnd(facts({ jsonFlag: true })), {
    face: "json",
    why: "--json asks for the line protocol",
  });
  assertEquals(chooseFrontEnd(facts({ jsonFlag: true, stdoutTerminal: false })).face, "json");
  assertEquals(chooseFrontEnd(facts({ plainFlag: true })), {
    face: "plain",
    why: "--plain asks for it",
  });
  assertEquals(chooseFrontEnd(facts({ plainFlag: true, term: "dumb" })).why, "--plain asks for it");
});
