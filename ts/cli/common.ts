/** Shared pieces of the CLI: the command shape and the error that becomes one stderr line. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { levenshtein } from "../deps/levenshtein.js";
import { GroundwireError } from "../errors.js";

/** A subcommand: gets its arguments (after the command name), returns the exit code. */
export interface Command {
  run(args: string[]): Promise<number>;
}

/** An error to print as one line `groundwire: <message>` with `exitCode` (2 = usage, 1 = failure). */
export class CliError extends GroundwireError {
  constructor(message: string, readonly exitCode = 1) {
    super(message, { code: "bad_request", status: 400 });
    this.name = "CliError";
  }
}

/** Thrown after `--help` printed the usage: the command ends there with exit 0 and no stderr line. */
export class HelpShown extends CliError {
  constructor() {
    super("", 0);
    this.name = "HelpShown";
  }
}

const COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  quiet: { type: "boolean", short: "q" },
} as const;

/**
 * `--limit -1` reads to node:util as `--limit` followed by an option `-1` ("argument is
 * ambiguous"): a value that starts with `-` and a digit or `.` after an option that takes a
 * value is joined to it (`--limit=-1`), so the command's own check names the value. Stops
 * at `--`.
 */
function joinNegativeNumbers(args: string[], options: NonNullable<ParseArgsConfig["options"]>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = a.startsWith("--") ? a.slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && Object.hasOwn(options, name) && options[name]!.type === "string" && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * The first option (as written: `--min-ration`, `-x`) that `options` does not declare, read
 * from node:util's own tokens (non-strict, so a value that looks like an option is read as
 * the parser reads it); undefined when every option is known.
 */
function unknownOption(args: string[], options: NonNullable<ParseArgsConfig["options"]>): string | undefined {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(options, token.name)) return token.rawName;
  }
  return undefined;
}

/**
 * A short option written with `=` (`-q=1`, `-o=out.ttl`), named as written, or undefined.
 * node:util reads `-q=1` as the flags -q, -= and -1 (so "unknown option -=") and `-o=out.ttl`
 * as -o with the value "=out.ttl" (a file named so); neither is what was meant. Arguments after
 * `--` are positionals and are not read; nor is an argument node:util takes as the value of the
 * option before it (`--topic -x=y`): that is a value-taking option followed by a dash-word,
 * which {@link badOptionValue} names with the option it follows (`--topic needs a value, got the
 * option "-x=y" after it …`), as it does `--topic -x`.
 */
function shortWithEquals(args: string[], options: NonNullable<ParseArgsConfig["options"]>): string | undefined {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  // the indices of arguments read as a separate value (`--topic VALUE`, `-o VALUE`)
  const values = new Set(tokens.filter((t) => t.kind === "option" && t.value !== undefined && !t.inlineValue).map((t) => t.index + 1));
  for (const [i, arg] of args.entries()) {
    if (values.has(i)) continue;
    if (arg === "--") return undefined;
    if (arg.length < 3 || arg[0] !== "-" || arg[1] === "-" || arg[2] !== "=") continue;
    const letter = arg[1]!;
    const name = Object.keys(options).find((n) => options[n]!.short === letter);
    if (name === undefined) return `unknown option ${echo(`-${letter}`)} in ${echo(arg)}`;
    const value = arg.slice(3);
    if (options[name]!.type === "boolean") return `-${letter} takes no value, got ${echo(value)} in ${echo(arg)} (write -${letter} alone)`;
    return `-${letter} takes its value after a space: -${letter} ${value} or --${name}=${value}, not ${echo(arg)}`;
  }
  return undefined;
}

/**
 * The declared options nearest to an unknown one, as they are written (`--min-ratio`):
 * every option within an edit distance of max(2, a third of its length) of the name, nearest
 * first, at most three. Case is ignored (`--JSON` is nearest to `--json`: options are lower
 * case, a shift key is not a typo of every letter). A short flag (`-x`) gets none: every
 * one-letter flag is one edit away.
 */
function closestOptions(written: string, options: NonNullable<ParseArgsConfig["options"]>): string[] {
  if (!written.startsWith("--")) return [];
  return closestNames(written.slice(2).split("=")[0]!, Object.keys(options)).map((name) => `--${name}`);
}

