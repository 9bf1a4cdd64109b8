/**
 * Editing one member of a JSONC text in place, the way a person would: only
 * the characters of that member change. A comment stays on the line of the
 * key it was written beside; a new member takes the indentation of its
 * neighbours (tabs or spaces, whatever width the file uses) and the file's
 * line endings; removing the last member of an object removes the object too
 * (docs/adr/0222-config-edits-keep-the-file-as-written.md).
 *
 * jsonc-parser's own `modify` reformats the lines around an edit and puts a
 * new member between the previous one and its trailing comment, so the edits
 * are made here from its syntax tree and scanner instead.
 */
import { applyEdits, createScanner, type Edit, type Node } from "jsonc-parser";
import { configTree, propertyNode, TOKEN } from "./load.ts";

interface Layout {
  /** One level of indentation as the file writes it. */
  unit: string;
  eol: string;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** The whitespace that begins the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only whitespace stands between the start of its line and `offset`. */
function startsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/** What follows a member up to the end of its line. */
interface Tail {
  /** Offset of the comma after the member, if one follows on its line. */
  comma?: number;
  /** Whether the rest of the line is only a comma, spaces and comments. */
  restOfLineIsTrivia: boolean;
  /** Offset of the line break ending the line (or the end of the text). */
  lineEnd: number;
  /** Offset just past that line break. */
  nextLine: number;
}

function tailAfter(text: string, offset: number): Tail {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let comma: number | undefined;
  for (;;) {
    const token: number = scanner.scan();
    const at = scanner.getTokenOffset();
    if (token === TOKEN.trivia || token === TOKEN.lineComment) continue;
    if (token === TOKEN.blockComment) {
      if (text.slice(at, at + scanner.getTokenLength()).includes("\n")) {
        return { comma, restOfLineIsTrivia: false, lineEnd: at, nextLine: at };
      }
      continue;
    }
    if (token === TOKEN.comma && comma === undefined) {
      comma = at;
      continue;
    }
    if (token === TOKEN.lineBreak) {
      return {
        comma,
        restOfLineIsTrivia: true,
        lineEnd: at,
        nextLine: at + scanner.getTokenLength(),
      };
    }
    if (token === TOKEN.eof) {
      return { comma, restOfLineIsTrivia: true, lineEnd: at, nextLine: at };
    }
    return { comma, restOfLineIsTrivia: false, lineEnd: at, nextLine: at };
  }
}

/** The file's indentation step: how far its first own-line member sits inside its object. */
function layoutOf(text: string, tree: Node | undefined): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const search = (node: Node): string | undefined => {
    if (node.type !== "object" && node.type !== "array") return undefined;
    for (const child of node.children ?? []) {
      if (startsLine(text, child.offset)) {
        const outer = indentAt(text, node.offset);
        const inner = indentAt(text, child.offset);
        if (inner.length > outer.length && inner.startsWith(outer)) {
          return inner.slice(outer.length);
        }
      }
      const value = child.type === "property" ? child.children?.[1] : child;
      const found = value ? search(value) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return { unit: (tree && search(tree)) || "  ", eol };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A value as JSON text. Lists of plain values stay on one line; objects are
 * one member per line at `indent` (the indentation of the line they start
 * on), or on one line when `inline`.
 */
function render(value: unknown, indent: string, layout: Layout, inline: boolean): string {
  if (Array.isArray(value)) {
    if (value.every((item) => !isPlainObject(item) && !Array.isArray(item))) {
      return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    }
    if (inline) return JSON.stringify(value);
    const inner = indent + layout.unit;
    const items = value.map((item) => inner + render(item, inner, layout, false));
    return `[${layout.eol}${items.join("," + layout.eol)}${layout.eol}${indent}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    if (inline) {
      return `{ ${
        entries.map(([k, v]) => `${JSON.stringify(k)}: ${render(v, indent, layout, true)}`).join(
          ", ",
        )
      } }`;
    }
    const inner = indent + layout.unit;
    const members = entries.map(([k, v]) =>
      `${inner}${JSON.stringify(k)}: ${render(v, inner, layout, false)}`
    );
    return `{${layout.eol}${members.join("," + layout.eol)}${layout.eol}${indent}}`;
  }
  return JSON.stringify(value);
}

/** `{ a: { b: value } }` for the rest of a path. */
function nest(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** The edits that add `"key": value` to an object node. */
function insertMember(
  text: string,
  object: Node,
  key: string,
  value: unknown,
  layout: Layout,
): Edit[] {
  const members = object.children ?? [];
  const memberText = (indent: string, inline: boolean) =>
    `${JSON.stringify(key)}: ${render(value, indent, layout, inline)}`;
  const open = object.offset;
  const close = object.offset + object.length - 1;
  if (members.length === 0) {
    const base = indentAt(text, open);
    const inner = base + layout.unit;
    const inside = text.slice(open + 1, close);
    if (inside.includes("\n")) {
      // An empty object over several lines (perhaps holding comments): add a line before its "}".
      if (startsLine(text, close)) {
        const at = lineStart(text, close);
        return [{
          offset: at,
          length: 0,
          content: `${inner}${memberText(inner, false)}${layout.eol}`,
        }];
      }
      return [{
        offset: close,
        length: 0,
        content: `${layout.eol}${inner}${memberText(inner, false)}${layout.eol}${base}`,
      }];
    }
    return [{
      offset: open,
      length: close + 1 - open,
      content: `{${layout.eol}${inner}${memberText(inner, false)}${layout.eol}${base}}`,
    }];
  }
  const last = members[members.length - 1];
  const end = last.offset + last.length;
  const tail = tailAfter(text, end);
  if (startsLine(text, last.offset) && tail.restOfLineIsTrivia) {
    // After the line of the last member, its trailing comment and all, at its indentation.
    const indent = indentAt(text, last.offset);
    const line = `${layout.eol}${indent}${memberText(indent, false)}`;
    if (tail.comma !== undefined) {
      // The file ends its members with a comma: so does the new one.
      return [{ offset: tail.lineEnd, length: 0, content: `${line},` }];
    }
    return [
      { offset: end, length: 0, content: "," },
      { offset: tail.lineEnd, length: 0, content: line },
    ];
  }
  if (startsLine(text, last.offset)) {
    // The object's "}" follows the last member on its line: the new member goes between.
    const indent = indentAt(text, last.offset);
    const after = tail.comma !== undefined ? tail.comma + 1 : end;
    return [{
      offset: after,
      length: 0,
      content: `${tail.comma !== undefined ? "" : ","}${layout.eol}${indent}${
        memberText(indent, false)
      }`,
    }];
  }
  // Members written on one line: one more on the same line.
  const inline = memberText(indentAt(text, last.offset), true);
  if (tail.comma !== undefined) {
    return [{ offset: tail.comma + 1, length: 0, content: ` ${inline},` }];
  }
  return [{ offset: end, length: 0, content: `, ${inline}` }];
}

/** Comment-only lines directly above a line: they describe the member on it. */
function leadingComments(text: string, start: number): number {
  let at = start;
  while (at > 0) {
    const previous = lineStart(text, at - 1);
    const line = text.slice(previous, at).trim();
    const comment = line.startsWith("//") ||
      (line.startsWith("/*") && line.endsWith("*/") && !line.slice(2, -2).includes("*/"));
    if (!comment) break;
    at = previous;
  }
  return at;
}

/** The edits that remove one member of an object, with its own comments and line. */
function removeMember(text: string, object: Node, member: Node): Edit[] {
  const members = object.children ?? [];
  const index = members.indexOf(member);
  const previous = index > 0 ? members[index - 1] : undefined;
  const end = member.offset + member.length;
  const tail = tailAfter(text, end);
  const edits: Edit[] = [];
  const isLast = index === members.length - 1;
  if (startsLine(text, member.offset) && tail.restOfLineIsTrivia) {
    const from = leadingComments(text, lineStart(text, member.offset));
    edits.push({ offset: from, length: tail.nextLine - from, content: "" });
    if (isLast && tail.comma === undefined && previous) {
      // The previous member becomes the last: drop its comma, as the file had none there.
      const previousTail = tailAfter(text, previous.offset + previous.length);
      if (previousTail.comma !== undefined && previousTail.comma < from) {
        edits.push({ offset: previousTail.comma, length: 1, content: "" });
      }
    }
    return edits;
  }
  if (tail.comma !== undefined && !isLast) {
    // "a": 1, "b": 2 → "b": 2
    let to = tail.comma + 1;
    while (text[to] === " " || text[to] === "\t") to++;
    return [{ offset: member.offset, length: to - member.offset, content: "" }];
  }
  if (previous) {
    const previousTail = tailAfter(text, previous.offset + previous.length);
    const from = previousTail.comma ?? previous.offset + previous.length;
    return [{ offset: from, length: end - from, content: "" }];
  }
  // The only member, on the object's own line: what is left is "{}".
  const inside = { offset: object.offset + 1, length: object.length - 2, content: "" };
  const rest = text.slice(inside.offset, member.offset) +
    text.slice(tail.comma !== undefined ? tail.comma + 1 : end, inside.offset + inside.length);
  if (rest.trim() === "") return [inside];
  return [{
    offset: member.offset,
    length: (tail.comma ?? end - 1) + 1 - member.offset,
    content: "",
  }];
}

/** The text with `path` set to `value`, every other character kept. */
export function setInText(text: string, path: string[], value: unknown): string {
  const tree = configTree(text);
  const layout = layoutOf(text, tree);
  if (!tree || tree.type !== "object") {
    return `${render(nest(path, value), "", layout, false)}${layout.eol}`;
  }
  let node: Node = tree;
  for (let i = 0; i < path.length; i++) {
    if (node.type !== "object") {
      // A value where an object should be (a malformed file): the object replaces it.
      const indent = indentAt(text, node.offset);
      const content = render(nest(path.slice(i), value), indent, layout, false);
      return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
    }
    const property = propertyNode(node, path[i]);
    if (!property?.children?.[1]) {
      return applyEdits(
        text,
        insertMember(text, node, path[i], nest(path.slice(i + 1), value), layout),
      );
    }
    node = property.children[1];
  }
  const indent = indentAt(text, node.offset);
  const inline = !startsLine(text, node.parent?.offset ?? node.offset) && node.type !== "object";
  const content = render(value, indent, layout, inline);
  return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
}

/**
 * The text without `path`. An object left empty by the removal is removed
 * too, up to (not including) the file's own top-level object.
 */
export function removeFromText(text: string, path: string[]): string {
  const tree = configTree(text);
  if (!tree || tree.type !== "object" || path.length === 0) return text;
  let object: Node = tree;
  for (let i = 0; i < path.length - 1; i++) {
    const value = propertyNode(object, path[i])?.children?.[1];
    if (!value || value.type !== "object") return text;
    object = value;
  }
  const member = propertyNode(object, path[path.length - 1]);
  if (!member) return text;
  const remaining = (object.children ?? []).filter((m) =>
    m.children?.[0]?.value !== path[path.length - 1]
  );
  if (remaining.length === 0 && object !== tree) return removeFromText(text, path.slice(0, -1));
  const edited = applyEdits(text, removeMember(text, object, member));
  // A key written twice: every copy goes, or the earlier one would take effect.
  return hasPath(edited, path) ? removeFromText(edited, path) : edited;
}

function hasPath(text: string, path: string[]): boolean {
  let node = configTree(text);
  for (const key of path) {
    if (!node) return false;
    node = propertyNode(node, key)?.children?.[1];
  }
  return node !== undefined;
}
