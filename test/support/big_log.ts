/**
 * A long verbose test log made up for the test and the bench: `go test -v`
 * style passing tests with log lines, and one failing test at a chosen
 * place (its name, file and line are what a reader must find). Written to a
 * file piece by piece, so the writer holds no more than one piece.
 */

/** The failing test planted in the log. */
export const PLANTED = {
  test: "TestLedgerBalancesAfterTransfer",
  location: "ledger_test.go:214",
  message: "balance = 90, want 100",
};

function passingTest(i: number): string {
  const name = `TestInventoryCase${i}`;
  return [
    `=== RUN   ${name}`,
    `    inventory_test.go:${40 + (i % 300)}: loaded ${i % 97} items from fixture shelf-${i % 13}`,
    `    inventory_test.go:${41 + (i % 300)}: reconciled stock level ${
      (i * 7) % 1000
    } against ledger`,
    `--- PASS: ${name} (0.00s)`,
  ].join("\n") + "\n";
}

const FAILING = [
  `=== RUN   ${PLANTED.test}`,
  `    ${PLANTED.location}: ${PLANTED.message}`,
  `--- FAIL: ${PLANTED.test} (0.01s)`,
].join("\n") + "\n";

/**
 * Writes about `bytes` of log to `path`, the failing test after about
 * `failAt` of them (a fraction, 0.5 = the middle). Returns the bytes written.
 */
export function writeBigLog(path: string, bytes: number, failAt = 0.5): number {
  const file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let written = 0;
  let planted = false;
  let i = 0;
  try {
    while (written < bytes) {
      const parts: string[] = [];
      let size = 0;
      while (size < 1024 * 1024 && written + size < bytes) {
        if (!planted && written + size >= bytes * failAt) {
          parts.push(FAILING);
          size += FAILING.length;
          planted = true;
        }
        const t = passingTest(i++);
        parts.push(t);
        size += t.length;
      }
      const chunk = encoder.encode(parts.join(""));
      file.writeSync(chunk);
      written += chunk.length;
    }
    const end = planted ? "FAIL\nFAIL\texample.com/shop\t12.345s\n" : "";
    written += file.writeSync(encoder.encode(end));
  } finally {
    file.close();
  }
  return written;
}
