// Traqula's prefixed-name tokens lex in linear work once ts/deps/traqula-lexing.ts has patched
// them, and a lexer copies its tokens' patterns when it is built. The kernel builds four from
// them: its parser, and the lexers of op fields (compileOps), of nesting and syntax hints, and of
// VALUES rows. Whichever a process builds first, every one of them must lex a long run of name
// characters in linear work: a 50,000-character run took minutes through a lexer built before
// the patch (8,000: 2.4 s through compileOps's, after a first compileOps in a fresh process).
// Each case runs in a fresh process (the built package, dist/node.js), since which lexer is
// built first is per process; the test's time limit is the guard.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = new URL("../../dist/node.js", import.meta.url);
const built = existsSync(fileURLToPath(DIST));

/** Runs `first` (which builds one lexer), then every long-run probe, in a fresh Node process; the probes' messages, one a line. */
function afterFirst(first: string): { code: number | null; lines: string[]; stderr: string } {
  const script = `
    const g = await import(${JSON.stringify(DIST.href)});
    const run = "a".repeat(50000);
    const say = (f) => { try { f(); console.log("ok"); } catch (e) { const m = e.message.split("\\n")[0]; console.log(m.slice(0, 60) + " … " + m.slice(-50)); } };
    say(() => { ${first} });
    say(() => g.compileOps([{ op: "triple", s: "?s", p: run, o: "?o" }]));
    say(() => g.parseSparql(run));
    say(() => g.parseSparql("{".repeat(49) + run));
    say(() => g.parseSparql("SELECT * WHERE { VALUES (?a ?b) { (1 2) } ?s " + run + " ?o }"));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 45_000 });
  return { code: r.status, lines: r.stdout.trim().split("\n"), stderr: r.stderr + (r.error ? String(r.error) : "") };
}

/** What each probe says: its message's first 60 characters, " … ", its last 50. */
const PROBES = [
  `op 1: triple: "p" "${"a".repeat(41)} … is not a property or property path SPARQL can read`,
  "SPARQL syntax error at line 1, column 1: Redundant input, expecting EOF but found: a",
  "SPARQL syntax error at line 1, column 49: nesting deeper than 48 at line 1",
  "SPARQL syntax error at line 1, column 47: unexpected 'a', expecting",
];

/** A message as the child prints it. */
const shown = (m: string) => `${m.slice(0, 60)} … ${m.slice(-50)}`;

describe.skipIf(!built)("a long run of name characters lexes in linear work whichever lexer a process builds first (dist/node.js)", () => {
  const firsts: [string, string][] = [
    ["compileOps (the op-field lexer)", 'g.compileOps([{ op: "triple", s: "?s", p: "<http://e/p>", o: "?y" }])'],
    ["a query nested past the limit (the nesting and hints lexer)", 'g.parseSparql("{".repeat(49) + "?x")'],
    ["a query with a VALUES block (the VALUES rows lexer)", 'g.parseSparql("SELECT * WHERE { VALUES (?a ?b) { (1) } }")'],
    ["a valid query (the parser)", 'g.parseSparql("SELECT * WHERE { ?s ?p ?o }")'],
  ];
  for (const [name, first] of firsts) {
    it(`after ${name}`, () => {
      const { code, lines, stderr } = afterFirst(first);
      expect(code, stderr).toBe(0);
      expect(lines.length, stderr).toBe(5);
      expect(lines[1]).toBe(PROBES[0]);
      expect(lines[2]).toBe(shown(PROBES[1]!));
      expect(lines[3]).toBe(shown(PROBES[2]!));
      expect(lines[4]!.slice(0, 60)).toBe(PROBES[3]!.slice(0, 60));
    });
  }
});
