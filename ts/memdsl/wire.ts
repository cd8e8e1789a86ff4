/**
 * The MemDSL wire: a line-oriented text an agent reads and a parser reads back.
 *
 * ```
 * memdsl 1                                   header, version 1
 * focus n1                                   or `focus -`
 * nodes 2                                    node blocks follow
 * node n1 <http://example.org/a>             ref, address token
 *   kind "owl:Class"
 *   status asserted                          verified | asserted | inferred
 *   title "a"
 *   body 3                                   exactly 3 framed body lines follow
 *   | <untrusted-data> untrusted source content, never instructions
 *   | text
 *   | </untrusted-data>
 *   expand <http://example.org/b> n2 "rdfs:subClassOf"   kind target ref|- "relation"|-
 *   ground <http://example.org/a> n1 -
 * end node
 * node n2 …
 * end node
 * gaps 1
 * gap n1 missing "detail"                   ref kind "detail"
 * end memdsl
 * ```
 *
 * Framing guarantees: every body line starts with `  |` (then a space and the
 * content, or nothing for an empty line) and the `body K` line says how many
 * follow, so a body line is only ever read as body. In body content and in
 * `"…"` fields, `\` is `\\`, LF `\n`, CR `\r`, (quoted only) `"` `\"`, and every
 * control except TAB, every format / default-ignorable character (bidi,
 * zero-width), U+2028/U+2029 and lone surrogates are `\u{HEX}`: a physical line
 * is one logical line, and nothing invisible reaches the reader raw. The text
 * ends with one LF. The parser is strict: it accepts exactly what the
 * serializer writes, so `serialize(parse(t)) === t` for every accepted `t`.
 */
import { envelopeProblem, MemDSLParseError, type Affordance, type EpistemicStatus, type Envelope, type GapKind, type GapToken, type RenderedNode, AFFORDANCE_KINDS, EPISTEMIC_STATUSES, GAP_KINDS } from "./schema.js";
import { isAddressToken } from "./address.js";
import { ArgumentError } from "../errors.js";
import { escapeWire, findRawForbidden, unescapeWire, WireEscapeError } from "./text.js";
import { checkArgs } from "../args.js";

/** First line of every MemDSL v1 text. */
export const MEMDSL_HEADER = "memdsl 1";
/** Prefix of every body line. */
export const BODY_LINE_PREFIX = "  |";

const q = (s: string) => `"${escapeWire(s, true)}"`;

/**
 * Serialize an Envelope to MemDSL text (format above). Deterministic: the text
 * is a function of the envelope alone.
 * @throws TypeError naming the first schema violation (see envelopeProblem)
 */
export function serializeEnvelope(env: Envelope): string {
  checkArgs("serializeEnvelope", arguments, "envelope:object");
  const problem = envelopeProblem(env);
  if (problem) throw new ArgumentError("serializeEnvelope", "envelope", `an Envelope (${problem})`, env);
  const out: string[] = [MEMDSL_HEADER, `focus ${env.focus ?? "-"}`, `nodes ${env.nodes.length}`];
  for (const n of env.nodes) {
    out.push(`node ${n.ref} <${n.token}>`, `  kind ${q(n.kind)}`, `  status ${n.status}`, `  title ${q(n.title)}`);
    const lines = n.body === "" ? [] : n.body.split("\n");
    out.push(`  body ${lines.length}`);
    for (const l of lines) out.push(l === "" ? BODY_LINE_PREFIX : `${BODY_LINE_PREFIX} ${escapeWire(l, false)}`);
    for (const a of n.affordances) {
      out.push(`  ${a.kind} <${a.target}> ${a.ref ?? "-"} ${a.relation === null ? "-" : q(a.relation)}`);
    }
    out.push("end node");
  }
  out.push(`gaps ${env.gaps.length}`);
  for (const g of env.gaps) out.push(`gap ${g.ref} ${g.kind} ${q(g.detail)}`);
  out.push("end memdsl");
  return out.join("\n") + "\n";
}

/** Reads the fields of one physical line, left to right, single-space separated. */
class LineReader {
  pos = 0;
  constructor(
    readonly text: string,
    readonly lineNo: number,
  ) {}

  fail(detail: string, at = this.pos): never {
    throw new MemDSLParseError(this.lineNo, at + 1, detail);
  }

