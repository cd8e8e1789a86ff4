/**
 * Render a neighborhood into an Envelope: status shown (consumed, never
 * re-derived), every hole a first-class gap, every body fenced as untrusted
 * data, and the whole thing deterministic.
 */
import { isAddressToken } from "./address.js";
import { TAINT_KINDS, type StatusVerdict } from "./epistemics.js";
import type { Affordance, Envelope, GapToken, RenderedNode } from "./schema.js";
import type { Edge, Neighborhood, Node } from "./substrate.js";
import { codePointLength, compareCodePoints, invisibleCharacters, sliceCodePoints } from "./text.js";
import { defangFences as defangFenceLookalikes, wrapUntrustedBody } from "./untrusted.js";
import { neutralizeChatTokens, type ControlTokenHit } from "./chat-tokens.js";
import { ArgumentError } from "../errors.js";

/** Where the renderer reports what it dropped. Default: nothing is printed. */
export interface MemDSLLogger {
  warn(message: string): void;
}

const SILENT: MemDSLLogger = { warn() {} };

/** Options of renderNeighborhood. */
export interface RenderOptions {
  /** Token of the node the render centers on; becomes `envelope.focus` (its ref), or null when absent. */
  focus?: string | null;
  /** Tokens whose neighborhoods were already fetched: no `expand` handle points at them. */
  expanded?: Iterable<string>;
  /** Cut bodies longer than this many code points (an `elided` gap and a `ground` handle each). Non-negative integer. */
  maxBodyChars?: number | null;
  /** Receives one line per dropped node or ignored input. */
  logger?: MemDSLLogger;
}

/** Anything that can answer `wire()`: a StatusVerdict, or a look-alike from another epistemics step. */
export type NodeStatusMap = ReadonlyMap<string, Pick<StatusVerdict, "wire" | "taints">>;

/** Fence look-alikes defanged, then chat-template control strings neutralised; the hits are collected under `where`. */
function defangInto(text: string, where: string, found: Array<[string, ControlTokenHit]>): string {
  const { text: out, hits } = neutralizeChatTokens(defangFenceLookalikes(text));
  for (const h of hits) found.push([where, h]);
  return out;
}

/** A `control` gap's detail: `body: &lt;|im_start|> (ChatML (Qwen)) x2; title: …`, in field order. */
function describeControlTokens(found: Array<[string, ControlTokenHit]>): string {
  const counts = new Map<string, number>();
  for (const [where, h] of found) {
    const key = `${where}: ${h.neutralised} (${h.template})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} x${n}`).join("; ");
}

function describeInvisible(parts: Array<[string, string]>): string {
  const found: string[] = [];
  for (const [where, text] of parts) {
    const counts = invisibleCharacters(text);
    if (counts.size) found.push(`${where}: ${[...counts].map(([cp, n]) => `${cp} x${n}`).join(", ")}`);
  }
  return found.join("; ");
}

/**
 * Render `neighborhood` into an Envelope.
 *
 * Order (the contract; same input in any order → the same envelope):
 * - Nodes whose token is not an address token (blank nodes, relative or
 *   hostile IRIs) are dropped first, one `logger.warn` line each; the render
 *   goes on. Duplicate tokens keep the node whose (kind, title, body) is least
 *   in code point order (logged).
 * - Nodes are sorted by token in Unicode code point order; refs are `n1`, `n2`…
 *   in that order.
 * - Per node, gaps in the order stale → unresolved → outdated (the verdict's
 *   taints, each with its note) → missing (no verdict: status shown is the
 *   `inferred` floor) → elided → invisible; the envelope's gaps are node by node.
 * - Affordances per node: one `expand` per distinct (neighbor, relation) over
 *   the node's edges in both directions (`^rel` for an incoming edge) whose
 *   neighbor is addressable and not in `expanded`, sorted by (target token,
 *   relation) in code point order; then `ground` when the body was elided.
 *
 * Kinds, titles, relation labels and taint notes come from the graph too: their fence
 * look-alikes are defanged (no data region around them; they are short quoted fields).
 *
 * Bodies: "" stays "" (no data region); otherwise fence look-alikes are
 * defanged, the result is cut to `maxBodyChars` code points when longer (the
 * counts in the `elided` gap are of the defanged body), then wrapped by
 * wrapUntrustedBody.
 *
 * @param nodeStatus token → verdict; the status shown is `verdict.wire()`
 * @throws RangeError when maxBodyChars is not a non-negative integer
 */
