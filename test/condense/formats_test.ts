/**
 * Readers against forms of their formats that the captured fixtures do not
 * show: other versions of the tools, other formatters and platforms. The
 * snippets follow what those versions print (quoted from their documented
 * output shapes, paths made up).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readAll } from "../../src/condense/readers/index.ts";
import type { Finding } from "../../src/condense/findings.ts";

function brief(text: string): string[] {
  return readAll(text).findings.map((f: Finding) =>
    `${f.kind} ${f.location ?? "-"} ${f.test ?? "-"} | ${f.message}`
  );
}

Deno.test("cargo test before Rust 1.73: the quoted multi-line panic message", () => {
  const log = `running 1 test
test tests::it_works ... FAILED

failures:

---- tests::it_works stdout ----
thread 'tests::it_works' panicked at 'assertion failed: \`(left == right)\`
  left: \`4\`,
 right: \`5\`', src/lib.rs:8:9
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::it_works

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
  const f = readAll(log).findings;
  assertEquals(f.length, 1);
  assertEquals(f[0].test, "tests::it_works");
  assertEquals(f[0].location, "src/lib.rs:8:9");
  assert(f[0].message.startsWith("assertion failed"));
  assertEquals(f[0].detail, ["left: 4", "right: 5"]);
});

Deno.test("cargo test: a should_panic test that did not panic, and a doc test", () => {
  const log = `test tests::rejects ... FAILED
test src/lib.rs - add (line 3) ... FAILED

failures:

---- tests::rejects stdout ----
note: test did not panic as expected
---- src/lib.rs - add (line 3) stdout ----
error[E0425]: cannot find function \`ad\` in this scope
 --> src/lib.rs:4:1
  |
3 | ad(1, 2);
  | ^^ not found in this scope

failures:
    tests::rejects
    src/lib.rs - add (line 3)

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s
`;
  const got = brief(log);
  assert(
    got.includes("test_failure - tests::rejects | test did not panic as expected"),
    got.join("\n"),
  );
  assert(
    got.some((l) => l.startsWith("test_failure - src/lib.rs - add (line 3) |")),
    got.join("\n"),
  );
});

Deno.test("recursive make: the failure inside the sub-make once, the parent's Error 2 not again", () => {
  const log = `make[1]: Entering directory '/p/sub'
cc -c x.c -o x.o
x.c:1:14: error: expected ';' before '}' token
make[1]: *** [Makefile:2: x.o] Error 1
make[1]: Leaving directory '/p/sub'
make: *** [Makefile:4: all] Error 2
`;
  assertEquals(brief(log), [
    "error x.c:1:14 - | expected ';' before '}' token",
    "error Makefile:2 - | make: target x.o failed (Error 1)",
  ]);
});

Deno.test("make: a missing rule and a makefile syntax error", () => {
  assertEquals(brief("make: *** No rule to make target 'lib.o', needed by 'app'.  Stop.\n"), [
    "error - - | make: No rule to make target 'lib.o', needed by 'app'",
  ]);
  assertEquals(brief("Makefile:3: *** missing separator.  Stop.\n"), [
    "error Makefile:3 - | missing separator",
  ]);
});

Deno.test("linkers: lld's undefined symbol and Apple ld's undefined symbols", () => {
  assertEquals(
    brief(`ld.lld: error: undefined symbol: helper
>>> referenced by link.c:2
>>>               /var/tmp/link-1.o:(main)
clang: error: linker command failed with exit code 1 (use -v to see invocation)
`),
    ["error link.c:2 - | undefined symbol: helper"],
  );
  assertEquals(
    brief(`Undefined symbols for architecture arm64:
  "_helper", referenced from:
      _main in link-1a2b3c.o
ld: symbol(s) not found for architecture arm64
clang: error: linker command failed with exit code 1 (use -v to see invocation)
`),
    ["error - - | undefined symbol _helper (arm64)"],
  );
});

Deno.test("clang: a fatal error and -Werror warnings", () => {
  assertEquals(
    brief(`main.c:1:10: fatal error: 'missing.h' file not found
#include "missing.h"
         ^~~~~~~~~~~
main.c:5:7: error: unused variable 'x' [-Werror,-Wunused-variable]
  int x = 1;
      ^
2 errors generated.
`),
    [
      "error main.c:1:10 - | 'missing.h' file not found",
      "error main.c:5:7 - | unused variable 'x' [-Werror,-Wunused-variable]",
    ],
  );
});

Deno.test("Surefire 2.x and Gradle test summaries", () => {
  const surefire = `Running demo.CalcTest
Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 sec <<< FAILURE! - in demo.CalcTest
addsLargeNumbers(demo.CalcTest)  Time elapsed: 0.004 sec  <<< FAILURE!
java.lang.AssertionError: expected:<42> but was:<43>
	at org.junit.Assert.fail(Assert.java:88)
	at demo.CalcTest.addsLargeNumbers(CalcTest.java:16)

`;
  assertEquals(brief(surefire), [
    "test_failure CalcTest.java:16 demo.CalcTest.addsLargeNumbers | java.lang.AssertionError: expected:<42> but was:<43>",
  ]);
  const gradle = `> Task :test FAILED

CalcTest > addsLargeNumbers() FAILED
    org.opentest4j.AssertionFailedError at CalcTest.java:16

4 tests completed, 1 failed

FAILURE: Build failed with an exception.
`;
  assertEquals(brief(gradle), [
    "test_failure CalcTest.java:16 CalcTest.addsLargeNumbers | org.opentest4j.AssertionFailedError",
  ]);
});

Deno.test("eslint's compact format", () => {
  assertEquals(
    brief("/p/a.js: line 3, col 7, Error - 'x' is not defined. (no-undef)\n\n1 problem\n"),
    [
      "error /p/a.js:3:7 - | 'x' is not defined. (no-undef)",
    ],
  );
});

Deno.test("TAP: TODO and SKIP are not failures; a plain not ok is", () => {
  const log = `TAP version 13
ok 1 - parses
not ok 2 - later # TODO not written yet
not ok 3 - formats
  ---
  message: 'expected "a" to equal "b"'
  at: 'test/format.js:12:3'
  ...
ok 4 - skipped # SKIP no network
1..4
`;
  assertEquals(brief(log), ['test_failure - formats | expected "a" to equal "b"']);
});

Deno.test("pytest with -rN (no summary): the FAILURES section alone", () => {
  const log = `============================= test session starts ==============================
collected 2 items

test_a.py .F                                                             [100%]

=================================== FAILURES ===================================
___________________________________ test_two ___________________________________

    def test_two():
>       assert 1 == 2
E       assert 1 == 2

test_a.py:5: AssertionError
========================= 1 failed, 1 passed in 0.01s ==========================
`;
  assertEquals(brief(log), ["test_failure test_a.py:5 test_a.py::test_two | assert 1 == 2"]);
});

Deno.test("deno test: an uncaught error in a test module", () => {
  const log = `running 0 tests from ./mod_test.ts

 ERRORS 

./mod_test.ts (uncaught error)
error: (in promise) TypeError: boom
  throw new TypeError("boom");
        ^
    at file:///p/mod_test.ts:3:9

 FAILURES 

./mod_test.ts (uncaught error)

FAILED | 0 passed | 1 failed (0ms)

error: Test failed
`;
  assertEquals(brief(log), ["error /p/mod_test.ts:3:9 - | (in promise) TypeError: boom"]);
});

Deno.test("node --test without the failing-tests section (older Node): the tree's ✖ with an error beneath", () => {
  const log = `▶ sum
  ✔ adds (0.5ms)
  ✖ adds large (1.2ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

    43 !== 42

        at TestContext.<anonymous> (/p/sum.test.js:10:12)
        at Test.runInAsyncScope (node:async_hooks:203:9)

▶ sum (3ms)

ℹ tests 2
ℹ pass 1
ℹ fail 1
`;
  assertEquals(brief(log), [
    "test_failure /p/sum.test.js:10:12 sum > adds large | AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
  ]);
});

Deno.test("jest: console blocks are not failures", () => {
  const log = `PASS ./a.test.js
  ● Console

    console.log
      error: not really

Test Suites: 1 passed, 1 total
Tests:       1 passed, 1 total
`;
  assertEquals(brief(log), []);
});

Deno.test("harmless text is not a finding", () => {
  const log = [
    "10:02:41: error: timestamps are not files",
    "error: printed by a program",
    "ERROR: an uppercase log line",
    "[ERROR] 2026-11-30 something logged",
    "WARNING: deprecated",
    "Build finished with 0 errors and 0 warnings",
    "test tests::test_error_handling ... ok",
    "test_error.py::test_error_handling PASSED",
    "--- PASS: TestErrorHandling (0.00s)",
    "  ✓ error handling (3 ms)",
    "  ✔ handles error",
    "    calc_test.go:9: error: logged by a passing test",
    "https://example.com:8080: error: not a place",
  ].join("\n");
  assertEquals(brief(log), []);
});

Deno.test("go vet with the vet: prefix, and a build failure inside go test", () => {
  const log = `# example.com/x
vet: ./a.go:3:2: unreachable code
FAIL	example.com/x [build failed]
`;
  assertEquals(brief(log), ["error ./a.go:3:2 - | unreachable code"]);
});

Deno.test("Kotlin through Gradle: e: and w: diagnostics in both forms", () => {
  assertEquals(
    brief(`> Task :app:compileKotlin FAILED
e: file:///home/dev/app/src/main/kotlin/Main.kt:3:5 Unresolved reference: foo
w: /home/dev/app/src/main/kotlin/Util.kt: (7, 9): Variable 'x' is never used
`),
    [
      "error /home/dev/app/src/main/kotlin/Main.kt:3:5 - | Unresolved reference: foo",
      "warning /home/dev/app/src/main/kotlin/Util.kt:7:9 - | Variable 'x' is never used",
    ],
  );
});

Deno.test("ninja (CMake): the compiler's error and the failed target", () => {
  assertEquals(
    brief(`[1/2] Building CXX object CMakeFiles/app.dir/main.cpp.o
FAILED: CMakeFiles/app.dir/main.cpp.o
/usr/bin/c++ -c ../main.cpp -o CMakeFiles/app.dir/main.cpp.o
../main.cpp:4:3: error: 'foo' was not declared in this scope
ninja: build stopped: subcommand failed.
`),
    [
      "error ../main.cpp:4:3 - | 'foo' was not declared in this scope",
      "error - - | ninja: target CMakeFiles/app.dir/main.cpp.o failed",
    ],
  );
});

Deno.test("older minitest names a test test_name(Class)", () => {
  assertEquals(
    brief(`  1) Failure:
test_adds_large(CalcTest) [calc_test.rb:10]:
Expected: 42
  Actual: 43

1 runs, 1 assertions, 1 failures, 0 errors, 0 skips
`),
    ["test_failure calc_test.rb:10 CalcTest#test_adds_large | Expected: 42"],
  );
});

Deno.test("cargo's own errors (a failed link) when the compile failed; a program's 'error:' output alone is not one", () => {
  const link = `   Compiling app v0.1.0 (/home/dev/app)
error: linking with \`cc\` failed: exit status: 1
  |
  = note: LC_ALL="C" PATH="/usr/bin" "cc" "-m64" "/home/dev/app/target/debug/deps/app.o"
  = note: /usr/bin/ld: app.o: in function \`main':
          app.c:(.text+0x5): undefined reference to \`helper'
          collect2: error: ld returned 1 exit status

error: could not compile \`app\` (bin "app") due to 1 previous error
`;
  const f = readAll(link).findings;
  assertEquals(f.map((x) => `${x.kind} ${x.message}`), [
    "error linking with `cc` failed: exit status: 1",
  ]);
  assertEquals(f[0].detail, ["undefined reference to helper"]);
  assertEquals(brief("error: this is just what the program printed\nrunning 0 tests\n"), []);
});

Deno.test("pytest stopped by a conftest that does not import", () => {
  assertEquals(
    brief(`ImportError while loading conftest '/home/dev/app/tests/conftest.py'.
tests/conftest.py:1: in <module>
    import missing_plugin
E   ModuleNotFoundError: No module named 'missing_plugin'
`),
    ["error tests/conftest.py:1 - | ModuleNotFoundError: No module named 'missing_plugin'"],
  );
});

Deno.test("the go command's own failures, not its progress", () => {
  assertEquals(
    brief(`go: downloading github.com/pkg/errors v0.9.1
go: updates to go.mod needed; to update it:
	go mod tidy
`),
    ["error - - | go: updates to go.mod needed; to update it:"],
  );
});

Deno.test("ruff's full output in rustc's layout (ruff 0.12+): code and message, the place on the next line", () => {
  const text = [
    "F401 [*] `os` imported but unused",
    " --> src/app.py:1:8",
    "  |",
    "1 | import os",
    "  |        ^^",
    "  |",
    "help: Remove unused import: `os`",
    "",
    "E711 Comparison to `None` should be `cond is None`",
    " --> src/app.py:4:9",
    "  |",
    "4 |     if x == None:",
    "  |         ^^^^",
    "",
    "Found 2 errors.",
    "[*] 1 fixable with the `--fix` option.",
  ].join("\n");
  assertEquals(readAll(text).findings.map((f) => [f.kind, f.location, f.message]), [
    ["error", "src/app.py:1:8", "`os` imported but unused (F401)"],
    ["error", "src/app.py:4:9", "Comparison to `None` should be `cond is None` (E711)"],
  ]);
});
