/**
 * Logs of a known number of findings in the shape each tool prints them,
 * made up for the tests of triage's counts (test/condense/exact_counts_test.ts)
 * and of blocks longer than a window's context (window_cuts_test.ts). Each
 * failing test sits among passing ones, and each log holds lines that look
 * like findings but are not (a passing test's log line that says `error:`, a
 * summary count), so a count that is right is right for the right reason.
 */

/** The formats `countedLog` writes. */
export const COUNTED_FORMATS = [
  "pytest",
  "pytest-no-summary",
  "pytest-rA",
  "pytest-errors",
  "jest",
  "cargo",
  "go",
  "go-verbose",
  "go-panic",
  "java-exception",
  "maven",
  "rspec",
  "minitest",
  "mocha",
  "node-test",
  "deno",
  "eslint",
  "eslint-one-file",
  "tsc",
  "gcc",
] as const;

/** One of COUNTED_FORMATS. */
export type CountedFormat = typeof COUNTED_FORMATS[number];

/** Options of a counted log: long blocks inside it. */
export interface CountedOptions {
  /** Lines of output each failing test prints (a captured stdout, a test's own log). */
  outputLines?: number;
}

const rule = (title: string, width = 80) => {
  const side = Math.max(3, Math.floor((width - title.length - 2) / 2));
  return `${"=".repeat(side)} ${title} ${"=".repeat(width - side - title.length - 2)}`;
};
const underline = (title: string, width = 80) => {
  const side = Math.max(3, Math.floor((width - title.length - 2) / 2));
  return `${"_".repeat(side)} ${title} ${"_".repeat(width - side - title.length - 2)}`;
};

/** A pytest run of `n` failing tests (and as many passing), with its sections and summary. */
function pytestLog(n: number, o: CountedOptions, summary: boolean, rA: boolean, errors: number) {
  const out: string[] = [
    rule("test session starts"),
    "platform linux -- Python 3.12.3, pytest-8.2.1, pluggy-1.5.0",
    "rootdir: /home/dev/shop",
    `collected ${2 * n + errors} items`,
    "",
  ];
  const mod = (i: number) => `tests/test_orders${Math.floor(i / 25)}.py`;
  for (let m = 0; m * 25 < n; m++) out.push(`${mod(m * 25)} ${"F.".repeat(12)}F. [${m % 100}%]`);
  out.push("");
  if (errors > 0) {
    out.push(rule("ERRORS"));
    for (let i = 0; i < errors; i++) {
      out.push(underline(`ERROR at setup of test_refund_${i}`), "");
      out.push(
        "    @pytest.fixture",
        "    def ledger():",
        ">       raise ConnectionError('ledger down')",
      );
      out.push(`E       ConnectionError: ledger ${i} down`, "");
      out.push(`tests/conftest.py:${12 + (i % 30)}: ConnectionError`);
    }
  }
  out.push(rule("FAILURES"));
  for (let i = 0; i < n; i++) {
    out.push(underline(`test_total_${i}`), "");
    out.push(`    def test_total_${i}():`, `        order = make_order(${i})`);
    out.push(`>       assert order.total() == ${i + 1}`, `E       assert ${i} == ${i + 1}`);
    out.push(`E        +  where ${i} = <Order ${i}>.total()`, "");
    out.push(`${mod(i)}:${8 + (i % 25) * 5}: AssertionError`);
    if (o.outputLines) {
      out.push("-".repeat(29) + " Captured stdout call " + "-".repeat(29));
      for (let k = 0; k < o.outputLines; k++) {
        out.push(`worker.py:${k % 90 + 1}: error: retry ${k} of order ${i} (harmless)`);
      }
    }
  }
  if (rA) {
    out.push(rule("PASSES"));
    for (let i = 0; i < Math.min(n, 50); i++) {
      out.push(underline(`test_ok_${i}`));
      out.push("-".repeat(29) + " Captured stdout call " + "-".repeat(29));
      out.push(`tests/helpers.py:3: note: ok ${i}`);
    }
  }
  if (summary) {
    out.push(rule("short test summary info"));
    if (rA) { for (let i = 0; i < n; i++) out.push(`PASSED ${mod(i)}::test_ok_${i}`); }
    for (let i = 0; i < errors; i++) {
      out.push(`ERROR tests/test_refunds.py::test_refund_${i} - ConnectionError: ledger ${i} down`);
    }
    for (let i = 0; i < n; i++) {
      out.push(`FAILED ${mod(i)}::test_total_${i} - assert ${i} == ${i + 1}`);
    }
  }
  out.push(rule(`${n} failed, ${n} passed${errors ? `, ${errors} errors` : ""} in 41.07s`));
  return out;
}

