/**
 * Where `~name` leads: the home folder the system's user database gives that
 * user. `~root` is `/root` on Linux, not a sibling of the caller's home.
 *
 * The database read is /etc/passwd, once per process. Where it does not list
 * the user (macOS keeps ordinary accounts in Directory Services; a name no
 * account has), the home is taken as a sibling of the caller's own, which is
 * where both systems put ordinary accounts (`/home/NAME`, `/Users/NAME`).
 */
import { join } from "../util/path.ts";

let passwdHomes: Map<string, string> | undefined;

/** Home folders by user name, from passwd-format text (name:pw:uid:gid:gecos:home:shell). */
export function parsePasswdHomes(text: string): Map<string, string> {
  const homes = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const fields = line.split(":");
    if (fields.length >= 7 && fields[0] && fields[5].startsWith("/")) {
      if (!homes.has(fields[0])) homes.set(fields[0], fields[5]);
    }
  }
  return homes;
}

function systemHomes(): Map<string, string> {
  if (passwdHomes) return passwdHomes;
  try {
    passwdHomes = parsePasswdHomes(Deno.readTextFileSync("/etc/passwd"));
  } catch {
    passwdHomes = new Map();
  }
  return passwdHomes;
}

/** The folder `~name` expands to, for a caller whose own home is `userHome`. */
export function homeOfUser(name: string, userHome: string): string {
  return systemHomes().get(name) ?? join(userHome, "..", name);
}
