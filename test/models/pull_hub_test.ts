/**
 * `wisp models pull ORG/NAME` against a fake Hugging Face Hub on 127.0.0.1:
 * the cache it writes follows huggingface_hub's layout (checked against the
 * documented layout and read back by @huggingface/hub's own cache scanner),
 * trusted publishers, the questions asked on a terminal, a download broken
 * off and resumed with a range request, a SHA-256 mismatch refused and
 * removed, and Ctrl-C leaving nothing partial.
 *
 * Questions need a terminal: those runs go through script(1), which gives
 * wisp a pseudo-terminal and passes what the test types.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { runWisp, tempDir, wispCommand } from "../support/wisp.ts";
import { waitUntil } from "../support/wait.ts";
import { type FakeHubFile, sha256Hex, startFakeHub } from "./fake_hub.ts";
import { scanCachedRepo } from "@huggingface/hub";
import { join } from "node:path";

const REVISION = "0123456789abcdef0123456789abcdef01234567";

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

function files(extra: Partial<FakeHubFile> = {}): FakeHubFile[] {
  return [
    { path: "config.json", bytes: new TextEncoder().encode('{"model_type": "qwen3"}\n') },
    { path: "model.safetensors", bytes: bytes(300_000, 7), lfs: true, ...extra },
    { path: "tokenizer/tokenizer.json", bytes: new TextEncoder().encode('{"version": "1.0"}') },
  ];
}

interface Scratch {
  home: string;
  cache: string;
  env: Record<string, string>;
  remove(): Promise<void>;
}

async function scratch(hubURL: string): Promise<Scratch> {
  const base = await tempDir();
  const home = join(base, "wisp");
  const cache = join(base, "hf", "hub");
  return {
    home,
    cache,
    env: { HF_ENDPOINT: hubURL, HF_HOME: join(base, "hf"), WISP_HOME: home, HOME: base },
    remove: () => Deno.remove(base, { recursive: true }),
  };
}

/** Run wisp on a pseudo-terminal, typing `typed` once `waitFor` appears in its output. */
async function onTerminal(
  args: string[],
  env: Record<string, string>,
  steps: { waitFor: string; type: string }[] = [],
): Promise<{ code: number; output: string }> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const child = new Deno.Command("script", {
    args: ["-qefc", [...wispCommand(), ...args].map(quote).join(" "), "/dev/null"],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", TERM: "dumb", NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) output += chunk;
  })();
  const writer = child.stdin.getWriter();
  for (const step of steps) {
    await waitUntil(() => output.includes(step.waitFor), `"${step.waitFor}" in the output`);
    await writer.write(new TextEncoder().encode(step.type));
  }
  const status = await child.status;
  await reading;
  await writer.close().catch(() => {});
  await child.stderr.cancel();
  return { code: status.code, output: output.replaceAll("\r\n", "\n") };
}

function listAll(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const entry of Deno.readDirSync(d)) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      out.push(rel);
      if (entry.isDirectory) walk(join(d, entry.name), rel);
    }
  };
  walk(dir, "");
  return out.sort();
}

