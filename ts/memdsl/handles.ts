/**
 * Resolving what a model cites: the handles (`n3`) an envelope showed, back to the node, its
 * gaps, or an affordance. Handles are the envelope's own refs, read from the envelope itself,
 * so there is no renumbering between render and resolve.
 */
import type { Affordance, AffordanceKind, Envelope, GapToken, RenderedNode } from "./schema.js";
import { ArgumentError, GroundwireError } from "../errors.js";

/** At most this many valid handles are listed in a HandleError message (all are in `valid`). */
const LISTED = 20;

/** A handle the envelope did not show. `valid` lists every handle it did, in envelope order. */
export class HandleError extends GroundwireError {
  constructor(
    readonly handle: string,
    readonly target: "node" | "affordance",
    readonly valid: readonly string[],
  ) {
    const shown = valid.length ? valid.slice(0, LISTED).join(", ") + (valid.length > LISTED ? `, … (${valid.length - LISTED} more)` : "") : "none";
    const quoted = JSON.stringify(handle.length > 80 ? `${handle.slice(0, 77)}...` : handle);
    super(`${quoted} is not ${target === "node" ? "a node handle" : "an affordance handle"} this envelope showed; valid: ${shown}`, { code: "bad_request", status: 400 });
    this.name = "HandleError";
  }
}

function checkArgs(envelope: Envelope, handle: string, fn: string): void {
  if (!envelope || typeof envelope !== "object" || !Array.isArray(envelope.nodes)) throw new ArgumentError(fn, "envelope", "an Envelope (from renderNeighborhood or parseEnvelope)", envelope);
  if (typeof handle !== "string") throw new ArgumentError(fn, "handle", 'a string such as "n1"', handle);
}

/**
 * The node an envelope showed under `handle` (its ref exactly as displayed: `n1`, `n2`…; a
 * handle with surrounding space, ` n2`, is not one the envelope displayed and is refused).
 * @throws HandleError listing the valid node handles, for a handle the envelope did not show (`n0`, `n4` when n1–n3 were shown, ` n2`)
 * @throws ArgumentError when envelope or handle has the wrong type
 */
export function resolveHandle(envelope: Envelope, handle: string): RenderedNode {
  checkArgs(envelope, handle, "resolveHandle");
  const node = envelope.nodes.find((n) => n.ref === handle);
  if (!node) throw new HandleError(handle, "node", envelope.nodes.map((n) => n.ref));
  return node;
}

/**
 * The gaps an envelope showed on the node `handle`, in envelope order ([] for a shown node without gaps).
 * @throws HandleError listing the valid node handles, for a handle the envelope did not show
 */
export function resolveGaps(envelope: Envelope, handle: string): GapToken[] {
  checkArgs(envelope, handle, "resolveGaps");
  const node = resolveHandle(envelope, handle);
  return envelope.gaps.filter((g) => g.ref === node.ref);
}

/**
 * The affordance of `kind` (default `expand`) whose target the model cited: by the target's ref
 * (`n4`) when the target is in the envelope, else by its address token (`<http://…>` or bare).
 * When several nodes offer the same target, the first in envelope order is returned (they
 * fetch the same thing).
 * @throws HandleError listing the valid handles of that kind (refs, else `<token>`s), for one the envelope did not offer
 */
export function resolveAffordance(envelope: Envelope, handle: string, kind: AffordanceKind = "expand"): Affordance {
  checkArgs(envelope, handle, "resolveAffordance");
  const h = handle;
  const token = h.startsWith("<") && h.endsWith(">") ? h.slice(1, -1) : h;
  const offered = envelope.nodes.flatMap((n) => n.affordances).filter((a) => a.kind === kind);
  const hit = offered.find((a) => (a.ref !== null && a.ref === h) || a.target === token);
  if (hit) return hit;
  const valid = [...new Set(offered.map((a) => a.ref ?? `<${a.target}>`))];
  throw new HandleError(handle, "affordance", valid);
}
