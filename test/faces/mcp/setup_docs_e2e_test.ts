/**
 * The set-up snippets in docs/mcp.md work as written: the from-source
 * launcher is written out (pointed at this checkout) and started by the
 * SDK's client exactly as the `.mcp.json` snippet says, with only the
 * environment that snippet gives (plus the scratch home), and the server
 * answers; `claude mcp add`, Codex's `config.toml` and the Inspector's line
 * start the same command.
 */
import { dirname, join } from "node:path";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { assert, assertEquals } from "../../support/assert.ts";
import { PROJECT_ROOT } from "../../support/wisp.ts";
import { mcpScratch, withGenerousTimeout } from "./support.ts";

const DOC = Deno.readTextFileSync(join(PROJECT_ROOT, "docs", "mcp.md"));

/** The fenced blocks of the doc with the given language, in order. */
function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

Deno.test("the launcher and the .mcp.json entry in docs/mcp.md start a server that answers", async () => {
  const s = await mcpScratch({ notifications: { enabled: false } });
  try {
    const launcher = blocks("sh").find((b) => b.includes("WISP_SOURCE="));
    assert(launcher, "the doc has the launcher");
    const path = join(s.base, "wisp");
    Deno.writeTextFileSync(
      path,
      launcher.replace(/WISP_SOURCE="[^"]*"/, `WISP_SOURCE="${PROJECT_ROOT}"`),
    );
    Deno.chmodSync(path, 0o755);

    const entry = blocks("json").map((b) => JSON.parse(b)).find((j) => j.mcpServers?.wisp)
      .mcpServers.wisp as { command: string; args: string[]; env: Record<string, string> };
    assertEquals(entry.args, ["mcp"]);
    const transport = new StdioClientTransport({
      command: path,
      args: entry.args,
      cwd: s.project,
      // What a client that passes no shell environment gives: the entry's env, and the home.
      env: {
        ...entry.env,
        WISP_HOME: s.home,
        PATH: `${dirname(Deno.execPath())}:/usr/bin:/bin`,
        HOME: Deno.env.get("HOME") ?? "/root",
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "docs", version: "1" }, { capabilities: {} });
    withGenerousTimeout(client);
    await client.connect(transport);
    try {
      assertEquals(client.getServerVersion()?.name, "wisp");
      const { tools } = await client.listTools();
      assertEquals(tools.length, 13);
      const shaped = await client.callTool({ name: "json_shape", arguments: { text: "[1,2]" } });
      assert((shaped as { isError?: boolean }).isError !== true);
    } finally {
      await client.close();
    }

    // The other clients' snippets start the same command.
    const server = `${entry.command} ${entry.args.join(" ")}`;
    const add = blocks("sh").find((b) => b.startsWith("claude mcp add"))!;
    assertEquals(add.split(" -- ")[1].trim(), server);
    const inspector = blocks("sh").find((b) => b.includes("inspector"))!;
    assertEquals(inspector.split(" -- ")[1].trim(), server);
    const toml = blocks("toml").find((b) => b.includes("[mcp_servers.wisp]"))!;
    assert(toml.includes(`command = "${entry.command}"`), toml);
    assert(toml.includes(`args = ["mcp"]`), toml);
    assert(/env = \{ WISP_HOME = /.test(toml), "Codex's entry passes WISP_HOME");
  } finally {
    await s.remove();
  }
});
