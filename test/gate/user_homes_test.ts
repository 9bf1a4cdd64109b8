import { assertEquals } from "../support/assert.ts";
import { homeOfUser, parsePasswdHomes } from "../../src/gate/user_homes.ts";
import { resolveWord } from "../../src/gate/words.ts";
import { analysed, USER_HOME, verdict } from "./helpers.ts";

Deno.test("user homes: passwd lines give each user's folder; comments and broken lines are skipped", () => {
  const homes = parsePasswdHomes(
    [
      "# a comment",
      "root:x:0:0:root:/root:/bin/bash",
      "svc:x:998:998::/var/lib/svc:/usr/sbin/nologin",
      "broken:x:1",
      "relative:x:5:5::home/relative:/bin/sh",
      "root:x:0:0:second entry:/elsewhere:/bin/sh",
    ].join("\n"),
  );
  assertEquals([...homes], [["root", "/root"], ["svc", "/var/lib/svc"]]);
});

Deno.test("user homes: ~root leads where the system says, an unknown name beside the caller's home", () => {
  const root = parsePasswdHomes(Deno.readTextFileSync("/etc/passwd")).get("root");
  if (root !== undefined) assertEquals(homeOfUser("root", "/home/me"), root);
  assertEquals(homeOfUser("no-such-user-here", "/home/me"), "/home/no-such-user-here");
});

Deno.test("user homes: the gate resolves ~root to root's own home, not a sibling of the caller's", () => {
  // Before, ~root was read as /home/root (beside the test's /home/tester).
  const root = parsePasswdHomes(Deno.readTextFileSync("/etc/passwd")).get("root") ?? "/home/root";
  const part = analysed("cp x ~root/.bashrc").parts[0];
  const target = resolveWord(part.words[2], part.vars, USER_HOME);
  assertEquals(target.value, `${root}/.bashrc`);
  assertEquals(verdict("cp x ~root/.bashrc"), verdict(`cp x ${root}/.bashrc`));
});