export function renderNeighborhood(neighborhood: Neighborhood, nodeStatus: NodeStatusMap, options: RenderOptions = {}): Envelope {
  if (neighborhood === null || typeof neighborhood !== "object" || !Array.isArray(neighborhood.nodes) || !Array.isArray(neighborhood.edges)) {
    throw new ArgumentError("renderNeighborhood", "neighborhood", "{nodes, edges} (from assembleNeighborhood)", neighborhood);
  }
  if (nodeStatus === null || typeof nodeStatus !== "object" || typeof (nodeStatus as { get?: unknown }).get !== "function") {
    throw new ArgumentError("renderNeighborhood", "nodeStatus", "a Map of token → StatusVerdict (from applyNodeStatuses)", nodeStatus);
  }
  if (options === null || typeof options !== "object") throw new ArgumentError("renderNeighborhood", "options", "an object", options);
  const logger = options.logger ?? SILENT;
  const maxBodyChars = options.maxBodyChars ?? null;
  if (maxBodyChars !== null && (!Number.isInteger(maxBodyChars) || maxBodyChars < 0)) {
    throw new ArgumentError("renderNeighborhood", "options.maxBodyChars", "a whole number ≥ 0", maxBodyChars);
  }
  const expanded = new Set(options.expanded ?? []);

  const byToken = new Map<string, Node>();
  for (const node of neighborhood.nodes) {
    if (!isAddressToken(node.token)) {
      logger.warn(`memdsl: dropped unaddressable node ${JSON.stringify(node.token)}`);
      continue;
    }
    const kept = byToken.get(node.token);
    if (kept) {
      const d =
        compareCodePoints(node.kind, kept.kind) || compareCodePoints(node.title, kept.title) || compareCodePoints(node.body, kept.body);
      if (d !== 0) logger.warn(`memdsl: two different nodes share the token ${node.token}; kept the least`);
      if (d < 0) byToken.set(node.token, node);
      continue;
    }
    byToken.set(node.token, node);
  }
  const ordered = [...byToken.values()].sort((a, b) => compareCodePoints(a.token, b.token));
  const refOf = new Map<string, string>(ordered.map((n, i) => [n.token, `n${i + 1}`]));

  const neighbors = new Map<string, Map<string, [string, string]>>();
  const addNeighbor = (from: string, to: string, relation: string) => {
    if (!byToken.has(from) || expanded.has(to) || !isAddressToken(to)) return;
    const m = neighbors.get(from) ?? new Map<string, [string, string]>();
    m.set(`${to}\u0000${relation}`, [to, relation]);
    neighbors.set(from, m);
  };
  for (const e of neighborhood.edges as Edge[]) {
    addNeighbor(e.src, e.dst, e.relation);
    addNeighbor(e.dst, e.src, `^${e.relation}`);
  }

  const nodes: RenderedNode[] = [];
  const gaps: GapToken[] = [];
  for (const node of ordered) {
    const ref = refOf.get(node.token)!;
    const verdict = nodeStatus.get(node.token);
    const taints = [...(verdict?.taints ?? [])].filter((t) => {
      if (TAINT_KINDS.includes(t.kind)) return true;
      logger.warn(`memdsl: ignored unknown taint ${JSON.stringify(t.kind)} of ${node.token}`);
      return false;
    });
    taints.sort((a, b) => TAINT_KINDS.indexOf(a.kind) - TAINT_KINDS.indexOf(b.kind) || compareCodePoints(a.note, b.note));
    for (const t of taints) gaps.push({ ref, kind: t.kind, detail: neutralizeChatTokens(defangFenceLookalikes(t.note)).text });
    if (!verdict) gaps.push({ ref, kind: "missing", detail: "no status verdict; shown at the inferred floor" });

    // Defang before cutting, so a cut can never leave half a fence look-alike behind.
    const controls: Array<[string, ControlTokenHit]> = [];
    const kind = defangInto(node.kind, "kind", controls);
    const title = defangInto(node.title, "title", controls);
    let body = defangInto(node.body ?? "", "body", controls);
    let elided = false;
    if (maxBodyChars !== null && body.length > maxBodyChars) {
      const total = codePointLength(body);
      if (total > maxBodyChars) {
        body = sliceCodePoints(body, maxBodyChars);
        elided = true;
        gaps.push({ ref, kind: "elided", detail: `body shows ${maxBodyChars} of ${total} code points; ground fetches the rest` });
      }
    }
    const hidden = describeInvisible([
      ["kind", node.kind],
      ["title", node.title],
      ["body", body],
    ]);
    if (hidden) gaps.push({ ref, kind: "invisible", detail: hidden });

    const affordances: Affordance[] = [...(neighbors.get(node.token)?.values() ?? [])]
      .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]))
      .map(([target, relation]) => ({ kind: "expand", target, ref: refOf.get(target) ?? null, relation: defangInto(relation, "relation", controls) }));
    if (controls.length) gaps.push({ ref, kind: "control", detail: describeControlTokens(controls) });
    if (elided) affordances.push({ kind: "ground", target: node.token, ref, relation: null });

    nodes.push({
      ref,
      token: node.token,
      // kinds and titles come from the graph (rdfs:label…): source text, defanged like bodies
      kind,
      status: verdict ? verdict.wire() : "inferred",
      title,
      body: body === "" ? "" : wrapUntrustedBody(body),
      affordances,
    });
  }
  const focus = options.focus != null ? (refOf.get(options.focus) ?? null) : null;
  if (options.focus != null && focus === null) logger.warn(`memdsl: focus ${options.focus} is not a rendered node`);
  return { focus, nodes, gaps };
}
