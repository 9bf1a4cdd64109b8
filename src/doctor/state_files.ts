/**
 * The catalogue of the state wisp keeps in its home, for doctor: every path
 * config/home.ts names except config.json (the config finding reads it), each
 * with the reader of the module that owns its format, so a file doctor passes
 * is one those modules can use. Where no module of this build reads a file
 * back (transcripts, stored outputs) doctor checks what can be checked
 * without a format: that JSON parses, and the modes.
 */
import { join } from "node:path";
import type { HomePaths } from "../config/home.ts";
import { readApprovals } from "../gate/approvals.ts";
import { manifestSchema, riskFolder } from "../gate/trained/store.ts";
import { weightsSchema } from "../gate/trained/model.ts";
import { parseOutcome, parseRequest } from "../gate/pending.ts";
import { parseEventLine } from "../audit/reader.ts";
import { readPermanentFacts } from "../context/facts/permanent.ts";
import type { Finding } from "./finding.ts";
import { stateFinding, type StateItem } from "./state.ts";
import { plural } from "../util/plural.ts";

/** A file's text, or the fault that stops it being read. */
function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    // The kind of failure, not the OS's own words (which name the call and the errno).
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new Error("cannot be read (no permission)");
    }
    if (error instanceof Deno.errors.NotFound) throw new Error("went away while doctor read it");
    throw new Error(`cannot be read (${error instanceof Error ? error.name : "unknown error"})`);
  }
}

function parseJson(path: string): unknown {
  try {
    return JSON.parse(readText(path));
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error("not valid JSON");
    throw error;
  }
}

/**
 * Readers of formats that a face owns. Doctor and the faces share a floor, so
 * doctor does not import them; the command line, above both, hands them over.
 */
export interface FaceReaders {
  /** Whether a text is a running server's file in `servers` (faces/mcp/live_approvals.ts). */
  isLiveServerFile: (text: string) => boolean;
}

/** Every kind of state in this home, in the order doctor prints them. */
function stateItems(paths: HomePaths, faces: FaceReaders): StateItem[] {
  return [
    {
      name: "approvals",
      path: paths.approvals,
      kind: "file",
      holds: "remembered approvals",
      read: (path) => plural(readApprovals(path).length, "remembered approval"),
      damagedFix:
        `move it aside (mv ${paths.approvals} ${paths.approvals}.aside) to start with none`,
    },
    {
      name: "pending requests",
      path: paths.pending,
      kind: "folder",
      holds: "requests waiting for an answer",
      reads: (p) => !p.includes("/") && (p.endsWith(".json") || p.endsWith(".outcome")),
      read: (path) => {
        const text = readText(path);
        if (path.endsWith(".json") ? !parseRequest(text) : !parseOutcome(text)) {
          throw new Error(
            `not a ${path.endsWith(".json") ? "request" : "request's outcome"} wisp reads`,
          );
        }
        return undefined;
      },
      damagedFix:
        "remove the files named (a server that still waits keeps its request in memory); wisp approvals pending lists what waits",
    },
    {
      name: "live servers",
      path: paths.servers,
      kind: "folder",
      holds: "approvals of running wisp mcp servers",
      reads: (p) => !p.includes("/") && p.endsWith(".json"),
      read: (path) => {
        if (!faces.isLiveServerFile(readText(path))) {
          throw new Error("not a server's file wisp reads");
        }
        return undefined;
      },
      damagedFix:
        "remove the files named; a running wisp mcp writes its own again when its approvals change",
    },
    {
      name: "facts",
      path: paths.facts,
      kind: "file",
      holds: "permanent facts",
      // Read by the reader conversations and `wisp facts` use (src/context/facts/permanent.ts).
      read: (path) => plural(readPermanentFacts(path).length, "fact"),
      damagedFix:
        `move it aside (mv ${paths.facts} ${paths.facts}.aside) to start with no permanent facts`,
    },
    {
      name: "transcripts",
      path: paths.transcripts,
      kind: "folder",
      holds: "saved transcripts",
      damagedFix: "move the files named aside",
    },
    {
      name: "classifier versions",
      path: paths.classifiers,
      kind: "folder",
      holds: "classifier versions",
      reads: (p) => /^risk\/risk@[^/]+\/(manifest|weights)\.json$/.test(p),
      read: (path) => {
        const schema = path.endsWith("manifest.json") ? manifestSchema : weightsSchema;
        if (!schema.safeParse(parseJson(path)).success) {
          throw new Error(
            `not a ${path.endsWith("manifest.json") ? "manifest" : "weights"} file wisp reads`,
          );
        }
        return undefined;
      },
      damagedFix:
        `remove that version (wisp classifier remove risk@…) and train again; the folder is ${
          riskFolder(paths)
        }`,
    },
    {
      name: "output store",
      path: paths.output,
      kind: "folder",
      holds: "stored tool outputs",
      damagedFix: "remove the files named",
    },
    {
      name: "audit log",
      path: paths.logs,
      kind: "folder",
      holds: "audit events",
      reads: (p) => p === "audit.jsonl",
      read: (path) => {
        const lines = readText(path).split("\n").filter((l) => l.trim() !== "");
        const bad = lines.filter((l) => parseEventLine(l) === undefined).length;
        return bad === 0
          ? `${join("logs", "audit.jsonl")}: ${plural(lines.length, "event")}`
          : `${join("logs", "audit.jsonl")}: ${plural(lines.length, "line")}, ${
            plural(bad, "line")
          } not an event (wisp logs skips ${bad === 1 ? "it" : "them"})`;
      },
      damagedFix: "move the files named aside",
    },
    {
      name: "models folder",
      path: paths.models,
      kind: "folder",
      holds: "downloaded models",
      damagedFix: "move the files named aside",
    },
  ];
}

/** One finding per kind of state in the home. */
export function stateFindings(paths: HomePaths, faces: FaceReaders): Finding[] {
  return stateItems(paths, faces).map(stateFinding);
}