Deno.test("models pull ORG/NAME: a trusted publisher's repository lands in huggingface_hub's cache layout and is linked", async () => {
  const fileList = files();
  const hub = startFakeHub([{ repo: "mlx-community/Qwen3-1.7B-4bit", files: fileList }]);
  const s = await scratch(hub.url);
  try {
    const run = await onTerminal(["models", "pull", "mlx-community/Qwen3-1.7B-4bit"], s.env, [
      { waitFor: "[y/N]", type: "y\n" },
    ]);
    assertEquals(run.code, 0, run.output);
    assertMatch(run.output, /^mlx-community\/Qwen3-1\.7B-4bit at 0123456789ab: 3 files, 300 KB$/m);
    assertMatch(run.output, /^ {2}model\.safetensors +300 KB +to fetch$/m);
    assertMatch(run.output, /Fetch 3 of them, 300 KB\? \[y\/N\]/);
    assertMatch(run.output, /\[2\/3\] model\.safetensors/);

    // The documented layout: models--ORG--NAME/{blobs,snapshots/<rev>,refs/main}.
    const folder = join(s.cache, "models--mlx-community--Qwen3-1.7B-4bit");
    assertEquals(Deno.readTextFileSync(join(folder, "refs", "main")), REVISION);
    const big = fileList[1];
    const link = join(folder, "snapshots", REVISION, "model.safetensors");
    assertEquals(Deno.readLinkSync(link), `../../blobs/${sha256Hex(big.bytes)}`);
    assertEquals(
      Deno.readLinkSync(join(folder, "snapshots", REVISION, "tokenizer", "tokenizer.json")),
      "../../../blobs/" + (await gitBlob(fileList[2].bytes)),
    );
    assertEquals(sha256Hex(Deno.readFileSync(link)), sha256Hex(big.bytes));
    assert(
      !listAll(folder).some((p) => p.endsWith(".incomplete")),
      listAll(folder).join("\n"),
    );

    // huggingface_hub's own reader (its JavaScript port) sees the revision, its ref and every file.
    const scanned = await scanCachedRepo(folder);
    assertEquals(scanned.id.name, "mlx-community/Qwen3-1.7B-4bit");
    assertEquals(scanned.revisions.length, 1);
    assertEquals(scanned.revisions[0].commitOid, REVISION);
    assertEquals(scanned.revisions[0].refs, ["main"]);
    // The JavaScript scanner reads a snapshot's top level only (Python's walks it all); the nested
    // file's link was checked against the documented layout above.
    assertEquals(
      scanned.revisions[0].files.map((f) => f.path.slice(f.path.indexOf(REVISION) + 41)).sort(),
      ["config.json", "model.safetensors"],
    );
    assertEquals(
      scanned.revisions[0].files.find((f) => f.path.endsWith("model.safetensors"))!.blob.size,
      300_000,
    );

    // Linked for MLX: <home>/models/mlx/<name> → the snapshot.
    assertEquals(
      Deno.readLinkSync(join(s.home, "models", "mlx", "Qwen3-1.7B-4bit")),
      join(folder, "snapshots", REVISION),
    );
    const event = Deno.readTextFileSync(join(s.home, "logs", "audit.jsonl")).trim().split("\n")
      .map((l) => JSON.parse(l)).find((e) => e.kind === "model.pull");
    assertEquals([event.model, event.outcome, event.bytes], [
      "mlx-community/Qwen3-1.7B-4bit",
      "pulled",
      fileList.reduce((sum, f) => sum + f.bytes.length, 0),
    ]);

    // Again: every file is cached, so nothing is asked or fetched; the weights' SHA-256 is checked.
    const before = hub.requests.filter((r) => r.path.includes("/resolve/")).length;
    const again = await runWisp(["models", "pull", "mlx-community/Qwen3-1.7B-4bit"], {
      env: s.env,
    });
    assertEquals(again.code, 0, again.stderr);
    assertMatch(
      again.stdout,
      /^ {2}model\.safetensors +300 KB +already in the Hugging Face cache$/m,
    );
    assertMatch(again.stderr, /checking the SHA-256 of model\.safetensors in the cache/);
    assertMatch(again.stderr, /every file is already in the Hugging Face cache/);
    assertEquals(hub.requests.filter((r) => r.path.includes("/resolve/")).length, before);
  } finally {
    await hub.close();
    await s.remove();
  }
});

async function gitBlob(data: Uint8Array): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha1").update(`blob ${data.length}\0`).update(data).digest("hex");
}

Deno.test("models pull ORG/NAME: a download that breaks off is resumed with a range request on the next pull", async () => {
  const hub = startFakeHub([{
    repo: "mlx-community/Qwen3-4B-4bit",
    files: files({ breakAfterOnce: 120_000 }),
  }]);
  const s = await scratch(hub.url);
  const folder = join(s.cache, "models--mlx-community--Qwen3-4B-4bit");
  try {
    const first = await onTerminal(["models", "pull", "mlx-community/Qwen3-4B-4bit"], s.env, [
      { waitFor: "[y/N]", type: "y\n" },
    ]);
    assertEquals(first.code, 1, first.output);
    assertMatch(
      first.output,
      /the download of model\.safetensors broke off at \d+ of 300000 bytes .*pull again to resume it/,
    );
    const partial = listAll(folder).filter((p) => p.endsWith(".incomplete"));
    assertEquals(partial.length, 1, listAll(folder).join("\n"));
    const kept = Deno.statSync(join(folder, partial[0])).size;
    assert(kept > 0 && kept < 300_000, String(kept));
    // Nothing partial is visible in the snapshot.
    assert(!listAll(folder).includes(`snapshots/${REVISION}/model.safetensors`));

    const second = await onTerminal(["models", "pull", "mlx-community/Qwen3-4B-4bit"], s.env, [
      { waitFor: "[y/N]", type: "y\n" },
    ]);
    assertEquals(second.code, 0, second.output);
    const ranged = hub.requests.filter((r) =>
      r.path.endsWith("/model.safetensors") && r.headers.range
    );
    assertEquals(ranged.map((r) => r.headers.range), [`bytes=${kept}-`]);
    assertMatch(second.output, /\[1\/2\] model\.safetensors/);
    const link = join(folder, "snapshots", REVISION, "model.safetensors");
    assertEquals(sha256Hex(Deno.readFileSync(link)), sha256Hex(files()[1].bytes));
    assert(!listAll(folder).some((p) => p.endsWith(".incomplete")));
  } finally {
    await hub.close();
    await s.remove();
  }
});

