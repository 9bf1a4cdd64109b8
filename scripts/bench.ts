/**
 * `deno task bench`: runs every bench/*_bench.ts (or the ones named) in turn.
 * Each benchmark measures against a baseline in the same run and prints its
 * own table of numbers and ratios.
 */
import { join } from "node:path";

const dir = new URL("../bench/", import.meta.url).pathname;
const names = Deno.args.length > 0
  ? Deno.args
  : [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith("_bench.ts")).sort();
let failed = 0;
for (const name of names) {
  const path = name.includes("/") ? name : join(dir, name);
  console.log(`\n== ${name}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", path],
    stdin: "null",
  }).spawn()
    .status;
  if (!status.success) failed++;
}
Deno.exit(failed > 0 ? 1 : 0);
