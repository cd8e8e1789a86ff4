/**
 * Epistemics: one StatusVerdict per node, derived from what the graph says about
 * it. The renderer consumes `verdict.wire()` and never re-derives a status.
 */
import type * as RDF from "@rdfjs/types";
import type { Graph } from "../rdf/index.js";
import type { EpistemicStatus } from "./schema.js";
import type { Neighborhood } from "./substrate.js";
import { compareCodePoints } from "./text.js";
import { MEMDSL_PROPERTIES, MEMDSL_STATUS, MEMDSL_TAINT, WELL_KNOWN } from "./vocab.js";
import { checkArgs } from "../arg-kinds.js";
import { ArgumentError } from "../errors.js";

/** A reason the node's content may not hold now; each becomes a gap of the same kind. */
export type TaintKind = "stale" | "unresolved" | "outdated";
/** Taint kinds in gap emission order. */
export const TAINT_KINDS: readonly TaintKind[] = ["stale", "unresolved", "outdated"];

/** One taint with the note shown as the gap's detail. */
export interface Taint {
  kind: TaintKind;
  note: string;
}

/**
 * The epistemic verdict on one node: a base status, its taints, and what it
 * rests on. Immutable; taints are kept in gap order (stale → unresolved →
 * outdated, then by note in code point order) whatever order they came in.
 */
export class StatusVerdict {
  readonly taints: readonly Taint[];

  /**
   * @param status the base status
   * @param taints any order; duplicates (same kind and note) collapse
   * @param basis what the verdict rests on (e.g. the provenance IRI), for humans and logs
   * @throws TypeError for a status or taint kind outside the vocabulary
   */
  constructor(
    readonly status: EpistemicStatus,
    taints: readonly Taint[] = [],
    readonly basis = "",
  ) {
    checkArgs("StatusVerdict", arguments, "status:=verified/asserted/inferred taints?:array basis?:string");
    if (!["verified", "asserted", "inferred"].includes(status)) throw new ArgumentError("StatusVerdict", "status", "verified, asserted or inferred", status);
    const seen = new Set<string>();
    const sorted: Taint[] = [];
    for (const t of taints) {
      if (!TAINT_KINDS.includes(t?.kind)) throw new ArgumentError("StatusVerdict", "taints", `a list of {kind, note} with kind one of ${TAINT_KINDS.join(", ")}`, t?.kind);
      const key = `${t.kind}\u0000${t.note}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sorted.push({ kind: t.kind, note: t.note });
    }
    sorted.sort((a, b) => TAINT_KINDS.indexOf(a.kind) - TAINT_KINDS.indexOf(b.kind) || compareCodePoints(a.note, b.note));
    this.taints = sorted;
  }

  /** True when any taint is present. */
  get tainted(): boolean {
    return this.taints.length > 0;
  }

  /**
   * The single status put on the wire: the base status, except that a tainted
   * `verified` shows as `asserted` (a check made on content that is stale,
   * unresolved or outdated no longer vouches for it). Never stronger than the base.
   */
  wire(): EpistemicStatus {
    return this.status === "verified" && this.tainted ? "asserted" : this.status;
  }
}

const STATUS_BY_IRI = new Map<string, EpistemicStatus>(
  Object.entries(MEMDSL_STATUS).map(([k, v]) => [v, k as EpistemicStatus]),
);
const TAINT_BY_IRI = new Map<string, TaintKind>(Object.entries(MEMDSL_TAINT).map(([k, v]) => [v, k as TaintKind]));
const STRENGTH: Record<EpistemicStatus, number> = { verified: 0, asserted: 1, inferred: 2 };
const PROVENANCE = [WELL_KNOWN.provWasDerivedFrom, WELL_KNOWN.dctermsSource];
const SUPERSEDED = [WELL_KNOWN.schemaSupersededBy, WELL_KNOWN.schemaSupersededByHttp];

function objects(graph: Graph, token: string, predicate: string): RDF.Term[] {
  if (token.startsWith("_:")) return [];
  const s = { termType: "NamedNode", value: token } as never;
  const p = { termType: "NamedNode", value: predicate } as never;
  return graph.store.getObjects(s, p, null) as unknown as RDF.Term[];
}

/**
 * Derive a StatusVerdict for every node of `neighborhood` from `graph`
 * (blank nodes get none). Rules, in this order:
 *
 * 1. Base status: an explicit `gwm:epistemicStatus` (the weakest, when several);
 *    otherwise `asserted` when the graph describes the node (it is the subject
 *    of a triple; the basis is its `prov:wasDerivedFrom` / `dcterms:source`
 *    when present, else the graph's source); otherwise `inferred` with an
 *    `unresolved` taint ("referenced but not described").
 * 2. Taints: each `gwm:taint` object (note: the `gwm:statusNote` values, joined
 *    by "; ", or the taint's name); `outdated` for `owl:deprecated true` and for
 *    every `schema:supersededBy` (note names the successor).
 *
 * Unknown `gwm:epistemicStatus` / `gwm:taint` objects are reported through
 * `onProblem` and ignored. Returns token → verdict (a Map in node order).
 */
export function applyNodeStatuses(
  graph: Graph,
  neighborhood: Neighborhood,
  options: { onProblem?: (message: string) => void } = {},
): Map<string, StatusVerdict> {
  checkArgs("applyNodeStatuses", arguments, "graph:graph neighborhood:neighborhood options?:object");
  const out = new Map<string, StatusVerdict>();
  const source = graph.source ?? "the graph";
  for (const node of neighborhood.nodes) {
    const token = node.token;
    if (token.startsWith("_:")) continue;
    const term = { termType: "NamedNode", value: token } as never;
    const described = graph.store.countQuads(term, null, null, null) > 0;
    const notes = objects(graph, token, MEMDSL_PROPERTIES.statusNote)
      .filter((t) => t.termType === "Literal")
      .map((t) => t.value)
      .sort(compareCodePoints);
    const taints: Taint[] = [];
    let status: EpistemicStatus | null = null;
    for (const o of objects(graph, token, MEMDSL_PROPERTIES.epistemicStatus)) {
      const s = STATUS_BY_IRI.get(o.value);
      if (!s) options.onProblem?.(`<${token}> gwm:epistemicStatus <${o.value}> is not a status; ignored`);
      else if (status === null || STRENGTH[s] > STRENGTH[status]) status = s;
    }
    let basis = "";
    if (status === null) {
      if (described) {
        status = "asserted";
        const prov = PROVENANCE.flatMap((p) => objects(graph, token, p)).map((t) => t.value).sort(compareCodePoints);
        basis = prov.length ? prov.join(" ") : source;
      } else {
        status = "inferred";
        taints.push({ kind: "unresolved", note: `referenced but not described in ${source}` });
      }
    }
    for (const o of objects(graph, token, MEMDSL_PROPERTIES.taint)) {
      const kind = TAINT_BY_IRI.get(o.value);
      if (!kind) options.onProblem?.(`<${token}> gwm:taint <${o.value}> is not a taint; ignored`);
      else taints.push({ kind, note: notes.length ? notes.join("; ") : kind });
    }
    if (objects(graph, token, WELL_KNOWN.owlDeprecated).some((t) => t.termType === "Literal" && t.value === "true")) {
      taints.push({ kind: "outdated", note: "owl:deprecated true" });
    }
    for (const s of SUPERSEDED.flatMap((p) => objects(graph, token, p))) {
      taints.push({ kind: "outdated", note: `superseded by <${s.value}>` });
    }
    out.set(token, new StatusVerdict(status, taints, basis));
  }
  return out;
}
