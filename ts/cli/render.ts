/**
 * `groundwire render <graph> <focus> [--hops N] [--max-body-chars N] [--expanded IRI,...] [--json]`
 *
 * Loads an RDF file, assembles the focus's neighborhood, derives node statuses
 * from the graph, renders the MemDSL envelope and prints its wire text (or the
 * Envelope as JSON with --json). The focus and --expanded entries are absolute
 * IRIs (optionally in <>) or prefixed names using the graph's prefixes (then
 * rdf, rdfs, owl, xsd, skos, prov, dcterms, gwm).
 */
import {
  applyNodeStatuses,
  assembleNeighborhood,
  isAddressToken,
  renderNeighborhood,
  serializeEnvelope,
  STANDARD_PREFIXES,
  UnknownFocusError,
} from "../memdsl/index.js";
import { CliError, echo, integerOption, type Command, escapeMessage, parseCommandArgs } from "./common.js";
import { createProgress, dataForStdout, loadGraphInput } from "./io.js";

const USAGE = `usage: groundwire render <graph.ttl|.nt|.nq> <focus IRI or prefixed name> [options]

Render the focus's neighborhood as a MemDSL envelope (wire text on stdout).

options:
  --hops N             neighborhood radius in undirected steps (default 1)
  --max-body-chars N   cut longer bodies to N code points (elided gap + ground handle)
  --expanded IRI,...   nodes already expanded: no expand handle toward them
                       (the nodes inside the radius are always counted as expanded)
  --json               print the Envelope as JSON instead of MemDSL text
  --format F           graph format when the extension is missing (ttl, nt, nq, trig; needed for -)
  -h, --help           this help`;

/** Parse a non-negative integer option, or throw a usage error naming it. */
function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // bounded: a larger radius or cut is a typo, and "8 digits" is not a fault a user can see
  return integerOption("render", name, value, { fallback: 0, min: 0, max: 9_999_999 });
}

/**
 * Resolve a term the user typed: `<iri>`; `prefix:local` with a prefix the graph
 * (then the standard map) declares; an absolute IRI with `://` or a `urn:`,
 * `tag:`, `mailto:` scheme. Anything else is a usage error naming `what`
 * (`dbo:City` without a `dbo` prefix is reported as an unknown prefix, not
 * taken as an IRI with scheme `dbo`; write `<dbo:City>` to mean that).
 */
export function resolveTerm(text: string, prefixes: Record<string, string>, what: string): string {
  const t = text.trim();
  if (t.startsWith("<") && t.endsWith(">")) {
    const iri = t.slice(1, -1);
    if (isAddressToken(iri)) return iri;
    throw new CliError(`render: ${what} ${echo(text)} is not an absolute IRI`, 2);
  }
  const all: Record<string, string> = { ...STANDARD_PREFIXES, ...prefixes };
  const m = /^([A-Za-z][\w.-]*)?:(.*)$/u.exec(t);
  if (m && !m[2].startsWith("//") && Object.hasOwn(all, m[1] ?? "")) return all[m[1] ?? ""] + m[2];
  if (isAddressToken(t) && (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(t) || /^(urn|tag|mailto):/i.test(t))) return t;
  // `http://e/a b` is an IRI with a character IRIs cannot hold, not a prefixed name with prefix "http"
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(t)) throw new CliError(`render: ${what} ${echo(text)} is not an absolute IRI`, 2);
  if (m) throw new CliError(`render: ${what} ${echo(text)} uses the unknown prefix ${echo(`${m[1] ?? ""}:`)}`, 2);
  throw new CliError(`render: ${what} ${echo(text)} is neither an absolute IRI nor a prefixed name`, 2);
}

const command: Command = {
  async run(args) {
    const { values, positionals } = parseCommandArgs("render", args, {
      hops: { type: "string" },
      "max-body-chars": { type: "string" },
      expanded: { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
    }, USAGE);
    // the fault and the usage line, not the whole --help text
    if (positionals.length !== 2) throw new CliError(`render: expected <graph> and <focus>, got ${positionals.length} argument(s)\n${USAGE.split("\n", 1)[0]}`, 2);
    const [path, focusText] = positionals;
    const hops = count("hops", values.hops) ?? 1;
    const maxBodyChars = count("max-body-chars", values["max-body-chars"]) ?? null;

    const progress = createProgress("render", { quiet: values.quiet });
    let graph;
    try {
      graph = loadGraphInput(path, { format: values.format });
    } catch (error) {
      if (error instanceof CliError) throw new CliError(`render: ${error.message}`, error.exitCode);
      throw error;
    }
    const focus = resolveTerm(focusText, graph.prefixes, "focus");
    const expandedByUser = (values.expanded ?? "")
      .split(",")
      .filter((s) => s.trim() !== "")
      .map((s) => resolveTerm(s, graph.prefixes, "--expanded entry"));

    progress.phase("assembling the neighborhood");
    let neighborhood;
    try {
      neighborhood = assembleNeighborhood(graph, focus, { hops });
    } catch (error) {
      if (error instanceof UnknownFocusError) throw new CliError(`render: ${error.message}`);
      throw error;
    }
    const warn = (message: string) => process.stderr.write(`groundwire render: ${escapeMessage(message)}\n`);
    const statuses = applyNodeStatuses(graph, neighborhood, { onProblem: warn });
    const envelope = renderNeighborhood(neighborhood, statuses, {
      focus,
      expanded: [...neighborhood.expanded, ...expandedByUser],
      maxBodyChars,
      logger: { warn },
    });
    progress.done();
    process.stdout.write(values.json ? `${JSON.stringify(envelope, null, 2)}\n` : dataForStdout(serializeEnvelope(envelope)));
    return 0;
  },
};
export default command;
