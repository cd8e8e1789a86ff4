// explore: searchSchema and describeTerm on the olympics schema (the repo's) and the DBpedia
// ontology (../shared/data), with examples from the embedded Oxigraph store.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { Schema, describeTerm, searchSchema } from "../../ts/kernel/index.js";
import { createOxigraphStore } from "../../ts/kernel/node.js";
import { DBPEDIA_ONTOLOGY, hasShared } from "./real-data.js";

const DBO = { dbo: "http://dbpedia.org/ontology/" };
const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));

describe("explore the olympics schema", () => {
  const graph = loadGraphFile(OLYMPICS);
  const schema = Schema.fromGraph(graph);

  it("ranks exact local names first, then prefixes, then did-you-mean near misses", () => {
    expect(searchSchema(schema, "city").map((h) => [h.name, h.match])).toEqual([["ex:City", "exact"]]);
    expect(searchSchema(schema, "host").map((h) => [h.name, h.kind, h.match])).toEqual([["ex:hosted", "property", "prefix"]]);
    expect(searchSchema(schema, "hostd").map((h) => [h.name, h.match])).toEqual([["ex:hosted", "near"]]);
    expect(searchSchema(schema, "zzzz")).toEqual([]);
  });

  it("describes a class and a property, with examples from the store", async () => {
    const store = createOxigraphStore(graph);
    const city = await describeTerm(schema, "ex:City", { store });
    expect(city).toMatchObject({ kind: "class", superClasses: ["ex:Place"], subClasses: ["ex:Capital"], properties: ["ex:country", "ex:hosted"] });
    expect(city.examples).toHaveLength(5);
    expect(city.examples!.every((e) => / a ex:City$/.test(e))).toBe(true);
    const hosted = await describeTerm(schema, "ex:hosted", { store, examples: 2 });
    expect(hosted).toMatchObject({ kind: "property", propertyKind: "object", domains: ["ex:City"], ranges: ["ex:OlympicGames"] });
    expect(hosted.examples).toHaveLength(2);
    expect(hosted.examples![0]).toMatch(/^ex:\w+ ex:hosted ex:\w+$/);
    const typo = await describeTerm(schema, "ex:hosts");
    expect(typo).toMatchObject({ kind: "unknown", candidates: ["ex:hosted"] });
  });
});

describe.skipIf(!hasShared)("explore the DBpedia ontology (../shared/data)", () => {
  const schema = hasShared ? Schema.fromGraph(loadGraphFile(DBPEDIA_ONTOLOGY)) : (null as never);

  it("finds terms by label and local name, bounded", () => {
    const birth = searchSchema(schema, "birth place", 5, { prefixes: DBO });
    expect(birth[0]).toMatchObject({ name: "dbo:birthPlace", kind: "property", label: "birth place", match: "exact" });
    const births = searchSchema(schema, "birth", 5, { prefixes: DBO });
    expect(births).toHaveLength(5);
    expect(births.every((h) => h.match === "prefix" && /^dbo:birth/.test(h.name))).toBe(true);
    expect(searchSchema(schema, "birthplace", 10, { prefixes: DBO })[0]!.name).toBe("dbo:birthPlace");
    expect(searchSchema(schema, "Mountian", 10, { prefixes: DBO }).map((h) => h.name)).toContain("dbo:Mountain");
    expect(searchSchema(schema, "a", 50)).toHaveLength(50);
  });

  it("describes dbo:Person with bounded lists", async () => {
    const person = await describeTerm(schema, "dbo:Person", { limit: 5, prefixes: DBO });
    expect(person.kind).toBe("class");
    expect(person.label).toBe("person");
    expect(person.superClasses).toContain("dbo:Animal");
    expect(person.subClasses).toHaveLength(5);
    expect(person.more.subClasses).toBeGreaterThan(20);
    const birthPlace = await describeTerm(schema, "dbo:birthPlace", { prefixes: DBO });
    expect(birthPlace).toMatchObject({ domains: ["dbo:Animal"], ranges: ["dbo:Place"] });
  });
});
