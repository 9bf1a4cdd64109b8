# Homebrew formula for wisp. The release workflow (.github/workflows/release.yml)
# rewrites `version` and each archive's sha256 below from what
# `deno task compile --release` built; the layout of an archive is in
# docs/completions.md ("Release archives").
class Wisp < Formula
  desc "Local AI agent with tools behind a policy, a classifier, your approval and a sandbox"
  homepage "https://github.com/pidster/wisp"
  version "0.1.0"

  on_macos do
    on_arm do
      url "https://github.com/pidster/wisp/releases/download/v#{version}/wisp-#{version}-aarch64-apple-darwin.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/pidster/wisp/releases/download/v#{version}/wisp-#{version}-x86_64-apple-darwin.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/pidster/wisp/releases/download/v#{version}/wisp-#{version}-aarch64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    on_intel do
      url "https://github.com/pidster/wisp/releases/download/v#{version}/wisp-#{version}-x86_64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000"
    end
    depends_on "bubblewrap"
  end

  def install
    # wisp lives in libexec with its native library beside it (it finds the
    # library next to its own real path), and is linked into bin.
    libexec.install "wisp"
    # libwisp is built on macOS once the native library exists; an archive
    # without it installs nothing here.
    libexec.install Dir["libwisp.*"]
    bin.install_symlink libexec/"wisp"
    bash_completion.install "completions/wisp.bash" => "wisp"
    zsh_completion.install "completions/_wisp"
    fish_completion.install "completions/wisp.fish"
  end

  def caveats
    <<~EOS
      wisp runs every command the model asks for inside an OS sandbox
      (sandbox-exec on macOS, bubblewrap on Linux). A command that cannot run
      sandboxed, such as brew upgrade, runs outside it only when you approve
      that one run. Homebrew runs a sandbox of its own, which cannot nest in
      wisp's: run brew yourself rather than through wisp.

      Check the install with:
        wisp doctor
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/wisp --version")
    ENV["WISP_HOME"] = (testpath/"wisp-home").to_s
    # doctor exits 1 when a finding is not ok (no model is set up here, and
    # the sandbox probe cannot nest inside Homebrew's test sandbox), so only
    # the findings that need no model are asserted.
    report = JSON.parse(pipe_output("#{bin}/wisp doctor --json", nil, nil))
    findings = report["findings"].to_h { |finding| [finding["name"], finding] }
    assert findings.fetch("config")["ok"], findings["config"]["detail"]
    assert findings.fetch("home")["ok"], findings["home"]["detail"]
    assert_match "# wisp completions: zsh", shell_output("#{bin}/wisp completions zsh")
  end
end