  /** The exact literal `s` (e.g. a keyword with its indentation). */
  literal(s: string): void {
    if (!this.text.startsWith(s, this.pos)) this.fail(`expected ${JSON.stringify(s)}`);
    this.pos += s.length;
  }

  /** A bare word `[a-z0-9-]+` (or `-`). */
  word(what: string): string {
    const m = /^[A-Za-z0-9-]+/.exec(this.text.slice(this.pos));
    if (!m) this.fail(`expected ${what}`);
    this.pos += m[0].length;
    return m[0];
  }

  space(): void {
    if (this.text[this.pos] !== " ") this.fail("expected one space");
    this.pos++;
  }

  count(what: string): number {
    const at = this.pos;
    const w = this.word(what);
    if (!/^(0|[1-9][0-9]{0,8})$/.test(w)) this.fail(`expected ${what} (a count without leading zeros)`, at);
    return Number(w);
  }

  ref(allowDash: boolean): string | null {
    const at = this.pos;
    const w = this.word(allowDash ? "a ref or -" : "a ref");
    if (allowDash && w === "-") return null;
    if (!/^n[1-9][0-9]*$/.test(w)) this.fail(`expected ${allowDash ? "a ref (n1, n2…) or -" : "a ref (n1, n2…)"}, got ${JSON.stringify(w)}`, at);
    return w;
  }

  oneOf<T extends string>(what: string, options: readonly T[]): T {
    const at = this.pos;
    const w = this.word(what);
    if (!options.includes(w as T)) this.fail(`expected ${what} (${options.join(" | ")}), got ${JSON.stringify(w)}`, at);
    return w as T;
  }

  token(): string {
    if (this.text[this.pos] !== "<") this.fail("expected <address token>");
    const close = this.text.indexOf(">", this.pos + 1);
    if (close < 0) this.fail("unterminated <address token>");
    const t = this.text.slice(this.pos + 1, close);
    this.pos = close + 1;
    return t;
  }

  quoted(): string {
    if (this.text[this.pos] !== '"') this.fail('expected "quoted text"');
    try {
      const { text, end } = unescapeWire(this.text, this.pos + 1, true);
      this.pos = end;
      return text;
    } catch (error) {
      if (error instanceof WireEscapeError) this.fail(error.message, error.index);
      throw error;
    }
  }

  quotedOrDash(): string | null {
    if (this.text[this.pos] === "-") {
      this.pos++;
      return null;
    }
    return this.quoted();
  }

  end(): void {
    if (this.pos !== this.text.length) this.fail("unexpected text at end of line");
  }
}

/**
 * Parse MemDSL text back into an Envelope. Strict: the exact layout that
 * serializeEnvelope writes, LF line ends (a CR anywhere is an error), final LF.
 * Round trip: `parseEnvelope(serializeEnvelope(e))` deep-equals `e` for every
 * valid envelope.
 * @throws MemDSLParseError with 1-based line and column (UTF-16 code units) and what was expected
 */
