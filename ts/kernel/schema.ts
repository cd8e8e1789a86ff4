/**
 * The schema the kernel checks plans against: classes, properties, datatypes,
 * rdfs:domain / rdfs:range, and the reflexive-transitive closure of
 * rdfs:subClassOf and rdfs:subPropertyOf (ts/kernel/closure.ts, WASM by default).
 * RDFS and OWL declarations both count. A namespace is *described* when the
 * schema declares any term in it (DESIGN §2); only described namespaces get
 * "unknown term" errors.
 */
import type { Graph } from "../rdf/index.js";
import type { BackendRequest } from "../../bindings/wasm.js";
import { closureHas, computeClosure, type Closure } from "./closure.js";

import { RDF_NS as RDF, RDF_TYPE, XSD } from "../rdf/format-term.js";
import { checkArgs } from "../arg-kinds.js";

export { RDF, RDF_TYPE, XSD };
export const RDFS = "http://www.w3.org/2000/01/rdf-schema#";
export const OWL = "http://www.w3.org/2002/07/owl#";

const CLASS_TYPES = new Set([`${OWL}Class`, `${RDFS}Class`]);
const PROPERTY_TYPES = new Set([
  `${RDF}Property`,
  `${OWL}ObjectProperty`,
  `${OWL}DatatypeProperty`,
  `${OWL}AnnotationProperty`,
  `${OWL}FunctionalProperty`,
  `${OWL}InverseFunctionalProperty`,
  `${OWL}TransitiveProperty`,
  `${OWL}SymmetricProperty`,
  `${OWL}AsymmetricProperty`,
  `${OWL}ReflexiveProperty`,
  `${OWL}IrreflexiveProperty`,
  `${OWL}OntologyProperty`,
]);
const DATATYPE_TYPES = new Set([`${RDFS}Datatype`]);
/** The types that declare a schema term rather than an individual (classes, property kinds, datatypes, OWL's own vocabulary). */
function isMetaType(iri: string): boolean {
  if (iri === `${OWL}NamedIndividual` || iri === `${OWL}Thing`) return false;
  return CLASS_TYPES.has(iri) || PROPERTY_TYPES.has(iri) || DATATYPE_TYPES.has(iri) || iri.startsWith(OWL) || iri.startsWith(RDFS) || iri.startsWith(RDF);
}
/** Top classes: every entity is one, so they never make a type warning or an open goal. */
const TOP_CLASSES = new Set([`${OWL}Thing`, `${RDFS}Resource`]);

/** The RDF and RDFS vocabularies (RDF 1.1 Schema): these namespaces are always described. */
const BUILTIN_PROPERTIES = [
  `${RDF}type`, `${RDF}subject`, `${RDF}predicate`, `${RDF}object`, `${RDF}first`, `${RDF}rest`, `${RDF}value`,
  `${RDFS}subClassOf`, `${RDFS}subPropertyOf`, `${RDFS}domain`, `${RDFS}range`, `${RDFS}label`, `${RDFS}comment`,
  `${RDFS}member`, `${RDFS}seeAlso`, `${RDFS}isDefinedBy`,
];
const BUILTIN_CLASSES = [
  `${RDF}Property`, `${RDF}Statement`, `${RDF}List`, `${RDF}Bag`, `${RDF}Seq`, `${RDF}Alt`, `${RDF}langString`,
  `${RDF}HTML`, `${RDF}XMLLiteral`, `${RDF}JSON`, `${RDF}CompoundLiteral`, `${RDF}PlainLiteral`, `${RDF}nil`,
  `${RDFS}Resource`, `${RDFS}Class`, `${RDFS}Literal`, `${RDFS}Datatype`, `${RDFS}Container`,
  `${RDFS}ContainerMembershipProperty`,
];
const NUMERIC_XSD = new Set(
  ["integer", "decimal", "float", "double", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger",
    "negativeInteger", "long", "int", "short", "byte", "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte"]
    .map((t) => XSD + t),
);

/** The namespace of an IRI: everything up to and including its last `#` or `/` (or `:` for URNs). */
export function namespaceOf(iri: string): string {
  checkArgs("namespaceOf", arguments, "iri:string");
  const cut = Math.max(iri.lastIndexOf("#"), iri.lastIndexOf("/"));
  if (cut >= 0 && cut < iri.length - 1) return iri.slice(0, cut + 1);
  const colon = iri.lastIndexOf(":");
  return colon >= 0 ? iri.slice(0, colon + 1) : iri;
}

