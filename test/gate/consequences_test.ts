import { assertEquals } from "../support/assert.ts";
import { killArgs } from "../../src/gate/consequences.ts";
import { display, litWord } from "../../src/gate/words.ts";
import { verdict } from "./helpers.ts";

const kill = (...args: string[]) => {
  const k = killArgs(args.map(litWord));
  return [k.signal, k.pids.map(display)];
};

Deno.test("consequences: kill's signal is read in every spelling", () => {
  assertEquals(kill("-9", "10"), ["9", ["10"]]);
  assertEquals(kill("-KILL", "10"), ["KILL", ["10"]]);
  assertEquals(kill("-SIGKILL", "10", "11"), ["KILL", ["10", "11"]]);
  assertEquals(kill("-s", "sigkill", "10"), ["KILL", ["10"]]);
  assertEquals(kill("-sKILL", "10"), ["KILL", ["10"]]);
  assertEquals(kill("--signal=KILL", "10"), ["KILL", ["10"]]);
  assertEquals(kill("-n", "9", "10"), ["9", ["10"]]);
  assertEquals(kill("10"), ["TERM", ["10"]]);
  assertEquals(kill("-9", "-1"), ["9", ["-1"]]);
  assertEquals(kill("--", "-42"), ["TERM", ["-42"]]);
});

Deno.test("consequences: signals to processes the line did not start are dangerous", () => {
  for (
    const line of [
      "kill -9 5001",
      "kill -s KILL 5001",
      "kill --signal SIGKILL 5001",
      "kill -QUIT $PPID",
      "kill $(lsof -t -i tcp:4000)",
      "kill -TERM $(pgrep node)",
      "pgrep -f vite | xargs kill",
      "lsof -ti :9000 | xargs kill -KILL",
      "fuser -k 5432/tcp",
      "kill -9 $(cat app.pid)",
      "kill -- -77",
      "p=$(pidof redis-server); kill -HUP $p",
    ]
  ) assertEquals(verdict(line), "dangerous", line);
  // Its own jobs and children, a gentle signal, or no signal at all.
  assertEquals(verdict("./srv & kill -9 $!"), "moderate");
  assertEquals(verdict("./srv & S=$!; kill -KILL $S"), "moderate");
  assertEquals(verdict("kill -9 %3"), "moderate");
  assertEquals(verdict("kill -USR1 5001"), "moderate");
  assertEquals(verdict("./a & ./b & kill -KILL $(jobs -p)"), "moderate");
  assertEquals(verdict("kill -0 5001"), "safe");
  assertEquals(verdict("kill -l"), "safe");
});

Deno.test("consequences: what starts again by itself later is dangerous", () => {
  for (
    const line of [
      "systemctl --user enable watcher.service",
      "systemctl preset-all",
      "defaults write com.apple.loginwindow LogoutHook /tmp/out.sh",
      "npm pkg set scripts.preinstall='sh x'",
      "pnpm pkg set scripts.postinstall=./x",
      "node -e 1 > /dev/null; jq '.scripts.prepare=\"x\"' package.json > tmp.json",
      "npm config set script-shell ./sh",
      "git config core.hooksPath hooks",
      "cp pre-push .git/hooks/",
      "systemd-run --user --on-boot=5min ./task",
      "loginctl enable-linger me",
      "defaults write com.apple.LaunchServices LSQuarantine -bool false",
    ]
  ) assertEquals(verdict(line), "dangerous", line);
  assertEquals(verdict("systemctl --user status watcher.service"), "safe");
  assertEquals(verdict("npm pkg set version=2.0.0"), "moderate");
  assertEquals(verdict("npm pkg get name"), "safe");
  assertEquals(verdict("defaults write com.example.app ShowBar -bool false"), "moderate");
});

Deno.test("consequences: shells in a cluster and containers with the host's powers are dangerous", () => {
  for (
    const line of [
      "kubectl exec -n prod api-0 -- bash",
      "kubectl attach -it web",
      "kubectl --context prod -n api exec web-1 -- id",
      "docker run --security-opt=seccomp=unconfined x",
      "podman run --cap-add=SYS_PTRACE x",
      "docker run --ipc=host x",
      "docker run --device=/dev/sda x",
      "docker run -v $HOME:/h x",
      "docker run -v ~/.aws:/root/.aws:ro x",
      "nerdctl run --mount type=bind,source=/usr,target=/u x",
      "docker run -v /home:/all x",
      "kubectl run shell -it --image=busybox",
      "gcloud compute ssh web-1 --zone z",
      "aws ssm send-command --document-name x",
      "az vm run-command invoke -g g -n n --command-id RunShellScript",
    ]
  ) assertEquals(verdict(line), "dangerous", line);
  assertEquals(verdict("docker run --rm -v ./out:/out x"), "moderate");
  assertEquals(verdict("kubectl logs api-0"), "safe");
});

Deno.test("consequences: publishing and macOS's ways around its checks are dangerous", () => {
  for (
    const line of [
      "twine upload --repository testpypi dist/*",
      "python3 -m twine upload dist/x.tar.gz",
      "hatch publish",
      "gh release upload v2 a.zip",
      "gh gist create secret.txt",
      "gh repo edit --visibility public",
      "bun publish",
      "open Tool.app",
      "open ~/Downloads/setup.command",
      "open -a Terminal ./go.sh",
      "networksetup -setwebproxy Ethernet 10.1.1.1 3128",
      "xattr -rd com.apple.quarantine Tool.app",
      "xattr -cr Tool.app",
      'osascript -e \'display dialog "Admin password" default answer ""\'',
    ]
  ) assertEquals(verdict(line), "dangerous", line);
  assertEquals(verdict("twine check dist/*"), "moderate");
  // A dry run only shows what would happen; after `--` it is not an option.
  assertEquals(verdict("npm publish --dry-run"), "moderate");
  assertEquals(verdict("git push -n -f origin main"), "moderate");
  assertEquals(verdict("npm publish -- --dry-run"), "dangerous");
  assertEquals(verdict("open -a Terminal ."), "moderate");
  assertEquals(verdict("fuser 8080/tcp"), "safe");
  assertEquals(verdict("open docs/index.html"), "moderate");
  assertEquals(verdict("networksetup -getdnsservers Wi-Fi"), "safe");
  assertEquals(verdict("osascript -e 'display dialog \"Done\"'"), "moderate");
});
