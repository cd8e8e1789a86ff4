// An op plan's error quotes the offending field, row or op bounded (ts/quote-value.ts): a field of
// 50,000 characters comes back as its first 80 with an ellipsis and its length, in a message that
// still names the op's position and the field, never as a 50,000-character message.
import { describe, expect, it } from "vitest";
import { compileOps, PlanError } from "../../ts/kernel/index.js";
import { quoteValue } from "../../ts/quote-value.js";

const N = 50_000;
const long = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
const PREFIX = { op: "prefix", prefix: "ex", iri: "http://e/" };
const OK = { op: "triple", s: "?s", p: "ex:p", o: "?o" };

/** The PlanError compileOps throws for `plan`. */
function refusal(plan: unknown): PlanError {
  try {
    compileOps(plan as never);
  } catch (error) {
    if (error instanceof PlanError) return error;
    throw error;
  }
  throw new Error("compiled");
}

// [what, the plan (the long value in its last op), what the message must name besides that op's position]
const CASES: Array<[string, unknown[], string[]]> = [
  ["a term with text after it", [PREFIX, { ...OK, o: `ex:${long("a")} }` }], ['triple: "o" ']],
  ["a subject that is not a string", [PREFIX, { ...OK, s: [long("a")] }], ['triple needs "s"']],
  ["a predicate that is no path", [PREFIX, { ...OK, p: `ex:p ${long("ex:q ")}` }], ['triple: "p"']],
  ["an incomplete filter expression", [PREFIX, OK, { op: "filter", expr: `?o + (${long("1 + ")}` }], ["filter: the expression"]],
  ["a bind variable", [PREFIX, OK, { op: "bind", expr: "1", as: `?${long("v")}!` }], ['"as" as a variable']],
  ["a values row with too many terms", [PREFIX, { op: "values", vars: ["?x"], rows: [Array.from({ length: N / 5 }, () => "ex:a")] }], ["values: row 1"]],
  ["a values row that is not a list", [PREFIX, { op: "values", vars: ["?x"], rows: [long("x")] }], ["values: "]],
  ["a values cell that is not one term", [PREFIX, { op: "values", vars: ["?x"], rows: [[`ex:a ${long("ex:b ")}`]] }], ["values: "]],
  ["a group condition", [PREFIX, OK, { op: "group", by: [`?s ${long("?o ")}`] }], ['group: "by" item 1']],
  ["an order condition", [PREFIX, OK, { op: "order", by: [`?s ${long("?o ")}`] }], ['order: "by" item 1']],
  ["a project column", [PREFIX, OK, { op: "project", vars: [`?s ${long("?o ")}`] }], ['project: "vars" item 1']],
  ["an aggregate fn", [PREFIX, OK, { op: "aggregate", fn: long("f"), as: "?n" }], ["aggregate: unknown fn"]],
  ["a limit that is a string", [PREFIX, OK, { op: "limit", n: long("9") }], ['limit needs "n"']],
  ["an unknown op", [PREFIX, { op: long("x") }], ["unknown op"]],
  ["an unknown op inside optional", [PREFIX, { op: "optional", ops: [{ op: long("x") }] }], ["unknown op"]],
  ["a prefix name", [PREFIX, { op: "prefix", prefix: `-${long("a")}`, iri: "http://e/" }], ['prefix needs "prefix"']],
  ["a prefix's IRI", [PREFIX, { op: "prefix", prefix: long("a"), iri: "http://e/ x" }], ["prefix "]],
  ["an op that is a string", [PREFIX, long("x")], ["expected an op object"]],
  ["an op that is a list", [PREFIX, [long("x")]], ["expected an op object"]],
  ["an undeclared prefix", [PREFIX, { ...OK, p: `${long("a")}:p` }], ["triple: undeclared prefix"]],
  ["an undeclared prefix in an expression", [PREFIX, OK, { op: "filter", expr: `?o = ${long("a")}:x` }], ["filter: undeclared prefix"]],
  ["a goal kind", [PREFIX, { op: "goal", answer: ["?c"], kind: long("k") }], ['"kind"']],
  ["a goal type with an undeclared prefix", [PREFIX, { op: "goal", answer: ["?c"], kind: "entity", type: `zz:${long("a")}` }], ['malformed goal: "type" "zz:aaa']],
  ["a goal answer that is not a variable", [PREFIX, { op: "goal", answer: [`?${long("a")}!`], kind: "entity" }], ['"answer"']],
];

describe("op-list errors quote a long field bounded", () => {
  it.each(CASES)("%s", (_, plan, names) => {
    const error = refusal(plan);
    expect(error.message.length, error.message.slice(0, 300)).toBeLessThan(600);
    expect(error.message).toMatch(new RegExp(`^op ${plan.length}: `));
    expect(error.op).toBe(plan.length - 1);
    for (const name of names) expect(error.message).toContain(name);
    // the quote is cut, and says how long the whole was
    expect(error.message).toMatch(/… \(\d{5,} characters( of JSON)?\)/);
  });

  it("a plan that is no list is quoted bounded too", () => {
    const error = refusal(JSON.stringify(long("x")));
    expect(error.message).toBe(`a plan is a JSON list of ops, got ${JSON.stringify("x".repeat(80))}… (${N} characters)`);
  });

  it("short values are quoted as JSON.stringify writes them, as before", () => {
    expect(refusal([PREFIX, { ...OK, o: "ex:a }" }]).message).toBe('op 2: triple: "o" "ex:a }" is not one term: after ex:a comes "}"');
    expect(refusal([PREFIX, { op: "limit", n: "3" }]).message).toBe('op 2: limit needs "n" as a non-negative integer, got "3"');
    expect(refusal([PREFIX, { op: "goal", answer: ["?c"], kind: "entity", type: "zz:City" }]).message).toBe('op 2: malformed goal: "type" "zz:City" uses an undeclared prefix');
  });
});

describe("quoteValue", () => {
  it("quotes short values as JSON.stringify does", () => {
    for (const v of ["ex:a", "", 'a"b\n', 42, null, true, ["?x", 1], { op: "x" }]) expect(quoteValue(v)).toBe(JSON.stringify(v));
    expect(quoteValue(undefined)).toBe("undefined");
    expect(quoteValue(10n)).toBe("10");
  });

  it("cuts a long string to the limit with an ellipsis and its full length, never inside a surrogate pair", () => {
    expect(quoteValue("a".repeat(81))).toBe(`"${"a".repeat(80)}"… (81 characters)`);
    expect(quoteValue("a".repeat(80))).toBe(`"${"a".repeat(80)}"`);
    expect(quoteValue(`${"a".repeat(79)}😀b`)).toBe(`"${"a".repeat(79)}"… (82 characters)`);
    expect(quoteValue("abcdef", 3)).toBe('"abc"… (6 characters)');
  });

  it("cuts another value's JSON text, its length counted in characters of JSON", () => {
    const row = Array.from({ length: 100 }, () => "ex:a");
    const json = JSON.stringify(row);
    expect(quoteValue(row)).toBe(`${json.slice(0, 80)}… (${json.length} characters of JSON)`);
  });
});
