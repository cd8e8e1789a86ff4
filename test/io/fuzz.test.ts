// A fuzz test per parser (issue 12 "Done when"): random text and random edits of a valid
// input either parse or fail with the parser's own documented error, never a stack
// overflow, a TypeError from inside, or a hang (each case has a time bound).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8, InputFileError } from "../../ts/files.js";
import { checkJsonDepth } from "../../ts/cli/io.js";
import { CliError } from "../../ts/cli/common.js";
import { parseGraph, RdfParseError, type RdfFormat } from "../../ts/rdf/index.js";
import { CritiqueFormatError, parseCritique } from "../../ts/triple-index/index.js";
import { compileOps, GoalError, parseGoal, parseSparql, PlanError, SparqlSyntaxError } from "../../ts/kernel/index.js";
import { parseEnvelope } from "../../ts/memdsl/index.js";
import { MemDSLParseError } from "../../ts/memdsl/schema.js";
import { WireEscapeError } from "../../ts/memdsl/text.js";
import { CitationFormatError, fragmentMarkdown, parseCitation } from "../../ts/evidence/index.js";

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8");
const RUNS = 150;
const SEED = 12;
/** Time bound per parser: all its runs together. */
const BOUND_MS = 60_000;

/** A valid input with up to 8 random edits (insert, delete or replace one character from `alphabet`). */
function mutants(valid: string, alphabet: string): fc.Arbitrary<string> {
  const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom("insert", "delete", "replace"), ch: fc.constantFrom(...alphabet) });
  return fc.array(edit, { maxLength: 8 }).map((edits) => {
    let text = valid;
    for (const { at, kind, ch } of edits) {
      const i = text.length ? at % text.length : 0;
      text = kind === "insert" ? text.slice(0, i) + ch + text.slice(i) : kind === "delete" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + ch + text.slice(i + 1);
    }
    return text;
  });
}

/** Random text, edits of a valid input, and deep nesting of the syntax's brackets. */
function inputs(valid: string, alphabet: string, open: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 200, unit: "binary" }),
    fc.string({ maxLength: 200, unit: fc.constantFrom(...alphabet) }),
    mutants(valid, alphabet),
    fc.integer({ min: 1, max: 3000 }).map((n) => open.repeat(n) + valid),
  );
}

/** Run `parse` over the inputs: it returns, or throws one of `allowed`. */
function fuzz(name: string, arb: fc.Arbitrary<string>, parse: (text: string) => unknown, allowed: Array<new (...args: never[]) => Error>) {
  it(
    name,
    () => {
      fc.assert(
        fc.property(arb, (text) => {
          try {
            parse(text);
          } catch (error) {
            if (!allowed.some((E) => error instanceof E)) throw new Error(`${name}: ${(error as Error)?.name}: ${(error as Error)?.message} on ${JSON.stringify(text.slice(0, 120))}`);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    BOUND_MS,
  );
}

describe("fuzz: every parser fails only with its own error", () => {
  const turtle = fixture("triple-index/field-cases.input.ttl");
  const rdfAlphabet = "<>\"'@:;,.[]()_#^\\ \nabex0123";
  for (const [format, valid] of [
    ["turtle", turtle],
    ["ntriples", '<http://e/a> <http://e/b> "c"@en .\n<http://e/a> <http://e/b> _:x .\n'],
    ["nquads", '<http://e/a> <http://e/b> "c" <http://e/g> .\n_:x <http://e/b> "d"^^<http://e/t> .\n'],
    ["trig", "@prefix ex: <http://e/> .\nex:g { ex:a ex:b ( 1 2 ) ; ex:c [ ex:d \"x\" ] . }\n"],
  ] as const) {
    fuzz(`parseGraph ${format}`, inputs(valid, rdfAlphabet, "["), (t) => parseGraph(t, { format: format as RdfFormat }), [RdfParseError]);
  }

  fuzz(
    "parseCritique",
    inputs('[{"op":"remove","tripleIds":[1,2]},{"op":"replace","tripleIds":["3"],"correctValue":"ex:a ex:b ex:c ."}]', '[]{}":,0123 opremvtiIds\\', "["),
    (t) => {
      checkJsonDepth(t, "critique");
      parseCritique(t);
    },
    [CritiqueFormatError, CliError],
  );

  const sparqlAlphabet = "{}()?<>.;,:\"'#$*+-/ \nSELECTWHEREFILTEROPTIONALUNIONabc01";
  fuzz(
    "parseSparql",
    inputs("PREFIX ex: <http://e/>\nSELECT ?a (COUNT(?b) AS ?n) WHERE { ?a ex:p ?b . OPTIONAL { ?b ex:q \"x\"@en } FILTER(?b > 1) } GROUP BY ?a", sparqlAlphabet, "{"),
    (t) => parseSparql(t),
    [SparqlSyntaxError],
  );

  fuzz(
    "compileOps (op-list plans)",
    inputs('[{"op":"select","vars":["?c"]},{"op":"triple","s":"?c","p":"rdf:type","o":"ex:City"}]', '[]{}":,? opselctvarsrdf:typeexCity', "["),
    (t) => {
      checkJsonDepth(t, "plan");
      compileOps(t);
    },
    [PlanError, GoalError, SparqlSyntaxError, CliError],
  );

  fuzz(
    "parseGoal",
    inputs('{"answer":["?c"],"kind":"entity"}', '[]{}":,? answerkindentity', "["),
    (t) => {
      checkJsonDepth(t, "goal");
      let value: unknown;
      try {
        value = JSON.parse(t);
      } catch {
        return; // not JSON: the CLI says so before parseGoal
      }
      parseGoal(value);
    },
    [GoalError, CliError],
  );

  fuzz(
    "parseEnvelope (MemDSL)",
    inputs(fixture("memdsl/schema-book.elided60.expected.memdsl"), "{}[]<>\"\\:@# \n\tabc01=", "{"),
    (t) => parseEnvelope(t),
    [MemDSLParseError, WireEscapeError],
  );

  fuzz(
    "parseCitation",
    inputs(`${"a".repeat(64)}#sha256:${"b".repeat(64)}`, "0123456789abcdef#:sha ", "#"),
    (t) => parseCitation(t),
    [CitationFormatError],
  );

  fuzz(
    "fragmentMarkdown",
    // deep markdown nesting is issue 15's; here up to 200 characters of any markdown
    fc.oneof(fc.string({ maxLength: 200, unit: "binary" }), mutants(fixture("evidence/awesome-v000.input.md").slice(0, 3000), "#>-*`[]()|!\n 1.")),
    (t) => fragmentMarkdown("doc", t),
    [],
  );

  it(
    "strict UTF-8: any bytes decode or fail with InputFileError naming the byte",
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
          try {
            expect(decodeUtf8(bytes, "f")).toBe(Buffer.from(bytes).toString("utf8"));
          } catch (error) {
            expect(error).toBeInstanceOf(InputFileError);
            const at = Number(/at byte (\d+)$/.exec((error as Error).message)![1]);
            // everything before the offset is valid UTF-8, and the sequence at it is not
            expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, at))).not.toThrow();
            expect(at).toBeLessThan(bytes.length);
          }
        }),
        { numRuns: 500, seed: SEED },
      );
    },
    BOUND_MS,
  );
});
