/**
 * Facts of this machine, read by the harness itself — never through wisp's
 * tools — so a system_info case checks the model's reply against the
 * machine and not against what the tool happened to print. Each fact is a
 * matcher over the reply: a number as a word, a name, or a quantity of bytes
 * within a tolerance (a reply may say 23.5 GiB or 24 GB for the same RAM).
 */
import type { MachineFact } from "./cases.ts";

/** What the harness started for a case, which some facts are about. */
export interface CaseWorld {
  /** The pid of the process started for the case. */
  processPid?: number;
  /** The program name the port's listener has in the process table. */
  listenerName?: string;
}

/** A fact as a test of the reply: null when the reply states it, else why not. */
export type FactMatcher = (reply: string) => string | null;

const UNITS: Record<string, number[]> = {
  // A "GB" in a reply is read both ways: people write GB for GiB.
  tib: [2 ** 40],
  gib: [2 ** 30],
  mib: [2 ** 20],
  tb: [1e12, 2 ** 40],
  gb: [1e9, 2 ** 30],
  mb: [1e6, 2 ** 20],
  t: [1e12, 2 ** 40],
  g: [1e9, 2 ** 30],
  m: [1e6, 2 ** 20],
};

/** Every byte quantity a text states, each in all the readings its unit allows. */
export function quantities(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(/(\d+(?:[.,]\d+)?)\s*(TiB|GiB|MiB|TB|GB|MB|T|G|M)\b/gi)) {
    const value = Number(m[1].replace(",", "."));
    for (const unit of UNITS[m[2].toLowerCase()] ?? []) found.push(value * unit);
  }
  return found;
}

/** A byte quantity within `tolerance` (a share) of the truth. */
function quantityNear(truth: number, tolerance: number, what: string): FactMatcher {
  return (reply) =>
    quantities(reply).some((q) => Math.abs(q - truth) <= truth * tolerance)
      ? null
      : `the reply does not state the ${what} (${(truth / 2 ** 30).toFixed(1)} GiB)`;
}

/**
 * Whether a text states `word` as a word of its own: not inside a longer
 * word or number (12 is not in 512, nor in 12.5), case-insensitive.
 */
export function statesWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.])${escaped}($|[^\\w.]|\\.(?!\\d))`, "i").test(text);
}

function wordIn(word: string, what: string): FactMatcher {
  return (reply) =>
    statesWord(reply, word) ? null : `the reply does not state the ${what} (${word})`;
}

function anyWord(words: string[], what: string): FactMatcher {
  const tests = words.map((w) => wordIn(w, what));
  return (reply) =>
    tests.some((t) => t(reply) === null)
      ? null
      : `the reply does not state the ${what} (${words.join(" or ")})`;
}

function cpuCount(): number {
  try {
    const n = (Deno.readTextFileSync("/proc/cpuinfo").match(/^processor\s*:/gm) ?? []).length;
    if (n > 0) return n;
  } catch { /* not Linux: the runtime's count */ }
  return navigator.hardwareConcurrency;
}

function osName(): string[] {
  if (Deno.build.os === "darwin") return ["macOS"];
  try {
    const text = Deno.readTextFileSync("/etc/os-release");
    const name = text.match(/^NAME="?([^"\n]+)"?/m)?.[1];
    // "Debian GNU/Linux": its first word is what anyone would say.
    if (name) return [name.split(" ")[0]];
  } catch { /* no os-release: the kernel's name */ }
  return ["Linux"];
}

async function diskTotal(): Promise<number> {
  const out = await new Deno.Command("df", { args: ["-kP", "/"], stdin: "null" }).output();
  const line = new TextDecoder().decode(out.stdout).trim().split("\n")[1] ?? "";
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** The battery's charge in percent, or null when the machine has no battery. */
async function batteryPercent(): Promise<number | null> {
  if (Deno.build.os === "darwin") {
    const out = await new Deno.Command("pmset", { args: ["-g", "batt"], stdin: "null" }).output();
    const percent = new TextDecoder().decode(out.stdout).match(/(\d+)%/)?.[1];
    return percent === undefined ? null : Number(percent);
  }
  try {
    for (const entry of Deno.readDirSync("/sys/class/power_supply")) {
      if (!entry.name.startsWith("BAT")) continue;
      return Number(
        Deno.readTextFileSync(`/sys/class/power_supply/${entry.name}/capacity`).trim(),
      );
    }
  } catch { /* no power supply class: no battery */ }
  return null;
}

/** The matcher for one fact of this machine. */
export async function factMatcher(fact: MachineFact, world: CaseWorld): Promise<FactMatcher> {
  switch (fact) {
    case "cpu_count":
      return wordIn(String(cpuCount()), "number of processor cores");
    case "memory_total":
      return quantityNear(Deno.systemMemoryInfo().total, 0.05, "total memory");
    case "kernel_release": {
      const release = Deno.osRelease();
      // The version numbers alone count: "6.18.44" for "6.18.44-fc-v1045".
      return anyWord([release, release.split("-")[0]], "kernel release");
    }
    case "hostname":
      return wordIn(Deno.hostname(), "host name");
    case "os_name":
      return anyWord(osName(), "operating system");
    case "ipv4_address": {
      const addresses = Deno.networkInterfaces()
        .filter((i) => i.family === "IPv4" && !i.address.startsWith("127."))
        .map((i) => i.address);
      if (addresses.length === 0) return wordIn("127.0.0.1", "IPv4 address");
      return anyWord(addresses, "IPv4 address");
    }
    case "disk_total":
      return quantityNear(await diskTotal(), 0.05, "size of the root file system");
    case "listening_process":
      return wordIn(world.listenerName ?? "deno", "program listening on the port");
    case "process_pid":
      if (world.processPid === undefined) return () => "the case started no process";
      return wordIn(String(world.processPid), "process's pid");
    case "today": {
      // Local and UTC dates both count (near midnight they differ), as an ISO date (a
      // timestamp's date part too) or written out.
      const days = [new Date()].flatMap((now) => [
        [now.getFullYear(), now.getMonth(), now.getDate()],
        [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()],
      ]);
      const forms = days.flatMap(([y, m, d]) => {
        const month = new Date(Date.UTC(y, m, 1)).toLocaleString("en-US", {
          month: "long",
          timeZone: "UTC",
        });
        const iso = `${y}-${String(m + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
        return [
          new RegExp(`(^|\\D)${iso}(?!\\d)`),
          new RegExp(`\\b${month} ${d}(?!\\d)`, "i"),
          new RegExp(`(^|\\D)${d}(st|nd|rd|th)? (of )?${month}\\b`, "i"),
        ];
      });
      return (reply) =>
        forms.some((f) => f.test(reply)) ? null : "the reply does not state today's date";
    }
    case "battery": {
      const percent = await batteryPercent();
      if (percent !== null) return wordIn(`${percent}%`, "battery charge");
      return (reply) =>
        /\b(no|not|without|n't)\b[^.]*\bbatter(y|ies)\b|\bbattery\b[^.]*\b(none|not|no)\b|mains/i
            .test(reply)
          ? null
          : "the reply does not say this machine has no battery";
    }
  }
}