/** Jest: one `FAIL file` heading per file of 10 tests, each failure's block. */
function jestLog(n: number, o: CountedOptions) {
  const out: string[] = [];
  for (let f = 0; f * 10 < n; f++) {
    out.push(`FAIL src/cart${f}.test.js`);
    for (let i = f * 10; i < Math.min(n, f * 10 + 10); i++) {
      out.push(`  ● cart ${f} › prices item ${i}`, "");
      out.push("    expect(received).toBe(expected) // Object.is equality", "");
      out.push(`    Expected: ${i + 1}`, `    Received: ${i}`, "");
      if (o.outputLines) {
        for (let k = 0; k < o.outputLines; k++) out.push(`      log: error: line ${k} (harmless)`);
      }
      out.push(`      at Object.toBe (src/cart${f}.test.js:${5 + (i % 10) * 4}:21)`, "");
    }
    out.push(`PASS src/util${f}.test.js`);
  }
  const suites = Math.ceil(n / 10);
  out.push(`Test Suites: ${suites} failed, ${suites} passed, ${2 * suites} total`);
  out.push(`Tests:       ${n} failed, ${n} passed, ${2 * n} total`);
  out.push("Time:        12.3 s", "Ran all test suites.");
  return out;
}

/** cargo test: result lines, then `failures:` with each test's stdout, then the list of names. */
function cargoLog(n: number, o: CountedOptions) {
  const out: string[] = [
    "   Compiling shop v0.1.0 (/home/dev/shop)",
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.10s",
    "     Running unittests src/lib.rs (target/debug/deps/shop-0123456789abcdef)",
    "",
    `running ${2 * n} tests`,
  ];
  for (let i = 0; i < n; i++) {
    out.push(`test orders::tests::total_${i} ... FAILED`, `test orders::tests::ok_${i} ... ok`);
  }
  out.push("", "failures:", "");
  for (let i = 0; i < n; i++) {
    out.push(`---- orders::tests::total_${i} stdout ----`);
    if (o.outputLines) {
      for (let k = 0; k < o.outputLines; k++) out.push(`retry ${k}: error: timed out (harmless)`);
    }
    out.push(`thread 'orders::tests::total_${i}' panicked at src/orders.rs:${20 + (i % 50)}:9:`);
    out.push("assertion `left == right` failed", `  left: ${i}`, ` right: ${i + 1}`);
    out.push("note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "");
  }
  out.push("", "failures:");
  for (let i = 0; i < n; i++) out.push(`    orders::tests::total_${i}`);
  out.push(
    "",
    `test result: FAILED. ${n} passed; ${n} failed; 0 ignored; 0 measured; 0 filtered out`,
  );
  out.push("", "error: test failed, to rerun pass `--lib`");
  return out;
}

/** go test (`-v` when verbose): each failing test's log lines and `--- FAIL`. */
function goLog(n: number, o: CountedOptions, verbose: boolean) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (verbose) out.push(`=== RUN   TestTotal${i}`);
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`    orders_test.go:${k % 80 + 1}: step ${k}: error: retrying (harmless)`);
    }
    out.push(`    orders_test.go:${30 + (i % 40)}: Total() = ${i}, want ${i + 1}`);
    out.push(`--- FAIL: TestTotal${i} (0.00s)`);
    if (verbose) {
      out.push(`=== RUN   TestOk${i}`, `    orders_test.go:12: error: harmless log`);
      out.push(`--- PASS: TestOk${i} (0.00s)`);
    }
  }
  out.push("FAIL", "FAIL\texample.com/shop/orders\t0.412s", "FAIL");
  return out;
}

