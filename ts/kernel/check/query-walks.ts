/**
 * Walks over the algebra the checker needs: a triple's or expression's variables, a path's IRIs,
 * aggregates, explicit blank nodes, mixed negated property sets.
 */
import type { Expr, Iri, Origin, Path, TriplePattern, Variable } from "../algebra.js";

export function tripleVars(t: TriplePattern): Variable[] {
  const out: Variable[] = [];
  if (t.s.kind === "var") out.push(t.s);
  if (t.p.kind === "var") out.push(t.p);
  if (t.o.kind === "var") out.push(t.o);
  return out;
}

export function pathIris(p: Path): Iri[] {
  switch (p.kind) {
    case "link":
      return [p.iri];
    case "inv":
    case "mod":
      return pathIris(p.path);
    case "seq":
    case "alt":
    case "nps":
      return p.items.flatMap(pathIris);
  }
}

export function firstLink(p: Path): Iri | undefined {
  if (p.kind === "link") return p.iri;
  if (p.kind === "seq") return firstLink(p.items[0]);
  return undefined;
}

/** Whether an expression contains an aggregate (not looking into EXISTS). */
export function hasAggregate(e: Expr): boolean {
  if (e.kind === "aggregate") return true;
  if (e.kind === "call") return e.args.some(hasAggregate);
  return false;
}

/** Variables an expression reads outside aggregates and outside EXISTS (which has its own scope), BOUND's argument included. */
export function freeVars(e: Expr): Variable[] {
  switch (e.kind) {
    case "term":
      return e.term.kind === "var" ? [{ ...e.term, at: e.term.at ?? e.at }] : [];
    case "call":
      return e.args.flatMap((a) => freeVars(a));
    case "aggregate":
    case "exists":
      return [];
  }
}

/** `e` with every free occurrence of ?name (outside aggregates and EXISTS) replaced by `by`. */
export function substitute(e: Expr, name: string, by: Expr): Expr {
  if (e.kind === "term") return e.term.kind === "var" && e.term.name === name ? by : e;
  if (e.kind === "call") return { ...e, args: e.args.map((a) => substitute(a, name, by)) };
  return e;
}

/** The explicit blank node labels (`_:a`, Traqula's `e_` labels; not `[]`) of a basic graph pattern. */
export function explicitBlankNodes(triples: TriplePattern[]): { label: string; at?: Origin }[] {
  const out: { label: string; at?: Origin }[] = [];
  for (const t of triples) for (const n of [t.s, t.o]) if (n.kind === "bnode" && n.label.startsWith("e_")) out.push({ label: n.label.slice(2), at: n.at ?? t.at });
  return out;
}

/** Negated property sets of a path that mix forward and inverse members (`!(ex:r|^ex:r)`). */
export function mixedNegatedSets(p: Path): Path[] {
  switch (p.kind) {
    case "nps": {
      const inverse = p.items.filter((i) => i.kind === "inv").length;
      return inverse > 0 && inverse < p.items.length ? [p] : [];
    }
    case "inv":
    case "mod":
      return mixedNegatedSets(p.path);
    case "seq":
    case "alt":
      return p.items.flatMap(mixedNegatedSets);
    case "link":
      return [];
  }
}

export function varsOf(e: Expr): Variable[] {
  switch (e.kind) {
    case "term":
      return e.term.kind === "var" ? [e.term] : [];
    case "call":
      return e.args.flatMap(varsOf);
    case "aggregate":
      return e.arg === "*" ? [] : varsOf(e.arg);
    case "exists":
      return [];
  }
}

/** Variables an expression reads inside its aggregates' arguments (not inside EXISTS). */
export function aggregatedVars(e: Expr): Variable[] {
  switch (e.kind) {
    case "aggregate":
      return e.arg === "*" ? [] : varsOf(e.arg).map((v) => ({ ...v, at: v.at ?? e.at }));
    case "call":
      return e.args.flatMap(aggregatedVars);
    default:
      return [];
  }
}