/** What the schema knows about one property. */
export interface PropertyInfo {
  iri: string;
  /** rdfs:domain values (a conjunction, as RDFS says). */
  domains: string[];
  /** rdfs:range values; a datatype range means the object is a literal. */
  ranges: string[];
  /** owl:ObjectProperty (object is an entity), owl:DatatypeProperty (object is a literal), or unknown. */
  kind: "object" | "datatype" | "unknown";
}

/** A checked schema. Build it with `Schema.fromGraph(graph)`. */
export class Schema {
  /** Declared or implied classes (rdf:type owl:Class/rdfs:Class, either end of rdfs:subClassOf, domains, ranges that are not datatypes). */
  readonly classes = new Set<string>();
  /** Declared or implied properties, with their domains and ranges. */
  readonly properties = new Map<string, PropertyInfo>();
  /** Datatypes: rdfs:Datatype declarations, every xsd: IRI used, rdf:langString, rdfs:Literal. */
  readonly datatypes = new Set<string>();
  /** Namespaces of the declared terms (plus rdf: and rdfs:). */
  readonly describedNamespaces = new Set<string>([RDF, RDFS]);
  /** Prefixes the schema source declared (used to print terms). */
  readonly prefixes: Record<string, string>;
  /**
   * Terms of each described namespace, for did-you-mean: its classes, its properties, and
   * `others`, every other IRI of the namespace the schema graph mentions (individuals,
   * datatypes, odd IRIs such as DBpedia's `dbo:Location`).
   */
  readonly termsByNamespace = new Map<string, { classes: string[]; properties: string[]; others: string[] }>();
  /** Every IRI the schema graph mentions in any position (subject, predicate, object, literal datatype), plus the built-in RDF/RDFS terms. */
  readonly mentioned = new Set<string>();
  /**
   * Described namespaces in which the graph holds typed individuals (`ex:Paris a ex:City`):
   * the graph is a KG for them, so an IRI of such a namespace it never mentions is unknown to it.
   * In a namespace without individuals (an ontology alone, e.g. DBpedia's `dbo:`) an unmentioned
   * IRI may be an individual of data the schema does not carry.
   */
  readonly individualNamespaces = new Set<string>();
  /** One rdfs:label per class or property (English, else untagged, else the first), for search and display. */
  readonly labels = new Map<string, string>();
  /** One rdfs:comment per class or property (English, else untagged, else the first). */
  readonly comments = new Map<string, string>();
  /** Direct rdfs:subClassOf edges: class → its stated superclasses, and superclass → its stated subclasses. */
  readonly superClassesOf = new Map<string, string[]>();
  readonly subClassesOf = new Map<string, string[]>();
  /** Direct rdfs:subPropertyOf edges: property → its stated super-properties. */
  readonly superPropertiesOf = new Map<string, string[]>();
  private readonly classIds = new Map<string, number>();
  private readonly propertyIds = new Map<string, number>();
  private classClosure!: Closure;
  private propertyClosure!: Closure;

  private constructor(prefixes: Record<string, string>) {
    this.prefixes = prefixes;
  }