/**
 * go test -v whose last test panics: `n - 1` failing tests, then the panic and
 * its goroutine dump (`outputLines` goroutines blocked beside the one running).
 */
function goPanicLog(n: number, o: CountedOptions) {
  const out = goLog(n - 1, {}, true).slice(0, -3);
  out.push(`=== RUN   TestSettle`, `--- FAIL: TestSettle (0.00s)`);
  out.push("panic: runtime error: index out of range [3] with length 3 [recovered]");
  out.push("\tpanic: runtime error: index out of range [3] with length 3", "");
  out.push("goroutine 7 [running]:", "testing.tRunner.func1.2({0x5a1b20, 0xc0000b2018})");
  out.push("\t/usr/local/go/src/testing/testing.go:1545 +0x238");
  out.push("example.com/shop/orders.TestSettle(0xc000103a00)");
  out.push("\t/home/dev/shop/orders/settle_test.go:41 +0x1d", "");
  for (let g = 0; g < (o.outputLines ?? 0); g++) {
    out.push(`goroutine ${g + 8} [chan receive, ${g % 9} minutes]:`);
    out.push(`example.com/shop/queue.(*Worker).loop(0xc0001${String(g).padStart(5, "0")})`);
    out.push(`\t/home/dev/shop/queue/worker.go:${60 + (g % 30)} +0x${(g * 37).toString(16)}`);
    out.push(`created by example.com/shop/queue.Start in goroutine 1`);
    out.push(`\t/home/dev/shop/queue/worker.go:31 +0x85`, "");
  }
  out.push("FAIL\texample.com/shop/orders\t0.412s", "FAIL");
  return out;
}

/**
 * A Java program's own output: `n` uncaught exceptions on worker threads,
 * each a stack of `outputLines` frames and a cause.
 */
function javaExceptionLog(n: number, o: CountedOptions) {
  const out: string[] = ["INFO  starting 8 workers"];
  for (let i = 0; i < n; i++) {
    out.push(`INFO  worker ${i} picked job ${i * 3}`);
    out.push(
      `Exception in thread "worker-${i}" java.lang.IllegalStateException: job ${i} lost its lease`,
    );
    out.push(`\tat shop.jobs.Lease.check(Lease.java:${20 + (i % 30)})`);
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`\tat shop.jobs.Step.run${k % 7}(Step.java:${k % 400 + 1})`);
    }
    out.push("\tat java.base/java.lang.Thread.run(Thread.java:1583)");
    out.push(`Caused by: java.io.IOException: lease store ${i} unreachable`);
    out.push("\tat shop.jobs.Store.read(Store.java:88)", "\t... 3 more");
  }
  out.push("INFO  shutting down");
  return out;
}

