/**
 * system_info: answers questions about this machine — what is on a port, free
 * disk, what fills a folder, the busiest processes, memory, one process,
 * battery, the OS, the network — from fixed read-only reads, parsed into
 * short tables. The model never composes the command; nothing here runs a
 * shell.
 */
import { resolve as resolvePath } from "node:path";
import { hostOs } from "../platform/os.ts";
import { z } from "zod";
import { errorResult, type Tool } from "./tool.ts";
import { fitted } from "./budget.ts";
import * as linux from "./system_info/linux.ts";
import * as darwin from "./system_info/darwin.ts";
import { TopicError, type Topics } from "./system_info/shared.ts";

const TOPICS = [
  "port",
  "disk",
  "folder",
  "processes",
  "memory",
  "process",
  "battery",
  "os",
  "network",
] as const;

const systemInfoSchema = z.object({
  topic: z.enum(TOPICS).describe(
    "port: what uses a port; disk: free space; folder: what fills a folder; processes: your busiest processes; " +
      "memory: RAM and swap; process: one program by name; battery; os: system and hardware; network: interfaces",
  ),
  port: z.number().int().optional().describe("for topic port: the port number, 1 to 65535"),
  path: z.string().optional().describe("for disk (optional) and folder (required): a path"),
  name: z.string().optional().describe("for topic process: part of the program's name"),
  sort: z.enum(["cpu", "memory"]).optional().describe(
    "for topic processes: order by cpu (default) or memory",
  ),
  limit: z.number().int().min(1).max(50).optional().describe(
    "for processes and folder: how many rows (default 10)",
  ),
}).strict();

type Args = z.infer<typeof systemInfoSchema>;

export interface ReportOptions extends linux.SourceOptions {
  /** The platform whose topics answer; this machine's unless a test picks one. */
  os?: string;
  /** How the macOS topics run their fixed commands (tests inject a fake runner). */
  darwin?: darwin.DarwinOptions;
}

/** The topics of a platform system_info knows, or undefined. */
function platformTopics(os: string, options: ReportOptions = {}): Topics | undefined {
  if (os === "linux") return linux.linuxTopics(options);
  if (os === "darwin") return darwin.darwinTopics(options.darwin);
  return undefined;
}

/** One topic's report, or an `error: …` sentence that says how to call again. */
export async function systemInfoReport(
  args: Args,
  cwd: string,
  options: ReportOptions = {},
): Promise<{ ok: boolean; text: string }> {
  const os = options.os ?? hostOs();
  const topics = platformTopics(os, options);
  if (!topics) {
    return {
      ok: false,
      text:
        `error: system_info knows Linux and macOS, not ${os}; run_command can answer some of these questions there`,
    };
  }
  const resolve = (p: string) => resolvePath(cwd, p);
  try {
    switch (args.topic) {
      case "port": {
        if (args.port === undefined || args.port < 1 || args.port > 65535) {
          return {
            ok: false,
            text: "error: topic port needs port, a number from 1 to 65535: call again with it",
          };
        }
        return { ok: true, text: await topics.port(args.port) };
      }
      case "disk":
        return { ok: true, text: await topics.disk(args.path ? resolve(args.path) : undefined) };
      case "folder": {
        if (!args.path) {
          return {
            ok: false,
            text: "error: topic folder needs path, the folder to measure: call again with it",
          };
        }
        return { ok: true, text: await topics.folder(resolve(args.path), args.limit ?? 10) };
      }
      case "processes":
        return { ok: true, text: await topics.processes(args.sort ?? "cpu", args.limit ?? 10) };
      case "memory":
        return { ok: true, text: await topics.memory() };
      case "process": {
        if (!args.name || args.name.trim() === "") {
          return {
            ok: false,
            text: "error: topic process needs name, part of the program's name: call again with it",
          };
        }
        return { ok: true, text: await topics.process(args.name.trim()) };
      }
      case "battery":
        return { ok: true, text: await topics.battery() };
      case "os":
        return { ok: true, text: await topics.os() };
      case "network":
        return { ok: true, text: await topics.network() };
    }
  } catch (error) {
    if (error instanceof TopicError) return { ok: false, text: `error: ${error.message}` };
    return { ok: false, text: `error: could not read ${args.topic} (${(error as Error).message})` };
  }
}

export const systemInfoTool: Tool<Args> = {
  name: "system_info",
  description:
    "Answers questions about this machine without running shell: which process uses a port, free disk space, " +
    "what fills a folder, your busiest processes, RAM (memory), one program by name (process), battery, " +
    "the operating system and hardware (os), and network interfaces. Pick a topic and give its argument.",
  schema: systemInfoSchema,
  parallelSafe: true,
  gatesBeforeEffect: false,
  limits: () => [
    "Read-only: fixed reads of the process table, sockets, memory and file systems; it never runs a command the model wrote.",
    "folder stops after 200,000 entries or 5 seconds and says so; processes and folder show 10 rows unless limit says otherwise (at most 50).",
    "Output is bounded to the tool-output budget.",
    ...(hostOs() === "darwin"
      ? [
        "On macOS, processes needs wisp's native library (not in this build) and process shows pid, parent and name only.",
      ]
      : []),
  ],
  examplePrompt:
    "Use system_info with topic port and port 8080 to tell me what is listening on port 8080.",
  async run(args, ctx) {
    const report = await systemInfoReport(args, ctx.cwd);
    if (!report.ok) return errorResult(report.text.replace(/^error: /, ""));
    const out = await fitted(report.text, ctx, "system_info");
    return { text: out.text, ok: true, ...(out.outputId ? { outputId: out.outputId } : {}) };
  },
};