  /**
   * Read a schema from an RDF graph (an ontology, or a KG carrying its own schema).
   * Follows RDFS 1.1 and the OWL 2 declarations named above. Cycles of rdfs:subClassOf
   * (equivalent classes by mutual subclassing) are condensed by the closure.
   * owl:equivalentClass / owl:equivalentProperty are not followed: in DBpedia they point
   * at schema.org and Wikidata terms, and chains through those would merge unrelated
   * DBpedia terms (dbo:deathPlace ≡ wikidata:P20 ≡ … would give it a Country range).
   * @param options.backend closure backend ("auto" default: WASM when loaded)
   */
  static fromGraph(graph: Graph, options: { backend?: BackendRequest } = {}): Schema {
    checkArgs("Schema.fromGraph", arguments, "graph:graph options?:object");
    const schema = new Schema({ ...graph.prefixes });
    const store = graph.store;
    const declared = new Set<string>();
    const property = (iri: string): PropertyInfo => {
      let info = schema.properties.get(iri);
      if (!info) schema.properties.set(iri, (info = { iri, domains: [], ranges: [], kind: "unknown" }));
      return info;
    };
    for (const q of store.getQuads(null, RDF_TYPE, null, null)) {
      if (q.subject.termType !== "NamedNode") continue;
      const s = q.subject.value;
      const t = q.object.value;
      if (CLASS_TYPES.has(t)) schema.classes.add(s), declared.add(s);
      else if (PROPERTY_TYPES.has(t)) {
        const info = property(s);
        if (t === `${OWL}ObjectProperty`) info.kind = "object";
        else if (t === `${OWL}DatatypeProperty`) info.kind = "datatype";
        declared.add(s);
      } else if (DATATYPE_TYPES.has(t)) schema.datatypes.add(s), declared.add(s);
    }
    for (const b of [...BUILTIN_CLASSES]) schema.classes.add(b);
    for (const p of BUILTIN_PROPERTIES) property(p);
    schema.datatypes.add(`${RDF}langString`).add(`${RDFS}Literal`).add(`${RDF}PlainLiteral`).add(`${RDF}XMLLiteral`).add(`${RDF}HTML`);
    const subClass: [string, string][] = [];
    for (const q of store.getQuads(null, `${RDFS}subClassOf`, null, null)) {
      if (q.subject.termType !== "NamedNode" || q.object.termType !== "NamedNode") continue;
      schema.classes.add(q.subject.value).add(q.object.value);
      subClass.push([q.subject.value, q.object.value]);
    }
    const subProperty: [string, string][] = [];
    for (const q of store.getQuads(null, `${RDFS}subPropertyOf`, null, null)) {
      if (q.subject.termType !== "NamedNode" || q.object.termType !== "NamedNode") continue;
      property(q.subject.value);
      property(q.object.value);
      subProperty.push([q.subject.value, q.object.value]);
    }
    const isDatatype = (iri: string) => schema.datatypes.has(iri) || iri.startsWith(XSD);
    for (const q of store.getQuads(null, `${RDFS}domain`, null, null)) {
      if (q.subject.termType !== "NamedNode" || q.object.termType !== "NamedNode") continue;
      property(q.subject.value).domains.push(q.object.value);
      schema.classes.add(q.object.value);
    }
    for (const q of store.getQuads(null, `${RDFS}range`, null, null)) {
      if (q.subject.termType !== "NamedNode" || q.object.termType !== "NamedNode") continue;
      const info = property(q.subject.value);
      info.ranges.push(q.object.value);
      if (isDatatype(q.object.value)) {
        if (q.object.value.startsWith(XSD)) schema.datatypes.add(q.object.value);
        if (info.kind === "unknown") info.kind = "datatype";
      } else {
        schema.classes.add(q.object.value);
        if (info.kind === "unknown") info.kind = "object";
      }
    }
    for (const iri of declared) schema.describedNamespaces.add(namespaceOf(iri));
    const mentioned = schema.mentioned;
    for (const q of store.getQuads(null, null, null, null)) {
      if (q.subject.termType === "NamedNode") mentioned.add(q.subject.value);
      mentioned.add(q.predicate.value);
      if (q.object.termType === "NamedNode") mentioned.add(q.object.value);
      else if (q.object.termType === "Literal") mentioned.add(q.object.datatype.value);
      // a typed individual: the subject of rdf:type with a class that is not a schema meta-class (owl:Class, rdf:Property, …)
      if (q.predicate.value === RDF_TYPE && q.subject.termType === "NamedNode" && !isMetaType(q.object.value)) {
        const ns = namespaceOf(q.subject.value);
        if (schema.describedNamespaces.has(ns) && !schema.classes.has(q.subject.value) && !schema.properties.has(q.subject.value)) schema.individualNamespaces.add(ns);
      }
    }
    for (const iri of [...schema.classes, ...schema.properties.keys(), ...schema.datatypes]) mentioned.add(iri);
    for (const iri of mentioned) {
      const ns = namespaceOf(iri);
      if (!schema.describedNamespaces.has(ns)) continue;
      let bucket = schema.termsByNamespace.get(ns);
      if (!bucket) schema.termsByNamespace.set(ns, (bucket = { classes: [], properties: [], others: [] }));
      (schema.classes.has(iri) ? bucket.classes : schema.properties.has(iri) ? bucket.properties : bucket.others).push(iri);
    }
    for (const [c, p] of subClass) push(schema.superClassesOf, c, p), push(schema.subClassesOf, p, c);
    for (const [c, p] of subProperty) push(schema.superPropertiesOf, c, p);
    readText(store, `${RDFS}label`, schema, schema.labels);
    readText(store, `${RDFS}comment`, schema, schema.comments);
    schema.classClosure = buildClosure(schema.classes, subClass, schema.classIds, options.backend);
    schema.propertyClosure = buildClosure(schema.properties.keys(), subProperty, schema.propertyIds, options.backend);
    return schema;
  }

  /** Whether the namespace of `iri` is described by this schema. */
  describes(iri: string): boolean {
    return this.describedNamespaces.has(namespaceOf(iri));
  }