/** Maven surefire: each failing test's block, then the Results list. */
function mavenLog(n: number, o: CountedOptions) {
  const out: string[] = [
    "[INFO] -------------------------------------------------------",
    "[INFO]  T E S T S",
    "[INFO] -------------------------------------------------------",
  ];
  const cls = (i: number) => `shop.Orders${Math.floor(i / 20)}Test`;
  for (let c = 0; c * 20 < n; c++) {
    const tests = Math.min(20, n - c * 20);
    out.push(`[INFO] Running ${cls(c * 20)}`);
    out.push(
      `[ERROR] Tests run: ${2 * tests}, Failures: ${tests}, Errors: 0, Skipped: 0, ` +
        `Time elapsed: 0.2 s <<< FAILURE! -- in ${cls(c * 20)}`,
    );
    for (let i = c * 20; i < c * 20 + tests; i++) {
      out.push(`[ERROR] ${cls(i)}.total${i} -- Time elapsed: 0.004 s <<< FAILURE!`);
      out.push(`org.opentest4j.AssertionFailedError: expected: <${i + 1}> but was: <${i}>`);
      out.push("\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)");
      for (let k = 0; k < (o.outputLines ?? 0); k++) {
        out.push(`\tat shop.Deep.call${k}(Deep.java:${k % 500 + 1})`);
      }
      out.push(
        `\tat ${cls(i)}.total${i}(Orders${Math.floor(i / 20)}Test.java:${10 + (i % 20)})`,
        "",
      );
    }
  }
  out.push("[INFO] ", "[INFO] Results:", "[INFO] ", "[ERROR] Failures: ");
  for (let i = 0; i < n; i++) {
    out.push(
      `[ERROR]   Orders${Math.floor(i / 20)}Test.total${i}:${10 + (i % 20)} ` +
        `expected: <${i + 1}> but was: <${i}>`,
    );
  }
  out.push("[INFO] ", `[ERROR] Tests run: ${2 * n}, Failures: ${n}, Errors: 0, Skipped: 0`);
  out.push("[INFO] ", "[INFO] BUILD FAILURE");
  return out;
}

/** RSpec: the Failures list, the counts and `rspec ./spec…` lines. */
function rspecLog(n: number, o: CountedOptions) {
  const out: string[] = [".F".repeat(Math.min(n, 500)), "", "Failures:", ""];
  const spec = (i: number) => `./spec/orders${Math.floor(i / 30)}_spec.rb`;
  for (let i = 0; i < n; i++) {
    out.push(`  ${i + 1}) Orders totals order ${i}`);
    out.push(`     Failure/Error: expect(order.total).to eq(${i + 1})`, "");
    out.push(`       expected: ${i + 1}`, `            got: ${i}`, "");
    out.push("       (compared using ==)");
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`       # ./lib/deep.rb:${k + 1}:in 'step'`);
    }
    out.push(`     # ${spec(i)}:${5 + (i % 30) * 3}:in 'block (2 levels) in <top (required)>'`, "");
  }
  out.push("Finished in 4.2 seconds (files took 0.3 seconds to load)");
  out.push(`${2 * n} examples, ${n} failures`, "", "Failed examples:", "");
  for (let i = 0; i < n; i++) {
    out.push(`rspec ${spec(i)}:${5 + (i % 30) * 3} # Orders totals order ${i}`);
  }
  return out;
}

/** Minitest: numbered failures and errors after `Finished`. */
function minitestLog(n: number, o: CountedOptions) {
  const out: string[] = [
    "Run options: --seed 4242",
    "",
    "# Running:",
    "",
    "F.".repeat(Math.min(n, 500)),
    "",
  ];
  out.push("Finished in 1.5s, 300 runs/s, 400 assertions/s.", "");
  for (let i = 0; i < n; i++) {
    if (i % 5 === 4) {
      out.push(`  ${i + 1}) Error:`, `OrdersTest#test_total_${i}:`);
      out.push(`ArgumentError: bad order ${i}`);
      for (let k = 0; k < (o.outputLines ?? 0); k++) out.push(`    lib/deep.rb:${k + 1}:in 'step'`);
      out.push(`    test/orders_test.rb:${10 + (i % 40)}:in 'test_total_${i}'`, "");
    } else {
      out.push(
        `  ${i + 1}) Failure:`,
        `OrdersTest#test_total_${i} [test/orders_test.rb:${10 + (i % 40)}]:`,
      );
      out.push(`Expected: ${i + 1}`, `  Actual: ${i}`, "");
    }
  }
  const errors = Math.floor(n / 5);
  out.push(`${2 * n} runs, ${2 * n} assertions, ${n - errors} failures, ${errors} errors, 0 skips`);
  return out;
}

