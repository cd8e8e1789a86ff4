/**
 * The checker's bottom layer: its state and how it reports (see index.ts for the layers).
 */
import type { Origin, Query, Term } from "../algebra.js";
import { compactIri, termToSparql } from "../algebra.js";
import { type Schema, XSD } from "../schema.js";
import type { Diagnostic, VarInfo } from "./diagnostics.js";

export const WELL_KNOWN: Record<string, string> = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: XSD,
};

/** The checker's state (findings, the typing context, scopes) and how it names terms and reports findings. */
export class CheckerBase {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  /** The typing context of the scope being checked (the query, or the subquery inside it). */
  vars = new Map<string, VarInfo>();
  /** Variables of subqueries that are not projected out of them: distinct from same-named ones outside. */
  readonly scoped: { scope: string; info: VarInfo }[] = [];
  subqueries = 0;
  /** Which basic graph pattern (an identity object) each explicit blank node label belongs to. */
  readonly bnodeOwner = new Map<string, object>();
  readonly prefixes: Record<string, string>;

  constructor(
    readonly schema: Schema,
    readonly query: Query,
    assumed: Record<string, string> = {},
  ) {
    // names in messages: the query's own prefixes first, then the schema's (not its empty prefix, which reads badly as ":Name"), then the RDF vocabularies
    const schemaPrefixes = Object.fromEntries(Object.entries(schema.prefixes).filter(([p]) => p !== ""));
    this.prefixes = { ...WELL_KNOWN, ...schemaPrefixes, ...assumed, ...query.prefixes };
  }

  name(iri: string): string {
    return compactIri(iri, this.prefixes);
  }

  show(term: Term): string {
    return termToSparql(term, this.prefixes);
  }

  report(d: Omit<Diagnostic, "span" | "op">, at?: Origin): void {
    const full: Diagnostic = { ...d };
    if (at?.span) full.span = at.span;
    if (at?.op !== undefined) full.op = at.op;
    (d.severity === "error" ? this.errors : this.warnings).push(full);
  }

  info(name: string): VarInfo {
    let v = this.vars.get(name);
    if (!v) this.vars.set(name, (v = { name, kind: "unknown", classes: [], numeric: false, aggregate: false }));
    return v;
  }
}
