/**
 * wisp-tui's colours: the spec's palette (one green-blue in tones, amber for
 * approvals, ember for danger, the command and outside modes' colours and
 * their darker "sent" shades), as 24-bit SGR. With colour off (NO_COLOR,
 * TERM=dumb) every paint is the text itself, so layouts never depend on it.
 */

/** Each colour by name, as #RRGGBB. */
export const COLOURS = {
  /** The prompt, the git branch, tokens written, a context from half to 80% used. */
  bright: "#7FE0D6",
  /** Status facts and ok states. */
  main: "#40B0AA",
  /** Tool lines, notes, separators, a context under half used. */
  quiet: "#6E9896",
  /** Approvals, moderate, a context past 80%. */
  amber: "#E8AA40",
  /** Dangerous, errors. */
  ember: "#E66040",
  /** Lines added and removed. */
  added: "#6CC070",
  removed: "#E06666",
  /** Tokens read (↓) and written (↑) in the status line. */
  tokensRead: "#E8DC8C",
  tokensWritten: "#9CC8F0",
  /** The input box's tint, and a sent prompt's stripe (halfway to black). */
  input: "#25485E",
  inputSent: "#12242F",
  /** Command mode's box (!) and its sent stripe. */
  command: "#E8B577",
  commandSent: "#745A3C",
  /** Outside mode's box (!!) and its sent stripe. */
  outside: "#D27068",
  outsideSent: "#693834",
  /** The conversation's text. */
  text: "#FFFFFF",
  black: "#000000",
} as const;

export type ColourName = keyof typeof COLOURS;

/** How a part of wisp-tui styles text. */
export interface Paint {
  /** Whether colour is on at all. */
  readonly enabled: boolean;
  fg(colour: ColourName, text: string): string;
  bg(colour: ColourName, text: string): string;
  /** Foreground on background, in one sequence. */
  on(fg: ColourName, bg: ColourName, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  dim(text: string): string;
}

function rgb(colour: ColourName): string {
  const hex = COLOURS[colour];
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(";");
}

const RESET = "\x1b[0m";
const wrap = (codes: string, text: string) => text === "" ? "" : `\x1b[${codes}m${text}${RESET}`;

const PLAIN: Paint = {
  enabled: false,
  fg: (_c, t) => t,
  bg: (_c, t) => t,
  on: (_f, _b, t) => t,
  bold: (t) => t,
  italic: (t) => t,
  underline: (t) => t,
  dim: (t) => t,
};

const COLOURED: Paint = {
  enabled: true,
  fg: (c, t) => wrap(`38;2;${rgb(c)}`, t),
  bg: (c, t) => wrap(`48;2;${rgb(c)}`, t),
  on: (f, b, t) => wrap(`38;2;${rgb(f)};48;2;${rgb(b)}`, t),
  bold: (t) => wrap("1", t),
  italic: (t) => wrap("3", t),
  underline: (t) => wrap("4", t),
  dim: (t) => wrap("2", t),
};

/** The paint for a terminal with colour on or off. */
export function paint(enabled: boolean): Paint {
  return enabled ? COLOURED : PLAIN;
}
