/**
 * Numbers with units on the command line: a duration (`--turn-timeout 120s`, `--timeout 2m`)
 * or a size (`--max-body 8MiB`, `--check-memory 1GiB`). A bare number keeps the unit the
 * option's help names (milliseconds for `--turn-timeout`, seconds for `--timeout`, bytes for
 * `--max-body`, MiB for `--check-memory`), so every value that worked before means what it
 * meant.
 *
 * Units, case-insensitive, written right after the number or after one space:
 * - durations: `ms`, `s`, `m` (minutes), `h`;
 * - sizes: `b`; `kb`, `mb`, `gb` (powers of 1,000, as SI writes them); `kib`, `mib`, `gib`
 *   (powers of 1,024).
 */
import { CliError, echo, integerOption, secondsOption } from "./common.js";

const DURATION_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const SIZE_BYTES: Readonly<Record<string, number>> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30 };

/** A decimal number (no sign, no exponent) and a unit of letters: `120s`, `1.5 h`, `64MiB`. */
const WITH_UNIT = /^(\d+(?:\.\d*)?|\.\d+) ?([a-z]+)$/i;

/**
 * A value meant to carry a unit but not written as one: a number, then letters at the end
 * (`-5s`, `1e400s`, `1,000ms`, `120µs`, ` 120s`). It is refused with the message that names
 * the units, not the bare number's ("must be a positive integer" would hide that units are
 * taken at all).
 */
const UNIT_LIKE = /\d\s*\p{L}+\s*$/u;

/** The number and unit of a value written with a unit, or undefined for anything else (a bare number included). */
function split(raw: string, units: Readonly<Record<string, number>>, command: string, label: string, what: string): number | undefined {
  const m = WITH_UNIT.exec(raw);
  if (m === null) {
    if (UNIT_LIKE.test(raw)) throw new CliError(`${command}: ${label} must be ${what}, got ${echo(raw)}`, 2);
    return undefined;
  }
  const factor = units[m[2]!.toLowerCase()];
  if (factor === undefined) throw new CliError(`${command}: ${label} must be ${what}, got ${echo(raw)}: unknown unit ${echo(m[2]!)} (${Object.keys(units).join(", ")})`, 2);
  return Number(m[1]) * factor;
}

/** `120000` as `2 min`, `1500` as `1.5 s`, `200` as `200 ms`: a bound in a message. */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 360_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 6_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1_000 && ms % 100 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}

/**
 * A duration option: a bare number in `bareUnit` (checked as before: whole milliseconds, or
 * seconds as {@link secondsOption} reads them), or a number with a duration unit. Returns
 * whole milliseconds within [minMs, maxMs]. Message (exit 2):
 * `serve: --turn-timeout must be a duration from 1 ms to 24 h (120s, 2m, 500ms), got "0s"`.
 *
 * @param label the option as the message names it (`--turn-timeout`, or `GROUNDWIRE_TIMEOUT`)
 * @param raw the value as given, or undefined (then `fallbackMs`)
 * @throws CliError (exit 2)
 */
export function durationOption(
  command: string,
  label: string,
  raw: string | undefined,
  bounds: { fallbackMs: number; bareUnit: "ms" | "s"; minMs?: number; maxMs: number },
): number {
  if (raw === undefined) return bounds.fallbackMs;
  const minMs = bounds.minMs ?? 1;
  const what = `a duration from ${formatDuration(minMs)} to ${formatDuration(bounds.maxMs)} (120s, 2m, 500ms)`;
  const ms = split(raw, DURATION_MS, command, label, what);
  if (ms === undefined) {
    if (bounds.bareUnit === "s") return secondsOption(command, label, raw, { fallbackMs: bounds.fallbackMs, max: bounds.maxMs / 1000 });
    return integerOption(command, label.replace(/^--/, ""), raw, { fallback: bounds.fallbackMs, min: minMs, max: bounds.maxMs });
  }
  const whole = Math.round(ms);
  if (!(whole >= minMs && whole <= bounds.maxMs)) throw new CliError(`${command}: ${label} must be ${what}, got ${echo(raw)}`, 2);
  return whole;
}

/**
 * A size option: a bare whole number of `unitBytes` (checked as {@link integerOption} does),
 * or a number with a size unit, converted to whole `unitBytes` (rounded up, so `1kb` of a
 * bytes option is 1000 and `100kB` of an MB option is 1). Returns a count of `unitBytes`
 * within [min, max]. Message (exit 2): `serve: --max-body must be a size from 1 B to 1 GiB
 * (8MiB, 500kB, 1GiB), got "2GiB"`.
 *
 * @param name the option's name without dashes (`max-body`)
 * @throws CliError (exit 2)
 */
export function sizeOption(command: string, name: string, raw: string | undefined, bounds: { fallback: number; unitBytes: number; min?: number; max: number }): number {
  if (raw === undefined) return bounds.fallback;
  const min = bounds.min ?? 1;
  const what = `a size from ${formatSize(min * bounds.unitBytes)} to ${formatSize(bounds.max * bounds.unitBytes)} (8MiB, 500kB, 1GiB)`;
  const bytes = split(raw, SIZE_BYTES, command, `--${name}`, what);
  if (bytes === undefined) return integerOption(command, name, raw, { fallback: bounds.fallback, min, max: bounds.max });
  const count = Math.ceil(bytes / bounds.unitBytes);
  if (!(count >= min && count <= bounds.max)) throw new CliError(`${command}: --${name} must be ${what}, got ${echo(raw)}`, 2);
  return count;
}

/** `1073741824` as `1 GiB`, `1000000` as `1 MB`, else bytes with separators: a bound in a message. */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10], ["GB", 1e9], ["MB", 1e6], ["kB", 1e3]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor} ${unit}`;
  }
  return `${bytes.toLocaleString("en-US")} B`;
}
