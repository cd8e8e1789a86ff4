import { checkArgs } from "../args.js";
import { ArgumentError } from "../errors.js";

/**
 * Prefix maps: the `@prefix` declarations of a Turtle document, used to write IRIs as
 * prefixed names. A prefixed name is produced only when the local part is a valid Turtle
 * PN_LOCAL written without backslash escapes (Turtle 1.1 / RDF 1.2 Turtle, productions
 * PN_PREFIX, PN_LOCAL, PLX), so that reading it back yields the same IRI; otherwise the IRI
 * is written in full as `<iri>`.
 */

// Turtle grammar character classes, as regular-expression fragments (with the `u` flag).
const PN_CHARS_BASE =
  "A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D" +
  "\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const PN_CHARS_U = `${PN_CHARS_BASE}_`;
const PN_CHARS = `${PN_CHARS_U}\\-0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
const PERCENT = "%[0-9A-Fa-f]{2}";

/** PN_LOCAL without PN_LOCAL_ESC (no backslash escapes); the empty local part is allowed (`ex:`). */
const PN_LOCAL = new RegExp(
  `^(?:(?:[${PN_CHARS_U}:0-9]|${PERCENT})(?:(?:[${PN_CHARS}.:]|${PERCENT})*(?:[${PN_CHARS}:]|${PERCENT}))?)?$`,
  "u",
);
/** PN_PREFIX, or the empty prefix. */
const PN_PREFIX = new RegExp(`^(?:[${PN_CHARS_BASE}](?:[${PN_CHARS}.]*[${PN_CHARS}])?)?$`, "u");

/** Whether `local` can follow `prefix:` unescaped in Turtle and denote exactly those characters. */
export function isPnLocal(local: string): boolean {
  checkArgs("isPnLocal", arguments, "local:string");
  return PN_LOCAL.test(local);
}

/** Whether `name` is a valid Turtle prefix name (PN_PREFIX) or the empty prefix. */
export function isPnPrefix(name: string): boolean {
  checkArgs("isPnPrefix", arguments, "name:string");
  return PN_PREFIX.test(name);
}

// Characters IRIREF forbids, the line breaks IRIREF allows but a reader splits on (U+0085,
// U+2028, U+2029: Python's splitlines, JavaScript's multiline ^/$), and lone surrogates (no code point: UTF-8 would turn them into
// U+FFFD, so an IRI holding one would list, and hash, like one holding U+FFFD).
// eslint-disable-next-line no-control-regex
const IRI_ESCAPE = /[\u0000-\u0020<>"{}|^`\\\u0085\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const IRI_ESCAPE_ALL = new RegExp(IRI_ESCAPE.source, "g");

/**
 * Escape an IRI for `<…>`: characters IRIREF forbids (U+0000–U+0020, `<>"{}|^\``, and
 * `\`), the line breaks U+0085, U+2028 and U+2029, and lone surrogates become `\uXXXX`
 * (a UCHAR: the IRI re-parses unchanged, and a listing line stays one line). A parser
 * yields only the line breaks; the others come from terms built elsewhere.
 */
export function escapeIri(iri: string): string {
  checkArgs("escapeIri", arguments, "iri:string");
  if (!IRI_ESCAPE.test(iri)) return iri;
  return iri.replace(IRI_ESCAPE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

/**
 * A prefix map: prefix name → namespace IRI, and the reverse lookup that shortens IRIs.
 *
 * When several namespaces are prefixes of one IRI, the longest namespace whose local part
 * is a valid PN_LOCAL wins; when several names share one namespace, the shortest name wins,
 * ties broken by code-unit order — so the result depends on the declarations, never on
 * their order. Entries whose name is not a valid PN_PREFIX are kept for expansion but never
 * used to shorten. Lookups cost O(number of namespaces) per IRI; callers that render many
 * terms cache per term.
 */
export class PrefixMap {
  /** name → namespace, as given (insertion order). */
  readonly prefixes: Readonly<Record<string, string>>;
  /** [namespace, name] pairs used for shortening, longest namespace first. */
  private readonly shorteners: ReadonlyArray<readonly [string, string]>;

  /**
   * @param prefixes name → namespace IRI (e.g. a Graph's `prefixes`); copied.
   */
  constructor(prefixes: Readonly<Record<string, string>> = {}) {
    checkArgs("PrefixMap", arguments, "prefixes?:object");
    this.prefixes = Object.freeze({ ...prefixes });
    const byNamespace = new Map<string, string>();
    for (const [name, namespace] of Object.entries(prefixes)) {
      if (!isPnPrefix(name) || namespace === "") continue;
      const seen = byNamespace.get(namespace);
      if (seen === undefined || name.length < seen.length || (name.length === seen.length && name < seen)) {
        byNamespace.set(namespace, name);
      }
    }
    this.shorteners = [...byNamespace.entries()].sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1));
  }

  /**
   * The [namespace, name] pairs used for shortening, in the order {@link shorten} tries
   * them: longest namespace first (entries whose name is not a PN_PREFIX are left out).
   */
  get shorteningOrder(): ReadonlyArray<readonly [namespace: string, name: string]> {
    return this.shorteners;
  }

  /**
   * The prefixed name for `iri` (`ex:Thing`), or null when no namespace matches with a
   * valid, non-empty PN_LOCAL remainder (the namespace IRI itself is shown as `<iri>`).
   */
  shorten(iri: string): string | null {
    if (typeof iri !== "string") throw new ArgumentError("PrefixMap.shorten", "iri", "a string", iri);
    for (const [namespace, name] of this.shorteners) {
      if (iri.startsWith(namespace)) {
        const local = iri.slice(namespace.length);
        // An empty local part is valid Turtle (`ex:`) but reads badly; show the namespace in full.
        if (local !== "" && isPnLocal(local)) return `${name}:${local}`;
      }
    }
    return null;
  }

  /** `iri` as a prefixed name when possible, else `<iri>` (escaped as IRIREF requires). */
  formatIri(iri: string): string {
    if (typeof iri !== "string") throw new ArgumentError("PrefixMap.formatIri", "iri", "a string", iri);
    return this.shorten(iri) ?? `<${escapeIri(iri)}>`;
  }

  /**
   * Expand `name:local` to an IRI. Returns null when the prefix is not declared. The local
   * part is taken as written (no PN_LOCAL_ESC processing).
   */
  expand(prefixedName: string): string | null {
    if (typeof prefixedName !== "string") throw new ArgumentError("PrefixMap.expand", "prefixedName", "a string", prefixedName);
    const colon = prefixedName.indexOf(":");
    if (colon < 0) return null;
    const namespace = this.prefixes[prefixedName.slice(0, colon)];
    return namespace === undefined ? null : namespace + prefixedName.slice(colon + 1);
  }

  /** The declarations as Turtle `@prefix` lines, in insertion order, each ending in "\n". */
  toTurtle(): string {
    let out = "";
    for (const [name, namespace] of Object.entries(this.prefixes)) out += `@prefix ${name}: <${escapeIri(namespace)}> .\n`;
    return out;
  }
}
