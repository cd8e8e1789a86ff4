/**
 * `explore_schema` and `GET /schema/NAME`: search a schema the server holds for classes and
 * properties, or describe one term, with example triples from an endpoint or graph the server
 * holds (kernel/explore.ts). The answer is structured and also a few lines of text for a model.
 * With the worker pool, a term whose examples come from an endpoint is described in a worker
 * ({@link describeSchemaTerm}) and its examples asked from the main thread ({@link addEndpointExamples}),
 * as run_sparql does: an endpoint that hangs holds no worker.
 */
import { addTermExamples, describeTerm, searchSchema, type SchemaHit, type TermDescription } from "../kernel/index.js";
import { schemaOf, type CheckContext } from "./checks.js";
import { endpointOf, targetOf } from "./run-sparql.js";
import type { ExploreSchemaInput } from "./schemas.js";

/** How long an example query may take, ms. */
const EXAMPLES_TIMEOUT_MS = 5_000;
/** Longest answer read for example triples, bytes. */
const EXAMPLES_MAX_BYTES = 1024 * 1024;

function hitsText(hits: SchemaHit[]): string {
  if (!hits.length) return "no class or property matches\n";
  return hits.map((h) => `${h.kind} ${h.name}${h.label ? ` "${h.label}"` : ""} (${h.match})`).join("\n") + "\n";
}

function termText(t: TermDescription): string {
  const lines = [`${t.kind} ${t.name}${t.label ? ` "${t.label}"` : ""}`];
  if (t.comment) lines.push(`  comment: ${t.comment}`);
  const row = (key: keyof TermDescription & string, title: string) => {
    const values = t[key] as string[] | undefined;
    if (!values) return;
    const more = t.more[key] ? ` … and ${t.more[key]} more` : "";
    lines.push(`  ${title}: ${values.length ? values.join(", ") : "none"}${more}`);
  };
  if (t.propertyKind) lines.push(`  kind: ${t.propertyKind === "object" ? "object property (an entity)" : t.propertyKind === "datatype" ? "datatype property (a literal)" : "unknown"}`);
  row("domains", "domain");
  row("ranges", "range");
  row("superProperties", "super-properties");
  row("superClasses", "superclasses");
  row("subClasses", "subclasses");
  row("properties", "properties with this domain");
  if (t.candidates) lines.push(`  not in the schema${t.candidates.length ? `; did you mean ${t.candidates.join(", ")}?` : ""}`);
  if (t.examples) lines.push(`  examples:${t.examples.length ? "" : " none"}`, ...t.examples.map((e) => `    ${e}`));
  return lines.join("\n") + "\n";
}

/**
 * Search or describe (see the module comment).
 * @throws NotFoundError (404) for an unknown schema, endpoint or graph; GroundwireError (400) for a term with an undeclared prefix
 */
export async function exploreSchema(ctx: CheckContext, input: ExploreSchemaInput) {
  const schema = schemaOf(ctx, { name: input.schema });
  if (input.search !== undefined) {
    const hits = searchSchema(schema, input.search, input.limit ?? 10);
    return { hits, text: hitsText(hits) };
  }
  const held = (ctx.endpoints?.size ?? 0) + ctx.graphs.size;
  const target = input.endpoint !== undefined || input.graph !== undefined || held === 1 ? targetOf(ctx, input, EXAMPLES_TIMEOUT_MS) : undefined;
  const term = await describeTerm(schema, input.term!, { limit: input.limit ?? 20, store: target?.store });
  return { term, text: termText(term) };
}

/** Whether the examples of this request come from an endpoint (a term, and an endpoint named or the only place held). */
export function examplesFromEndpoint(ctx: CheckContext, input: ExploreSchemaInput): boolean {
  return input.term !== undefined && endpointOf(ctx, input) !== undefined;
}

/** The worker's half: the term described without examples (nothing is sent). */
export async function describeSchemaTerm(ctx: CheckContext, input: ExploreSchemaInput) {
  const schema = schemaOf(ctx, { name: input.schema });
  // an unknown endpoint is refused here, before any work
  targetOf(ctx, input, EXAMPLES_TIMEOUT_MS);
  const term = await describeTerm(schema, input.term!, { limit: input.limit ?? 20 });
  return { term, text: termText(term) };
}

/** The main thread's half: the examples from the endpoint, added to the description (the same answer as {@link exploreSchema}). */
export async function addEndpointExamples(ctx: CheckContext, input: ExploreSchemaInput, described: { term: TermDescription }) {
  // a few example triples: 1 MiB is ample, and the answer is read here, on the main thread
  const { store } = targetOf(ctx, input, EXAMPLES_TIMEOUT_MS, EXAMPLES_MAX_BYTES);
  const term = await addTermExamples(schemaOf(ctx, { name: input.schema }), described.term, store);
  return { term, text: termText(term) };
}
