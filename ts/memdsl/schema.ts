/**
 * The MemDSL schema: what an Envelope holds. Plain data (JSON-safe), so an
 * envelope compares with deep equality and travels as `--json` unchanged.
 */
import { isAddressToken } from "./address.js";
import { GroundwireError } from "../errors.js";

/** The single wire status of a node, strongest first. `inferred` is the honest floor. */
export type EpistemicStatus = "verified" | "asserted" | "inferred";
/** Every EpistemicStatus, strongest first. */
export const EPISTEMIC_STATUSES: readonly EpistemicStatus[] = ["verified", "asserted", "inferred"];

/**
 * A hole the agent must see. Per node they are emitted in exactly this order:
 * stale → unresolved → outdated → missing → elided → invisible.
 * - stale / unresolved / outdated: taints of the node's StatusVerdict
 * - missing: no verdict was computed; the status shown is the `inferred` floor
 * - elided: the body was cut to maxBodyChars; a `ground` affordance fetches it
 * - invisible: the title, kind or shown body holds invisible or bidi characters
 *   (listed in the detail as `U+XXXX xN`); the wire shows each one escaped
 */
export type GapKind = "stale" | "unresolved" | "outdated" | "missing" | "elided" | "invisible" | "control";
/** Every GapKind in emission order. */
export const GAP_KINDS: readonly GapKind[] = ["stale", "unresolved", "outdated", "missing", "elided", "invisible", "control"];

/** A first-class gap, attached to the node with envelope-local ref `ref`. */
export interface GapToken {
  ref: string;
  kind: GapKind;
  /** Free text for the agent (may be empty). */
  detail: string;
}

/** `expand`: fetch a not-yet-expanded neighbor's neighborhood; `ground`: fetch an elided node's full body. */
export type AffordanceKind = "expand" | "ground";
/** Every AffordanceKind. */
export const AFFORDANCE_KINDS: readonly AffordanceKind[] = ["expand", "ground"];

/** A handle the agent can act on. */
export interface Affordance {
  kind: AffordanceKind;
  /** Address token of the node to fetch (for `ground`, the node itself). */
  target: string;
  /** The target's ref when it is in this envelope, else null. */
  ref: string | null;
  /**
   * For `expand`: the relation linking the node to the target, as a compact
   * IRI; `^rel` when the edge points from the target to this node. Null for `ground`.
   */
  relation: string | null;
}

/** One node as the agent sees it. */
export interface RenderedNode {
  /** Envelope-local handle `n1`, `n2`… in node order. */
  ref: string;
  /** Stable address token (an absolute IRI). */
  token: string;
  /** What the node is (its types, compacted), or "resource". */
  kind: string;
  status: EpistemicStatus;
  title: string;
  /** The wrapped (fenced, bannered) untrusted body, or "" when the node has none. */
  body: string;
  affordances: Affordance[];
}

/** A rendered neighborhood: nodes in address-token order, gaps node by node, the focus ref. */
export interface Envelope {
  focus: string | null;
  nodes: RenderedNode[];
  gaps: GapToken[];
}

/**
 * Malformed MemDSL text: `line` and `column` are 1-based (column counts UTF-16
 * code units of that physical line); `detail` says what was expected.
 */
export class MemDSLParseError extends GroundwireError {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`memdsl:${line}:${column}: ${detail}`, { code: "bad_request", status: 400 });
    this.name = "MemDSLParseError";
  }
}

/**
 * Check an envelope against the schema's invariants; returns the first
 * violation as text (naming the node or gap by index), or null when valid:
 * refs are `n1..nN` in node order, tokens are unique address tokens, statuses,
 * gap kinds and affordance kinds are in their vocabularies, every gap ref and
 * the focus name a node, an affordance's ref (when set) names the node whose
 * token is its target, and every field is a string of the right kind.
 */
export function envelopeProblem(env: Envelope): string | null {
  if (env === null || typeof env !== "object") return "envelope is not an object";
  if (!Array.isArray(env.nodes)) return "envelope.nodes is not an array";
  if (!Array.isArray(env.gaps)) return "envelope.gaps is not an array";
  const tokenByRef = new Map<string, string>();
  const tokens = new Set<string>();
  for (const [i, n] of env.nodes.entries()) {
    const at = `nodes[${i}]`;
    if (n === null || typeof n !== "object") return `${at} is not an object`;
    if (n.ref !== `n${i + 1}`) return `${at}.ref is ${JSON.stringify(n.ref)}, expected "n${i + 1}" (refs follow node order)`;
    if (typeof n.token !== "string" || !isAddressToken(n.token)) return `${at}.token ${JSON.stringify(n.token)} is not an address token`;
    if (tokens.has(n.token)) return `${at}.token ${n.token} appears twice`;
    tokens.add(n.token);
    tokenByRef.set(n.ref, n.token);
    if (!EPISTEMIC_STATUSES.includes(n.status)) return `${at}.status ${JSON.stringify(n.status)} is not one of ${EPISTEMIC_STATUSES.join(", ")}`;
    for (const f of ["kind", "title", "body"] as const) if (typeof n[f] !== "string") return `${at}.${f} is not a string`;
    if (!Array.isArray(n.affordances)) return `${at}.affordances is not an array`;
  }
  for (const [i, n] of env.nodes.entries()) {
    for (const [j, a] of n.affordances.entries()) {
      const at = `nodes[${i}].affordances[${j}]`;
      if (a === null || typeof a !== "object") return `${at} is not an object`;
      if (!AFFORDANCE_KINDS.includes(a.kind)) return `${at}.kind ${JSON.stringify(a.kind)} is not one of ${AFFORDANCE_KINDS.join(", ")}`;
      if (typeof a.target !== "string" || !isAddressToken(a.target)) return `${at}.target ${JSON.stringify(a.target)} is not an address token`;
      if (a.ref !== null) {
        if (!tokenByRef.has(a.ref)) return `${at}.ref ${JSON.stringify(a.ref)} names no node`;
        if (tokenByRef.get(a.ref) !== a.target) return `${at}.ref ${a.ref} is not the node with token ${a.target}`;
      }
      if (a.relation !== null && typeof a.relation !== "string") return `${at}.relation is neither a string nor null`;
    }
  }
  for (const [i, g] of env.gaps.entries()) {
    const at = `gaps[${i}]`;
    if (g === null || typeof g !== "object") return `${at} is not an object`;
    if (!tokenByRef.has(g.ref)) return `${at}.ref ${JSON.stringify(g.ref)} names no node`;
    if (!GAP_KINDS.includes(g.kind)) return `${at}.kind ${JSON.stringify(g.kind)} is not one of ${GAP_KINDS.join(", ")}`;
    if (typeof g.detail !== "string") return `${at}.detail is not a string`;
  }
  if (env.focus !== null && !tokenByRef.has(env.focus)) return `focus ${JSON.stringify(env.focus)} names no node`;
  return null;
}