/** mocha's spec reporter: the tree, the counts, then each numbered failure. */
function mochaLog(n: number, o: CountedOptions) {
  const out: string[] = ["", "", "  orders"];
  for (let i = 0; i < n; i++) out.push(`    ✔ keeps order ${i}`, `    ${i + 1}) totals order ${i}`);
  out.push("", "", `  ${n} passing (2s)`, `  ${n} failing`, "");
  for (let i = 0; i < n; i++) {
    out.push(`  ${i + 1}) orders`, `       totals order ${i}:`, "");
    out.push("      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", "");
    out.push(`${i} !== ${i + 1}`, "");
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`      at step${k} (lib/deep.js:${k + 1}:3)`);
    }
    out.push(`      at Context.<anonymous> (test/orders.test.js:${10 + (i % 50)}:12)`);
    out.push("      at process.processImmediate (node:internal/timers:483:21)", "");
  }
  return out;
}

/** node --test's spec reporter: each failing test with its error, then the failing tests again. */
function nodeTestLog(n: number, o: CountedOptions) {
  const out: string[] = [];
  const block = (i: number, indent: string) => {
    out.push(`${indent}✖ totals order ${i} (0.5ms)`);
    out.push(`${indent}  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`);
    out.push(`${indent}  `, `${indent}  ${i} !== ${i + 1}`, `${indent}  `);
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`${indent}      at step${k} (/home/dev/shop/lib/deep.js:${k + 1}:3)`);
    }
    out.push(
      `${indent}      at TestContext.<anonymous> (/home/dev/shop/orders.test.js:${
        10 + (i % 50)
      }:12)`,
    );
    out.push(`${indent}      at Test.runInAsyncScope (node:async_hooks:206:9) {`);
    out.push(`${indent}    generatedMessage: true,`, `${indent}    code: 'ERR_ASSERTION',`);
    out.push(`${indent}    actual: ${i},`, `${indent}    expected: ${i + 1},`);
    out.push(`${indent}    operator: 'strictEqual'`, `${indent}  }`, "");
  };
  for (let i = 0; i < n; i++) {
    out.push(`✔ keeps order ${i} (0.2ms)`);
    block(i, "");
  }
  out.push(`ℹ tests ${2 * n}`, "ℹ suites 0", `ℹ pass ${n}`, `ℹ fail ${n}`, "ℹ cancelled 0");
  out.push("ℹ skipped 0", "ℹ todo 0", "ℹ duration_ms 2100.5", "", "✖ failing tests:", "");
  out.push("test at orders.test.js:1:1");
  for (let i = 0; i < n; i++) block(i, "");
  return out;
}

/** deno test: results, then ERRORS with each failure's block, then FAILURES listing them. */
function denoLog(n: number, o: CountedOptions) {
  const out: string[] = ["running " + 2 * n + " tests from ./orders_test.ts"];
  for (let i = 0; i < n; i++) {
    out.push(`keeps order ${i} ... ok (1ms)`, `totals order ${i} ... FAILED (2ms)`);
  }
  out.push("", " ERRORS ", "");
  for (let i = 0; i < n; i++) {
    out.push(`totals order ${i} => ./orders_test.ts:${10 + (i % 50)}:6`);
    out.push(`error: AssertionError: Values are not equal: actual ${i}, expected ${i + 1}`);
    for (let k = 0; k < (o.outputLines ?? 0); k++) {
      out.push(`    at step${k} (file:///home/dev/shop/deep.ts:${k + 1}:3)`);
    }
    out.push(`    at file:///home/dev/shop/orders_test.ts:${11 + (i % 50)}:3`, "");
  }
  out.push(" FAILURES ", "");
  for (let i = 0; i < n; i++) out.push(`totals order ${i} => ./orders_test.ts:${10 + (i % 50)}:6`);
  out.push("", `FAILED | ${n} passed | ${n} failed (4s)`, "");
  out.push("error: Test failed");
  return out;
}