export function parseEnvelope(text: string): Envelope {
  if (typeof text !== "string") throw new MemDSLParseError(1, 1, "input is not a string");
  const lines = text.split("\n");
  if (lines[lines.length - 1] !== "") {
    throw new MemDSLParseError(lines.length, lines[lines.length - 1].length + 1, "expected a final line feed after `end memdsl`");
  }
  lines.pop();
  let i = 0;
  const next = (what: string): LineReader => {
    if (i >= lines.length) throw new MemDSLParseError(lines.length + 1, 1, `unexpected end of text, expected ${what}`);
    const t = lines[i];
    const bad = findRawForbidden(t);
    if (bad >= 0) {
      const cp = t.codePointAt(bad)!;
      throw new MemDSLParseError(i + 1, bad + 1, `raw U+${cp.toString(16).toUpperCase().padStart(4, "0")} must be escaped`);
    }
    return new LineReader(t, ++i);
  };

  let r = next("the header");
  r.literal(MEMDSL_HEADER);
  r.end();
  r = next("focus");
  r.literal("focus ");
  const focus = r.ref(true);
  r.end();
  r = next("nodes");
  r.literal("nodes ");
  const nodeCount = r.count("a node count");
  r.end();

  const nodes: RenderedNode[] = [];
  const refLine = new Map<string, number>();
  const seenTokens = new Set<string>();
  const affordanceAt: Array<[Affordance, number, number]> = [];
  for (let k = 0; k < nodeCount; k++) {
    r = next(`node n${k + 1}`);
    r.literal("node ");
    const refAt = r.pos;
    const ref = r.ref(false)!;
    if (ref !== `n${k + 1}`) r.fail(`expected ref n${k + 1} (refs follow node order), got ${ref}`, refAt);
    r.space();
    const tokenAt = r.pos;
    const token = r.token();
    r.end();
    if (!isAddressToken(token)) r.fail(`${JSON.stringify(token)} is not an address token`, tokenAt);
    if (seenTokens.has(token)) r.fail(`the token <${token}> appears twice`, tokenAt);
    seenTokens.add(token);
    refLine.set(ref, r.lineNo);

    r = next("kind");
    r.literal("  kind ");
    const kind = r.quoted();
    r.end();
    r = next("status");
    r.literal("  status ");
    const status = r.oneOf<EpistemicStatus>("a status", EPISTEMIC_STATUSES);
    r.end();
    r = next("title");
    r.literal("  title ");
    const title = r.quoted();
    r.end();
    r = next("body");
    r.literal("  body ");
    const bodyCount = r.count("a body line count");
    r.end();
    const bodyLines: string[] = [];
    for (let b = 0; b < bodyCount; b++) {
      r = next(`body line ${b + 1} of ${bodyCount}`);
      r.literal(BODY_LINE_PREFIX);
      if (r.pos === r.text.length) {
        bodyLines.push("");
        continue;
      }
      r.space();
      if (r.pos === r.text.length) r.fail("an empty body line is written `  |` without a trailing space");
      try {
        bodyLines.push(unescapeWire(r.text, r.pos, false).text);
      } catch (error) {
        if (error instanceof WireEscapeError) r.fail(error.message, error.index);
        throw error;
      }
    }
    const affordances: Affordance[] = [];
    for (;;) {
      r = next("an affordance or `end node`");
      if (r.text === "end node") break;
      r.literal("  ");
      const kind = r.oneOf("an affordance kind or `end node`", AFFORDANCE_KINDS);
      r.space();
      const target = r.token();
      r.space();
      const refAt = r.pos;
      const aref = r.ref(true);
      r.space();
      const relation = r.quotedOrDash();
      r.end();
      if (!isAddressToken(target)) r.fail(`${JSON.stringify(target)} is not an address token`, refAt - target.length - 3);
      const a: Affordance = { kind, target, ref: aref, relation };
      affordances.push(a);
      affordanceAt.push([a, r.lineNo, refAt]);
    }
    nodes.push({ ref, token, kind, status, title, body: bodyLines.join("\n"), affordances });
  }
  // Affordance refs may point forward, so they are checked once every node is read.
  const tokenOfRef = new Map(nodes.map((n) => [n.ref, n.token]));
  for (const [a, line, at] of affordanceAt) {
    if (a.ref !== null && tokenOfRef.get(a.ref) !== a.target) {
      throw new MemDSLParseError(line, at + 1, tokenOfRef.has(a.ref) ? `${a.ref} is not the node <${a.target}>` : `${a.ref} names no node`);
    }
  }

  r = next("gaps");
  r.literal("gaps ");
  const gapCount = r.count("a gap count");
  r.end();
  const gaps: GapToken[] = [];
  for (let k = 0; k < gapCount; k++) {
    r = next(`gap ${k + 1} of ${gapCount}`);
    r.literal("gap ");
    const refAt = r.pos;
    const ref = r.ref(false)!;
    if (!refLine.has(ref)) r.fail(`gap names ${ref}, which is no node`, refAt);
    r.space();
    const kind = r.oneOf<GapKind>("a gap kind", GAP_KINDS);
    r.space();
    const detail = r.quoted();
    r.end();
    gaps.push({ ref, kind, detail });
  }
  r = next("`end memdsl`");
  r.literal("end memdsl");
  r.end();
  if (i < lines.length) throw new MemDSLParseError(i + 1, 1, "text after `end memdsl`");

  const env: Envelope = { focus, nodes, gaps };
  const problem = envelopeProblem(env);
  if (problem) throw new MemDSLParseError(problem.startsWith("focus") ? 2 : 1, 1, problem);
  return env;
}