Deno.test("models pull ORG/NAME: bytes that do not match the listed SHA-256 are refused and removed", async () => {
  const hub = startFakeHub([{
    repo: "mlx-community/Broken-4bit",
    files: files({ serve: bytes(300_000, 9) }),
  }]);
  const s = await scratch(hub.url);
  const folder = join(s.cache, "models--mlx-community--Broken-4bit");
  try {
    const run = await onTerminal(["models", "pull", "mlx-community/Broken-4bit"], s.env, [
      { waitFor: "[y/N]", type: "y\n" },
    ]);
    assertEquals(run.code, 1, run.output);
    assertMatch(
      run.output,
      /model\.safetensors does not match its SHA-256 \(expected [0-9a-f]{12}…, got [0-9a-f]{12}…\); it was removed and nothing was linked/,
    );
    const left = listAll(folder);
    assert(!left.some((p) => p.endsWith(".incomplete")), left.join("\n"));
    assert(!left.includes(`blobs/${sha256Hex(files()[1].bytes)}`), left.join("\n"));
    assert(!left.includes(`snapshots/${REVISION}/model.safetensors`), left.join("\n"));
    assert(!listAll(s.home).includes("models/mlx/Broken-4bit"));
  } finally {
    await hub.close();
    await s.remove();
  }
});

Deno.test("models pull ORG/NAME: an untrusted publisher is refused without a terminal before any request; asked on one", async () => {
  const hub = startFakeHub([{
    repo: "ornith-ai/Ornith-1.5-9B-MLX-4bit",
    licenseTag: "apache-2.0",
    files: files(),
  }]);
  const s = await scratch(hub.url);
  try {
    const piped = await runWisp(["models", "pull", "ornith-ai/Ornith-1.5-9B-MLX-4bit"], {
      env: s.env,
    });
    assertEquals(piped.code, 64);
    assertEquals(
      piped.stderr.trim(),
      "error: ornith-ai is not a trusted publisher (mlx.trustedPublishers), and without a terminal wisp cannot ask; pass --trust-publisher to pull ornith-ai/Ornith-1.5-9B-MLX-4bit this once from a terminal, or add ornith-ai to mlx.trustedPublishers",
    );
    assertEquals(hub.requests.length, 0, "refused before any request");

    // Refused on a terminal with an empty line: nothing fetched.
    const refused = await onTerminal(
      ["models", "pull", "ornith-ai/Ornith-1.5-9B-MLX-4bit"],
      s.env,
      [
        { waitFor: "refuse [N]?", type: "\n" },
      ],
    );
    assertEquals(refused.code, 0, refused.output);
    assertMatch(refused.output, /^ {2}Licence: {5}apache-2\.0$/m);
    assertMatch(refused.output, /refused; nothing was fetched/);
    assertEquals(hub.requests.filter((r) => r.path.includes("/resolve/")).length, 0);

    // t trusts the publisher from now on and pulls without the [y/N] question.
    const trusted = await onTerminal(
      ["models", "pull", "ornith-ai/Ornith-1.5-9B-MLX-4bit"],
      s.env,
      [
        { waitFor: "refuse [N]?", type: "t\n" },
      ],
    );
    assertEquals(trusted.code, 0, trusted.output);
    assert(!trusted.output.includes("[y/N]"), trusted.output);
    const config = JSON.parse(Deno.readTextFileSync(join(s.home, "config.json")));
    assertEquals(config.mlx.trustedPublishers, ["mlx-community", "ornith-ai"]);
  } finally {
    await hub.close();
    await s.remove();
  }
});

Deno.test("models pull ORG/NAME: Ctrl-C during a download exits 130 and leaves nothing partial in the cache", async () => {
  const hub = startFakeHub([{
    repo: "mlx-community/Slow-4bit",
    files: files({ hangAfter: 100_000 }),
  }]);
  const s = await scratch(hub.url);
  const folder = join(s.cache, "models--mlx-community--Slow-4bit");
  try {
    const run = await onTerminal(["models", "pull", "mlx-community/Slow-4bit"], s.env, [
      { waitFor: "[y/N]", type: "y\n" },
      // The terminal turns ^C into SIGINT for wisp, as a person's Ctrl-C does.
      { waitFor: "[2/3] model.safetensors", type: "\x03" },
    ]);
    assertEquals(run.code, 130, run.output);
    assertMatch(
      run.output,
      /the pull was stopped; nothing partial is left in the Hugging Face cache/,
    );
    const left = listAll(folder);
    assert(!left.some((p) => p.endsWith(".incomplete")), left.join("\n"));
    assert(!left.includes(`snapshots/${REVISION}/model.safetensors`), left.join("\n"));
  } finally {
    await hub.close();
    await s.remove();
  }
});

Deno.test("models pull ORG/NAME: a Hub address outside the permission fence is refused in one sentence, before any request", async () => {
  const s = await scratch("https://hub.example.org");
  try {
    const run = await runWisp(["models", "pull", "mlx-community/Qwen3-4B-4bit"], { env: s.env });
    assertEquals(run.code, 1);
    assertEquals(
      run.stderr.trim(),
      "error: cannot reach the Hugging Face Hub at https://hub.example.org (wisp's permission fence does not allow connections to hub.example.org; it allows the Hugging Face Hub (huggingface.co, hf.co) and this machine)",
    );
    assert(!listAll(join(s.home, "..")).some((p) => p.includes("models--")));
  } finally {
    await s.remove();
  }
});