  /** Whether `iri` is a known class. */
  isClass(iri: string): boolean {
    return this.classes.has(iri);
  }

  /**
   * Whether `iri` is a term the schema knows in any role: a class, a property, a datatype
   * (any xsd: IRI included), or any other IRI its graph mentions (an individual, an
   * annotation value). An IRI outside the described namespaces is never "known" here;
   * ask `describes` first.
   */
  isKnownTerm(iri: string): boolean {
    return this.mentioned.has(iri) || (typeof iri === "string" && iri.startsWith(XSD));
  }

  /** Whether `iri` is a known property. */
  isProperty(iri: string): boolean {
    return this.properties.has(iri);
  }

  /** Whether `iri` names a datatype (declared, or any xsd: IRI). */
  isDatatype(iri: string): boolean {
    return this.datatypes.has(iri) || (typeof iri === "string" && iri.startsWith(XSD));
  }

  /** Whether `iri` is a numeric XSD datatype. */
  isNumericDatatype(iri: string): boolean {
    return NUMERIC_XSD.has(iri);
  }

  /** Whether `iri` is a top class (owl:Thing, rdfs:Resource). */
  isTopClass(iri: string): boolean {
    return TOP_CLASSES.has(iri);
  }

  /** `sub rdfs:subClassOf* sup` by the reflexive-transitive closure; top classes are above everything. */
  isSubClassOf(sub: string, sup: string): boolean {
    if (sub === sup || TOP_CLASSES.has(sup)) return true;
    const a = this.classIds.get(sub);
    const b = this.classIds.get(sup);
    return a !== undefined && b !== undefined && closureHas(this.classClosure, a, b);
  }

  /** `sub rdfs:subPropertyOf* sup` by the reflexive-transitive closure. */
  isSubPropertyOf(sub: string, sup: string): boolean {
    if (sub === sup) return true;
    const a = this.propertyIds.get(sub);
    const b = this.propertyIds.get(sup);
    return a !== undefined && b !== undefined && closureHas(this.propertyClosure, a, b);
  }

  /** Domains of `p` including those inherited from its super-properties (RDFS rule rdfs2 with rdfs7). */
  domainsOf(p: string): string[] {
    return this.inherited(p, (info) => info.domains);
  }

  /** Ranges of `p` including those inherited from its super-properties. */
  rangesOf(p: string): string[] {
    return this.inherited(p, (info) => info.ranges);
  }

  /** The closure backend that built the class closure. */
  get closureBackend(): "wasm" | "ts" {
    return this.classClosure.backend;
  }

  private inherited(p: string, pick: (info: PropertyInfo) => string[]): string[] {
    const own = this.properties.get(p);
    if (!own) return [];
    const id = this.propertyIds.get(p);
    const out = new Set(pick(own));
    if (id !== undefined) {
      const c = this.propertyClosure;
      const k = c.sccOf[id];
      for (let i = c.offsets[k]; i < c.offsets[k + 1]; i++) {
        const sup = this.propertyIris[c.ancestors[i]];
        for (const v of pick(this.properties.get(sup)!)) out.add(v);
      }
    }
    return [...out];
  }

  private get propertyIris(): string[] {
    return (this._propertyIris ??= [...this.propertyIds.keys()]);
  }
  private _propertyIris?: string[];
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One literal of `predicate` per class or property: English first, then untagged, then the first seen. */
function readText(store: Graph["store"], predicate: string, schema: Schema, into: Map<string, string>): void {
  const rank = new Map<string, number>();
  for (const q of store.getQuads(null, predicate, null, null)) {
    const s = q.subject.value;
    if (q.subject.termType !== "NamedNode" || q.object.termType !== "Literal" || !(schema.classes.has(s) || schema.properties.has(s))) continue;
    const lang = q.object.language;
    const r = lang === "en" || lang.startsWith("en-") ? 0 : lang === "" ? 1 : 2;
    if ((rank.get(s) ?? 3) > r) rank.set(s, r), into.set(s, q.object.value);
  }
}

function buildClosure(
  terms: Iterable<string>,
  edges: [string, string][],
  ids: Map<string, number>,
  backend: BackendRequest | undefined,
): Closure {
  for (const t of terms) if (!ids.has(t)) ids.set(t, ids.size);
  const child = new Uint32Array(edges.length);
  const parent = new Uint32Array(edges.length);
  edges.forEach(([c, p], i) => {
    child[i] = ids.get(c)!;
    parent[i] = ids.get(p)!;
  });
  return computeClosure(ids.size, child, parent, { backend });
}
