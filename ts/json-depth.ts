/**
 * Bounded JSON nesting. `JSON.parse` in V8 copes with any depth, but every
 * recursive walk after it (zod's validation, the plan compiler, JSON.stringify)
 * overflows the stack somewhere past ~10,000 levels and dies with a RangeError
 * that names nothing. Inputs are refused above {@link MAX_JSON_DEPTH} first,
 * with the line where the limit is crossed. Browser-safe, iterative.
 */

/** Deepest nesting of arrays and objects accepted in a critique, a plan, a goal or a request body. */
export const MAX_JSON_DEPTH = 1000;

/**
 * The line (1-based) at which JSON text opens its `max + 1`-th nested array or
 * object, or null when it never nests deeper than `max`. Brackets inside
 * strings do not count; syntax errors are left to `JSON.parse`.
 *
 * @param text JSON text (RFC 8259), any size; one pass, O(length)
 * @param max deepest nesting allowed (default {@link MAX_JSON_DEPTH})
 */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): number | null {
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return line;
    } else if (c === 93 || c === 125) depth--;
  }
  return null;
}

/**
 * Whether a value (as JSON.parse or a caller built it) nests arrays and plain
 * objects deeper than `max`. Walks with an explicit stack, so it never
 * overflows itself; a value that contains itself counts as too deep.
 *
 * @param value any value; only arrays and non-null objects are descended into
 * @param max deepest nesting allowed (default {@link MAX_JSON_DEPTH})
 */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** `1,000`: a limit as messages print it. */
export const formatLimit = (n: number) => n.toLocaleString("en-US");
