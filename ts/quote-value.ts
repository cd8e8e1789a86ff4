/**
 * A value echoed in an error message, bounded. A plan, a critique or a request body can carry a
 * field of 50,000 characters; an error that quotes it whole becomes a 50,000-character message
 * (in a log line, a JSON-RPC error, a model's next prompt). Browser-safe, no imports.
 */

/** Longest text quoted in a message, in UTF-16 code units (before JSON escaping). */
export const QUOTE_LIMIT = 80;

/**
 * `text` cut to at most `limit` UTF-16 code units (its first ones), never between the two halves
 * of a surrogate pair: `limit - 1` units when unit `limit - 1` is a high surrogate.
 */
export function head(text: string, limit: number): string {
  const end = limit > 0 && /[\uD800-\uDBFF]/.test(text[limit - 1]!) ? limit - 1 : limit;
  return text.slice(0, end);
}

/**
 * `value` as a message quotes it: its JSON text (`"ex:a"`, `42`, `["?x",1]`), as `JSON.stringify`
 * writes it while it is short. A string longer than `limit` UTF-16 code units is cut to its first
 * `limit`, quoted, then an ellipsis and its full length: `"aaa…aaa"… (50000 characters)`. Any
 * other value whose JSON text is longer than `limit` is cut the same way, its length counted in
 * characters of JSON: `{"op":"triple","s":"aaa…… (50031 characters of JSON)`. A value JSON cannot
 * write (undefined, a function, a BigInt) is written as `String(value)` gives it.
 *
 * Cost: O(limit) for a string; for another value, one `JSON.stringify` of it.
 *
 * @param value any value taken from input (a field, a row, a whole op)
 * @param limit the most UTF-16 code units quoted, default {@link QUOTE_LIMIT}; the message grows
 *   by the quotes, JSON escapes (at most 6 units per unit quoted) and the length note
 */
export function quoteValue(value: unknown, limit = QUOTE_LIMIT): string {
  if (typeof value === "string") {
    return value.length <= limit ? JSON.stringify(value) : `${JSON.stringify(head(value, limit))}… (${value.length} characters)`;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return String(value);
  return json.length <= limit ? json : `${head(json, limit)}… (${json.length} characters of JSON)`;
}
