/**
 * Shell-style globs for the find tool: `*` (within a name), `**` (across
 * folders), `?`, `[…]` classes and `{a,b}` alternatives. A pattern without a
 * slash matches a file's name; one with a slash matches its path from the
 * search root. Pure.
 */

function escape(char: string): string {
  return /[.+^${}()|\\/]/.test(char) ? `\\${char}` : char;
}

export function globToRegExp(glob: string): RegExp {
  let out = "";
  let inClass = false;
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (inClass) {
      if (c === "]") inClass = false;
      out += c === "\\" ? "\\\\" : c;
      continue;
    }
    switch (c) {
      case "*":
        if (glob[i + 1] === "*") {
          // "**/" matches zero or more folders; a trailing "**" anything.
          if (glob[i + 2] === "/") {
            out += "(?:.*/)?";
            i += 2;
          } else {
            out += ".*";
            i += 1;
          }
        } else out += "[^/]*";
        break;
      case "?":
        out += "[^/]";
        break;
      case "[":
        inClass = true;
        out += glob[i + 1] === "!" ? (i++, "[^") : "[";
        break;
      case "{":
        braces++;
        out += "(?:";
        break;
      case "}":
        if (braces > 0) {
          braces--;
          out += ")";
        } else out += "\\}";
        break;
      case ",":
        out += braces > 0 ? "|" : ",";
        break;
      default:
        out += escape(c);
    }
  }
  if (inClass || braces > 0) throw new Error(`the pattern ${glob} has an unclosed [ or {`);
  return new RegExp(`^${out}$`);
}

export function globMatcher(glob: string): (relativePath: string) => boolean {
  const regex = globToRegExp(glob.replace(/^\.\//, ""));
  if (!glob.includes("/")) {
    return (path) => regex.test(path.slice(path.lastIndexOf("/") + 1));
  }
  return (path) => regex.test(path);
}
