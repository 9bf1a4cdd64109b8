import { assert, assertEquals } from "../support/assert.ts";
import { riskyDestination } from "../../src/gate/writes.ts";
import { writeTargets } from "../../src/gate/targets.ts";
import { display } from "../../src/gate/words.ts";
import { analysed, USER_HOME, verdict } from "./helpers.ts";

const targets = (line: string) =>
  analysed(line).parts.flatMap((p) => writeTargets(p)).map((t) => display(t.word));

Deno.test("writes: a destination is dangerous by what runs or obeys it later", () => {
  const h = USER_HOME;
  for (
    const path of [
      `${h}/.zshrc`,
      `${h}/.config/fish/conf.d/x.fish`,
      `${h}/.local/bin/ls`,
      `${h}/.ssh/authorized_keys`,
      `${h}/.some-tool/settings.json`,
      `${h}/Library/LaunchAgents/a.plist`,
      "/etc/profile.d/z.sh",
      "/usr/local/lib/libz.so",
      "/var/spool/cron/crontabs/me",
      `${h}/project/.git/hooks/pre-commit`,
      `${h}/project/.git/config`,
      `${h}/project/.envrc`,
    ]
  ) assert(riskyDestination(path, h), path);
  for (
    const path of [
      `${h}/project/src/a.ts`,
      `${h}/project/.github/workflows/ci.yml`,
      `${h}/Documents/notes.txt`,
      `${h}/.cache/tool/x`,
      "/tmp/out.txt",
      "/var/tmp/x",
    ]
  ) assertEquals(riskyDestination(path, h), undefined, path);
});

Deno.test("writes: targets hidden in options, scripts and clusters are found", () => {
  assertEquals(targets("git show HEAD --outpu=/tmp/a.diff"), ["/tmp/a.diff"]);
  assertEquals(targets("git diff --output-indicator-context=' '"), []);
  assertEquals(targets("git archive --output=rel.zip HEAD"), ["rel.zip"]);
  assertEquals(targets("find . -fls listing.txt").slice(-1), ["listing.txt"]);
  assertEquals(targets("curl -fsSLo out.bin https://example.com/b"), ["out.bin"]);
  assertEquals(targets("wget -qO page.html https://example.com/"), ["page.html"]);
  assertEquals(targets("sort -ro desc.txt in.txt"), ["desc.txt"]);
  assertEquals(targets("uniq -f 1 in.txt out.txt"), ["out.txt"]);
  assertEquals(targets("openssl req -new -keyout k.pem -out r.csr"), ["k.pem", "r.csr"]);
  assertEquals(targets("cp a.txt b.txt dest"), ["dest", "dest/a.txt", "dest/b.txt"]);
  assertEquals(targets("sed -n '/x/w hits.txt' log"), ["hits.txt"]);
  assertEquals(targets("awk '{ print > \"o.txt\" }' in"), ["o.txt"]);
  assertEquals(targets("xattr -l f.app"), []);
  assertEquals(targets("curl --dump-header h.txt -c jar.txt https://example.com/"), [
    "h.txt",
    "jar.txt",
  ]);
  assertEquals(targets("zip -r out.zip src"), ["out.zip"]);
  assertEquals(targets("script -q session.log"), ["session.log"]);
});

Deno.test("writes: disguised writes into system folders and the home's dotfiles are dangerous", () => {
  for (
    const line of [
      "git log -1 --output=/etc/issue.net",
      "sort -uo ~/.zprofile ~/.zprofile more.sh",
      "sed -n '$w /etc/cron.daily/job' tasks",
      "awk '{ print >> \"/etc/environment\" }' vars",
      "awk -v f=\"$HOME/.profile\" '{ print > f }' x",
      "find . -newer x -fprint ~/.inputrc",
      "curl -sSfo ~/.config/git/config https://example.com/g",
      "wget -O ~/.tmux.conf https://example.com/t",
      "dd if=snippet of=~/.bash_login",
      "uniq lines.txt ~/.zlogin",
      "cp -r scripts ~/bin",
      "cp myrc ~/.vimrc",
      "mv ./git ~/.cargo/bin/",
      "install tool /usr/bin/",
      "install -Dt ~/.local/bin mytool",
      "tee -a ~/.xprofile < x",
      "ln -s ~/.zshenv z; printf 'x\\n' >> z",
      "ln -s /usr/local/bin pathdir && cp mytool pathdir/",
      "unzip -o kit.zip -d /",
      "strace -f -o ~/.bash_profile true",
      "/usr/bin/time -o /etc/timing make",
      "gawk -i inplace '{ sub(/a/, \"b\") } 1' /etc/fstab",
      "echo 0 > /proc/sys/vm/swappiness",
      "cp rc /home/someone/.zshrc",
    ]
  ) assertEquals(verdict(line), "dangerous", line);
});

Deno.test("writes: disguised writes into wisp's own home are refused", () => {
  for (
    const line of [
      "git show --output=$HOME/.wisp/approvals.json",
      'sed -n "w $HOME/.wisp/config.json" in',
      'awk \'BEGIN { print 1 > ENVIRON["HOME"] "/.wisp/facts.json" }\'',
      "find . -fprint0 ~/.wisp/x",
      "sort -mo ~/.wisp/config.json a b",
      "split -b 10 blob ~/.wisp/chunk",
      "openssl enc -in x -out ~/.wisp/approvals.json",
      "ln -s ~/.wisp h; sort -o h/config.json in",
      "find ~ -maxdepth 1 -name '.w*' -exec cp evil.json {}/approvals.json \\;",
    ]
  ) assertEquals(verdict(line), "deny", line);
});

Deno.test("writes: the same programs writing inside the project, or only reading, stay low", () => {
  assertEquals(verdict("sort -o sorted.csv raw.csv"), "moderate");
  assertEquals(verdict("git diff main --output=review.patch"), "moderate");
  assertEquals(verdict("awk '{ print > $1 \".part\" }' in.tsv"), "moderate");
  assertEquals(verdict("cp config.json build/"), "moderate");
  assertEquals(verdict("cp notes.md ~/Desktop/"), "moderate");
  assertEquals(verdict("strace -o trace.txt ls"), "moderate");
  // GNU time's -o and -f take a value: the program it runs comes after them.
  assertEquals(verdict("/usr/bin/time -f %e -o t.txt rm -rf ~"), "deny");
  // A name known only in part is judged by its known start: `$PREFIX/bin` is not /bin.
  assertEquals(verdict('cp tool "$PREFIX/bin/"'), "moderate");
  assertEquals(verdict("cp tool /etc/$NAME"), "dangerous");
  assertEquals(verdict("sed 's/new/old/' a.txt"), "safe");
  assertEquals(verdict("sed -n '/^we /p' a.txt"), "safe");
  assertEquals(verdict("awk 'NF > 3' data"), "safe");
  assertEquals(verdict("git diff --output-indicator-new=+ HEAD"), "safe");
  assertEquals(verdict("head ~/.zshrc"), "safe");
  assertEquals(verdict("xattr -l App.app"), "safe");
  assertEquals(verdict("cp --version"), "safe");
  assertEquals(verdict("gawk -i inplace '{ print }' notes.txt"), "moderate");
});
