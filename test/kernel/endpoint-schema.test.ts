// schemaFromEndpoint against the test Virtuoso (test/kernel/virtuoso-setup.ts): the schema read
// by paged CONSTRUCT from the graph a file was loaded into equals the schema read from the file;
// the read is cached in a file and reused, and read again on request.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadGraphFile } from "../../ts/rdf/load.js";
import { Schema } from "../../ts/kernel/index.js";
import { schemaFromEndpoint } from "../../ts/kernel/node.js";
import { TEST_GRAPHS } from "./virtuoso-server.js";
import { DBPEDIA_ONTOLOGY, hasShared } from "./real-data.js";
import { DEEP } from "../depth.js";
import { virtuosoReady } from "./virtuoso-ready.js";

// the global setup starts Virtuoso without waiting for it: wait here, before reading its URL
await virtuosoReady();
const VIRTUOSO = process.env.GROUNDWIRE_TEST_SPARQL_URL;
const OLYMPICS = fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url));

/** What a schema says, as plain sorted data: classes, properties with domains and ranges, stated subclass edges, labels. */
function summary(s: Schema) {
  const sorted = (xs: Iterable<string>) => [...xs].sort();
  return {
    classes: sorted(s.classes),
    properties: sorted(s.properties.keys()).map((p) => [p, s.properties.get(p)!.kind, sorted(s.properties.get(p)!.domains), sorted(s.properties.get(p)!.ranges)]),
    superClasses: sorted(s.superClassesOf.keys()).map((c) => [c, sorted(s.superClassesOf.get(c)!)]),
    superProperties: sorted(s.superPropertiesOf.keys()).map((c) => [c, sorted(s.superPropertiesOf.get(c)!)]),
    labels: sorted(s.labels.keys()).map((k) => [k, s.labels.get(k)]),
    namespaces: sorted(s.describedNamespaces),
  };
}

describe.skipIf(!VIRTUOSO)("schemaFromEndpoint on Virtuoso", () => {
  const cases: { name: string; file: string; graph: string; pageSize: number }[] = [{ name: "olympics", file: OLYMPICS, graph: TEST_GRAPHS.olympics, pageSize: 20 }];
  // the DBpedia ontology (≈ 35 s a read on 2 shared cores) in test:deep only; npm test reads the olympics graph
  if (DEEP && hasShared && existsSync(DBPEDIA_ONTOLOGY)) cases.push({ name: "DBpedia ontology", file: DBPEDIA_ONTOLOGY, graph: TEST_GRAPHS.dbpediaOntology, pageSize: 5_000 });

  it.each(cases)("equals the schema read from the file ($name), paged, cached, refreshed", async ({ file, graph, pageSize }) => {
    const cacheDir = mkdtempSync(join(tmpdir(), "groundwire-endpoint-schema-"));
    const fromFile = summary(Schema.fromGraph(loadGraphFile(file)));
    const first = await schemaFromEndpoint(VIRTUOSO!, { graph, pageSize, cacheDir });
    expect(first.cached).toBe(false);
    expect(first.pages).toBeGreaterThan(2);
    const fromEndpoint = summary(first.schema);
    expect(fromEndpoint.classes).toEqual(fromFile.classes);
    expect(fromEndpoint.properties).toEqual(fromFile.properties);
    expect(fromEndpoint.superClasses).toEqual(fromFile.superClasses);
    expect(fromEndpoint.superProperties).toEqual(fromFile.superProperties);
    expect(fromEndpoint.labels).toEqual(fromFile.labels);
    const saved = JSON.parse(readFileSync(first.cacheFile!, "utf8"));
    expect(saved).toMatchObject({ url: VIRTUOSO, graph, fetchedAt: first.fetchedAt });
    const again = await schemaFromEndpoint(VIRTUOSO!, { graph, pageSize, cacheDir });
    expect(again).toMatchObject({ cached: true, pages: 0, fetchedAt: first.fetchedAt });
    expect(summary(again.schema)).toEqual(fromEndpoint);
    const fresh = await schemaFromEndpoint(VIRTUOSO!, { graph, pageSize, cacheDir, refresh: true });
    expect(fresh.cached).toBe(false);
  }, 120_000);
});