/** ESLint's stylish report: a heading per file of `perFile` messages, its messages, the total. */
function eslintLog(n: number, perFile: number) {
  const out: string[] = [""];
  let errors = 0;
  for (let f = 0; f * perFile < n; f++) {
    out.push(`/home/dev/shop/src/view${f}.js`);
    for (let i = f * perFile; i < Math.min(n, f * perFile + perFile); i++) {
      const warn = i % 7 === 3;
      if (!warn) errors++;
      out.push(
        `  ${2 + i}:${1 + (i % 9)}  ${warn ? "warning" : "error  "}  ` +
          `'v${i}' is assigned a value but never used  no-unused-vars`,
      );
    }
    out.push("");
  }
  out.push(`✖ ${n} problems (${errors} errors, ${n - errors} warnings)`, "");
  return out;
}

/** tsc: one line per error. */
function tscLog(n: number) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `src/view${Math.floor(i / 40)}.ts(${2 + (i % 40)},${5 + (i % 9)}): error TS2322: ` +
        `Type 'string' is not assignable to type 'number' (v${i}).`,
    );
  }
  out.push("", `Found ${n} errors in ${Math.ceil(n / 40)} files.`, "");
  return out;
}

/** gcc: diagnostics with their code frames, make's closing line. */
function gccLog(n: number) {
  const out: string[] = ["gcc -Wall -c src/a.c -o build/a.o"];
  for (let i = 0; i < n - 1; i++) {
    const file = `src/unit${Math.floor(i / 50)}.c`;
    out.push(
      `${file}:${5 + (i % 50)}:${
        3 + (i % 7)
      }: warning: unused variable 'v${i}' [-Wunused-variable]`,
    );
    out.push(`  ${5 + (i % 50)} |   int v${i};`, "      |       ^~");
  }
  out.push("make: *** [Makefile:12: all] Error 1");
  return out;
}

/**
 * A log of format `format` with `n` findings (for "pytest-errors", `n`
 * failures and a quarter as many setup errors: `countedFindings` says how
 * many in all).
 */
export function countedLog(format: CountedFormat, n: number, o: CountedOptions = {}): string {
  const lines = (() => {
    switch (format) {
      case "pytest":
        return pytestLog(n, o, true, false, 0);
      case "pytest-no-summary":
        return pytestLog(n, o, false, false, 0);
      case "pytest-rA":
        return pytestLog(n, o, true, true, 0);
      case "pytest-errors":
        return pytestLog(n, o, true, false, Math.floor(n / 4));
      case "jest":
        return jestLog(n, o);
      case "cargo":
        return cargoLog(n, o);
      case "go":
        return goLog(n, o, false);
      case "go-verbose":
        return goLog(n, o, true);
      case "go-panic":
        return goPanicLog(n, o);
      case "java-exception":
        return javaExceptionLog(n, o);
      case "maven":
        return mavenLog(n, o);
      case "rspec":
        return rspecLog(n, o);
      case "minitest":
        return minitestLog(n, o);
      case "mocha":
        return mochaLog(n, o);
      case "node-test":
        return nodeTestLog(n, o);
      case "deno":
        return denoLog(n, o);
      case "eslint":
        return eslintLog(n, 40);
      case "eslint-one-file":
        // One file's messages longer than a window's context: its heading is far behind.
        return eslintLog(n, n);
      case "tsc":
        return tscLog(n);
      case "gcc":
        return gccLog(n);
    }
  })();
  return lines.join("\n") + "\n";
}

/** The findings a counted log of `n` holds. */
export function countedFindings(format: CountedFormat, n: number): number {
  return format === "pytest-errors" ? n + Math.floor(n / 4) : n;
}
