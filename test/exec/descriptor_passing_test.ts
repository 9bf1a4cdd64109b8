/**
 * Which descriptors `wisp sandbox` hands its program as they are, asked of
 * the kernel in process (src/platform/descriptors.ts) and of the host-view
 * script (ADR 0262): both answers must agree, and be the rule's, for every
 * kind of descriptor a shell can give wisp — a pipe, /dev/null, a file read,
 * a file written or appended, a file opened read-write, a file opened only
 * for reading as stdout, a folder, a socket and a closed descriptor. Each
 * case is a real process under the binary's permission fence, its
 * descriptors set up by a real shell.
 */
import { assertEquals } from "../support/assert.ts";
import { DENO_CONFIG, PROJECT_ROOT } from "../support/wisp.ts";

const FIXTURE = `${PROJECT_ROOT}test/fixtures/exec/descriptor_passing.ts`;

type Passing = "inherit" | "piped";

function quote(arg: string): string {
  return "'" + arg.replaceAll("'", "'\\''") + "'";
}

/** Both answers for a process whose descriptors `redirect` (shell syntax) sets up. */
async function answers(
  dir: string,
  redirect: string,
  prefix = "",
): Promise<{ inProcess: Passing[] | null; byScript: Passing[] }> {
  const out = `${dir}/answer.json`;
  const command = [Deno.execPath(), "run", "-q", "-P=wisp", "--config", DENO_CONFIG, FIXTURE, out]
    .map(quote).join(" ");
  const run = await new Deno.Command("sh", {
    args: ["-c", `${prefix}${command} ${redirect}`],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) throw new Error(new TextDecoder().decode(run.stderr));
  return JSON.parse(Deno.readTextFileSync(out));
}

Deno.test("the kernel asked in process and the host-view script give the same answer for every kind of descriptor", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wisp-descriptors-" });
  try {
    const file = `${dir}/file.txt`;
    Deno.writeTextFileSync(file, "x\n");
    Deno.mkdirSync(`${dir}/folder`);
    const I = "inherit", P = "piped";
    // The shell's own stdin is /dev/null here, its stdout and stderr pipes from this test.
    const cases: Array<[string, Passing[], string?]> = [
      ["", [I, I, I]],
      ["< /dev/null > /dev/null 2> /dev/null", [I, I, I]],
      [`< ${quote(file)}`, [P, I, I]],
      [`< ${quote(dir)}/folder`, [P, I, I]],
      [`> ${quote(file)}`, [I, I, I]],
      [`>> ${quote(file)} 2>> ${quote(file)}`, [I, I, I]],
      [`1<> ${quote(file)} 0<> ${quote(file)}`, [P, I, I]],
      [`1< ${quote(file)}`, [I, P, I]],
      [`2< ${quote(file)}`, [I, I, P]],
      [`1< ${quote(dir)}/folder 2< ${quote(dir)}/folder`, [I, P, P]],
      // A descriptor closed at start is opened on /dev/null by Deno's runtime before wisp runs.
      ["<&-", [I, I, I]],
      ["2>&-", [I, I, I]],
      ["< /dev/zero", [P, I, I]],
    ];
    for (const [redirect, expected] of cases) {
      const { inProcess, byScript } = await answers(dir, redirect);
      assertEquals(inProcess, byScript, `both ways, ${redirect || "pipes"}`);
      assertEquals(byScript, expected, `the script, ${redirect || "pipes"}`);
      assertEquals(inProcess, expected, `in process, ${redirect || "pipes"}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
