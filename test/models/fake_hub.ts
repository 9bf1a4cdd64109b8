/**
 * A fake Hugging Face Hub on 127.0.0.1 that speaks the Hub's wire format for
 * what a pull uses:
 *
 * - `GET /api/models/ORG/NAME/revision/main` — the repository's commit (`sha`),
 *   its files (`siblings`, with `size` and, for large files, `lfs.sha256`),
 *   `cardData.license` and `tags`;
 * - `HEAD|GET /ORG/NAME/resolve/REV/FILE` — the bytes, with `ETag` (the
 *   SHA-256 for a large file, a git blob id otherwise), `X-Linked-Etag`,
 *   `X-Linked-Size`, `X-Repo-Commit`, and range requests (206, Content-Range).
 *
 * A file can be scripted to break off part-way on its first download (the
 * connection drops), to hang after some bytes (for Ctrl-C), or to serve bytes
 * other than the ones its listed SHA-256 describes.
 */
import { createHash } from "node:crypto";
import { json, type RecordedRequest, recordRequest, serveLoopback } from "../support/fake_http.ts";

export interface FakeHubFile {
  path: string;
  bytes: Uint8Array;
  /** Listed as a large (LFS) file, with its SHA-256. */
  lfs?: boolean;
  /** The first GET ends the connection after this many bytes. */
  breakAfterOnce?: number;
  /** Every GET sends this many bytes and then nothing, until the client goes. */
  hangAfter?: number;
  /** Serve these bytes instead (the listing keeps the SHA-256 of `bytes`). */
  serve?: Uint8Array;
}

export interface FakeHubRepo {
  repo: string;
  revision?: string;
  license?: string;
  licenseTag?: string;
  files: FakeHubFile[];
}

export interface FakeHub {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A git blob id, as the Hub's ETag for a small file. */
function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

export function startFakeHub(repos: FakeHubRepo[]): FakeHub {
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  const broken = new Set<string>();
  const revision = (r: FakeHubRepo) => r.revision ?? "0123456789abcdef0123456789abcdef01234567";

  function info(r: FakeHubRepo): Response {
    return json({
      id: r.repo,
      modelId: r.repo,
      sha: revision(r),
      private: false,
      gated: false,
      tags: r.licenseTag ? [`license:${r.licenseTag}`, "mlx"] : ["mlx"],
      cardData: r.license ? { license: r.license } : {},
      siblings: r.files.map((f) => ({
        rfilename: f.path,
        size: f.bytes.length,
        ...(f.lfs
          ? { lfs: { sha256: sha256Hex(f.bytes), size: f.bytes.length, pointerSize: 134 } }
          : {}),
      })),
    });
  }

  function resolve(request: Request, r: FakeHubRepo, f: FakeHubFile): Response {
    const body = f.serve ?? f.bytes;
    const etag = f.lfs ? sha256Hex(f.bytes) : gitBlobId(f.bytes);
    const headers: Record<string, string> = {
      "etag": `"${etag}"`,
      "x-repo-commit": revision(r),
      "accept-ranges": "bytes",
      ...(f.lfs ? { "x-linked-etag": `"${etag}"`, "x-linked-size": String(f.bytes.length) } : {}),
    };
    if (request.method === "HEAD") {
      return new Response(null, {
        headers: { ...headers, "content-length": String(body.length) },
      });
    }
    let start = 0;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(request.headers.get("range") ?? "");
    if (range) {
      start = Number(range[1]);
      status = 206;
      headers["content-range"] = `bytes ${start}-${body.length - 1}/${body.length}`;
    }
    const part = body.subarray(start);
    const key = `${r.repo}/${f.path}`;
    const breakAt = f.breakAfterOnce !== undefined && !broken.has(key)
      ? f.breakAfterOnce
      : undefined;
    if (breakAt !== undefined) broken.add(key);
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const stopAt = breakAt ?? f.hangAfter ?? part.length;
        for (let at = 0; at < Math.min(stopAt, part.length); at += 4096) {
          controller.enqueue(part.subarray(at, Math.min(at + 4096, stopAt, part.length)));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        if (breakAt !== undefined) {
          controller.error(new Error("connection dropped"));
          return;
        }
        if (f.hangAfter !== undefined) {
          await new Promise<void>((resolve) => {
            if (closing.signal.aborted) resolve();
            closing.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          controller.error(new Error("server closing"));
          return;
        }
        controller.close();
      },
    });
    return new Response(stream, {
      status,
      headers: { ...headers, "content-length": String(part.length) },
    });
  }

  const served = serveLoopback(async (request) => {
    requests.push(await recordRequest(request));
    const path = decodeURIComponent(new URL(request.url).pathname);
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/main$/.exec(path);
    if (api) {
      const r = repos.find((x) => x.repo === api[1]);
      return r ? info(r) : json({ error: "Repository not found" }, 404);
    }
    const file = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    if (file) {
      const r = repos.find((x) => x.repo === file[1]);
      const f = r?.files.find((x) => x.path === file[3]);
      if (r && f && (file[2] === revision(r) || file[2] === "main")) return resolve(request, r, f);
      return json({ error: "Entry not found" }, 404);
    }
    return json({ error: "not found" }, 404);
  }, closing);
  return { url: served.url, requests, close: served.close };
}