/**
 * The names among `spelled` nearest to `typed`, case aside: within an edit distance of
 * max(2, a third of its length), nearest first, then the names it begins when it has three
 * letters or more (`--min` for `--min-ratio`, `loc` for `locate`), in order; at most three
 * (the did-you-mean of an unknown option or command).
 */
export function closestNames(typed: string, spelled: readonly string[]): string[] {
  const name = typed.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  const near = spelled
    .map((candidate) => ({ candidate, d: levenshtein()(name, candidate.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .map((x) => x.candidate);
  const begun = name.length >= 3 ? spelled.filter((candidate) => candidate.toLowerCase().startsWith(name)).sort((a, b) => a.localeCompare(b)) : [];
  return [...new Set([...near, ...begun])].slice(0, 3);
}

/**
 * What is wrong with a known option's value, in the command's words, or undefined: a flag
 * given a value (`--json=1`), an option that takes a value given none (`--limit` last), or
 * given the next option instead (`--limit --json`: node:util calls that "ambiguous"). Read
 * from node:util's own tokens (non-strict), so every case strict parsing refuses for a known
 * option is named here first and node:util's wording (`Option '--limit <value>' argument
 * missing`, `use '--limit=-XYZ'`) never reaches the user.
 */
function badOptionValue(args: string[], options: NonNullable<ParseArgsConfig["options"]>): string | undefined {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option" || !Object.hasOwn(options, token.name)) continue;
    const written = token.rawName;
    if (options[token.name]!.type === "boolean") {
      if (token.value !== undefined) return `${written} takes no value, got ${echo(token.value)} (write ${written} alone)`;
      continue;
    }
    if (token.value === undefined) return `${written} needs a value`;
    // node:util refuses a separate value that looks like an option (`-x`, `--json`); `-` alone is a value (standard input)
    if (!token.inlineValue && token.value.length > 1 && token.value.startsWith("-")) {
      const value = echo(token.value);
      return `${written} needs a value, got the option ${value} after it (if ${value} is the value, write --${token.name}=${token.value.length <= 80 ? token.value : "…"})`;
    }
  }
  return undefined;
}

/** The options whose value is a file or folder path: an empty (or all-blank) value is a usage error. */
const PATH_OPTIONS = new Set(["corpus", "schema", "scope", "graph", "output", "json", "kg", "script", "data", "token-file", "api-key-file"]);

/** The options whose value is an identifier (an artifact id: the key a document's citations are scoped to). */
const ID_OPTIONS = new Set(["artifact"]);

/**
 * node:util parseArgs, strict, for one command. Every command gets `--help`/`-h`: it prints
 * `usage` on stdout and ends the command (HelpShown, exit 0), so no command handles it
 * itself; and `--quiet`/`-q` (no progress lines on stderr). Parse errors become one-line
 * CliErrors (exit 2) that name the command. A path option ({@link PATH_OPTIONS}: --corpus,
 * -o, --scope …) given an empty or blank value is refused (`locate: --corpus needs a path,
 * got ""`, exit 2) rather than taken as its default; an identifier option (--artifact) given an
 * empty value or one with surrounding white space is refused too (`fragments: --artifact needs an
 * id without surrounding white space, got " a"`, exit 2): " a" and "a" would scope two sets of citations.
 * Returns values (with `quiet`) and positionals.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
  usage: string,
) {
  const all = { ...options, ...COMMON_OPTIONS } as T & typeof COMMON_OPTIONS;
  const joined = joinNegativeNumbers(args, all);
  const equals = shortWithEquals(joined, all);
  if (equals !== undefined) throw new CliError(`${command}: ${equals} (groundwire help ${command} lists its options)`, 2);
  const unknown = unknownOption(joined, all);
  if (unknown !== undefined) {
    const close = closestOptions(unknown, all);
    const hint = close.length ? `; did you mean ${close.join(" or ")}?` : "";
    throw new CliError(`${command}: unknown option ${echo(unknown)}${hint} (groundwire help ${command} lists its options)`, 2);
  }
  const bad = badOptionValue(joined, all);
  if (bad !== undefined) throw new CliError(`${command}: ${bad} (groundwire help ${command} lists its options)`, 2);
  let parsed;
  try {
    parsed = parseArgs({ args: joined, options: all, allowPositionals: true, strict: true });
  } catch (error) {
    // Not reached for any case known today (unknownOption and badOptionValue name them all
    // first); should a later Node refuse something new, its message is kept on one line.
    const message = (error as Error).message.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
    throw new CliError(`${command}: ${message} (groundwire help ${command} lists its options)`, 2);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    console.log(usage);
    throw new HelpShown();
  }
  for (const [name, value] of Object.entries(parsed.values as Record<string, unknown>)) {
    if (!PATH_OPTIONS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      // an empty path would silently mean "the default" (the bundled corpus, the current folder)
      if (typeof v === "string" && v.trim() === "") throw new CliError(`${command}: --${name} needs a path, got ${echo(v)}`, 2);
    }
  }
  for (const [name, value] of Object.entries(parsed.values as Record<string, unknown>)) {
    if (!ID_OPTIONS.has(name) || typeof value !== "string") continue;
    if (value === "" || value.trim() !== value) throw new CliError(`${command}: --${name} needs an id without surrounding white space, got ${echo(value)}`, 2);
  }
  return parsed;
}

// C0 controls but LF and TAB, DEL, and C1 controls: what a terminal may act on; the bidi
// controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), which reorder what follows on the line
// ("Trojan Source"); and a lone surrogate, which has no UTF-8 form (it would be written as
// U+FFFD, hiding what the text held).
const TERMINAL_UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// For text echoed in a message, also every other format character (Unicode category Cf:
// zero-width space and joiners, soft hyphen, word joiner, BOM, tag characters …), which
// show as nothing and make `novel/frank\u200Benstein` look like a key the corpus holds,
// and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const MESSAGE_UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\p{Cf}\u2028\u2029\p{Cs}]/gu;

/** The visible escape of one unsafe character: `\x1B` below U+0100, `\u202E`, `\uD800` (a lone surrogate), `\u{E0041}`. */
function visibleEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  const hex = cp.toString(16).toUpperCase();
  if (cp < 0x100) return `\\x${hex.padStart(2, "0")}`;
  return cp > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/**
 * Text safe to print on a terminal: every C0 control except LF and TAB, DEL and every C1
 * control becomes a visible escape (`\x1B`, `\x9B`), so text from a model or a file cannot
 * clear the screen, recolour it, or write the clipboard (OSC 52); so does every bidi
 * control (`\u202E`: it would reverse the rest of the line on screen) and every lone
 * surrogate (`\uD800`). Other format characters (ZWJ in emoji, soft hyphens) are kept:
 * this is for a document's or a model's text shown as it reads; a message that echoes
 * input uses {@link escapeMessage}. JSON output is not passed through this: it keeps the
 * exact text.
 */
export function escapeTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, visibleEscape);
}

/**
 * Print one line of text for a human on standard output, through {@link escapeTerminal}:
 * every listing, span, title, passage or report line a command prints from a file, the
 * network, a model or argv goes through here (JSON output does not: it is printed as is).
 */
export function printLine(line: string): void {
  process.stdout.write(`${escapeTerminal(line)}\n`);
}

/** Text for a human (several lines, its own line ends) on standard output, through {@link escapeTerminal}. */
export function printText(text: string): void {
  process.stdout.write(escapeTerminal(text));
}

/**
 * Text safe to echo in a message (the error line, a warning): what {@link escapeTerminal}
 * escapes, and also every format character (Unicode category Cf: zero-width space,
 * ZWNJ/ZWJ, word joiner, soft hyphen, BOM, tag characters …) and U+2028/U+2029, so input
 * that only looks like something else (`"novel/frank\u200Benstein"`) is shown as it is.
 * LF and TAB are kept.
 */
export function escapeMessage(text: string): string {
  return text.replace(MESSAGE_UNSAFE, visibleEscape);
}

/** Longest input echoed in a message, in code points. */
export const ECHO_LIMIT = 80;

/**
 * Input quoted in a message: JSON-quoted, cut to {@link ECHO_LIMIT} code points with an
 * ellipsis and the input's own full length (`"aaa…"… (10000 characters)`: the count is of
 * the input, not of the message it is in), so a 50 MB line never becomes a 50 MB message;
 * format characters, bidi controls and lone surrogates are escaped ({@link escapeMessage}).
 */
export function echo(text: string, limit = ECHO_LIMIT): string {
  const points = Array.from(text.length > limit * 2 + 2 ? text.slice(0, limit * 2 + 2) : text);
  if (points.length <= limit) return escapeMessage(JSON.stringify(text));
  return `${escapeMessage(JSON.stringify(points.slice(0, limit).join("")))}… (${text.length} characters)`;
}

/**
 * A whole-number option, checked: digits only (no sign, fraction, exponent or hex: `1e3`,
 * `0x10`, `-1`, `2.5`, `` and surrounding blanks (`" 3"`) are refused), from `min` to `max`. Messages (exit 2):
 * `<command>: --<name> must be a positive integer, got "-1"` (`a non-negative integer` when
 * `min` is 0, `an integer of at least N` above 1) and `… must be at most 1000, got "5000"` (the value quoted as typed, as in every message).
 *
 * @param raw the value as typed, or undefined (then `fallback`)
 * @throws CliError (exit 2)
 */
export function integerOption(command: string, name: string, raw: string | undefined, bounds: { fallback: number; min?: number; max: number }): number {
  if (raw === undefined) return bounds.fallback;
  const min = bounds.min ?? 1;
  const digits = raw;
  if (!/^\d+$/.test(digits) || Number(digits) < min) {
    const what = min === 1 ? "a positive integer" : min === 0 ? "a non-negative integer" : `an integer of at least ${min}`;
    throw new CliError(`${command}: --${name} must be ${what}, got ${echo(raw)}`, 2);
  }
  if (Number(digits) > bounds.max) throw new CliError(`${command}: --${name} must be at most ${bounds.max}, got ${echo(raw)}`, 2);
  return Number(digits);
}

/**
 * A duration option in seconds, checked as `numberOption` reads numbers (decimal syntax only: `5`,
 * `0.5`, `.5`, `5.`, `1e1`; no sign, hex, `Infinity`, surrounding blanks or empty value), above 0
 * and at most `max` seconds. Returns milliseconds, rounded, at least 1. Message (exit 2):
 * `<command>: --timeout must be a number of seconds above 0 and at most 3600, got "0"`.
 *
 * @param label how the value was given, as the message names it (`--timeout`, or an environment
 *   variable such as `GROUNDWIRE_TIMEOUT`)
 * @param raw the value as given, or undefined (then `fallbackMs`)
 * @throws CliError (exit 2)
 */
export function secondsOption(command: string, label: string, raw: string | undefined, bounds: { fallbackMs: number; max: number }): number {
  if (raw === undefined) return bounds.fallbackMs;
  const s = Number(raw);
  if (!DECIMAL.test(raw) || !(s > 0 && s <= bounds.max)) {
    throw new CliError(`${command}: ${label} must be a number of seconds above 0 and at most ${bounds.max}, got ${echo(raw)}`, 2);
  }
  return Math.max(1, Math.round(s * 1000));
}

/** Decimal number syntax the numeric options accept: digits with an optional fraction and exponent. */
const DECIMAL = /^(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A decimal-number option, checked: decimal syntax only (`0.8`, `.8`, `8e-1`; not hex,
 * `Infinity`, `NaN`, a sign, surrounding blanks or an empty value) within `[min, max]` (`(min, max]` when
 * `minExclusive`). Message (exit 2): `<command>: --<name> must be a number in (0, 1], got "2"`.
 *
 * @param raw the value as typed, or undefined (then `fallback`)
 * @throws CliError (exit 2)
 */
export function numberOption(command: string, name: string, raw: string | undefined, bounds: { fallback: number; min: number; max: number; minExclusive?: boolean }): number {
  if (raw === undefined) return bounds.fallback;
  const n = Number(raw);
  const inRange = bounds.minExclusive ? n > bounds.min && n <= bounds.max : n >= bounds.min && n <= bounds.max;
  if (!DECIMAL.test(raw) || !inRange) {
    throw new CliError(`${command}: --${name} must be a number in ${bounds.minExclusive ? "(" : "["}${bounds.min}, ${bounds.max}], got ${echo(raw)}`, 2);
  }
  return n;
}
