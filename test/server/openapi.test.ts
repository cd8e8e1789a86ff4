// GET /openapi.json of a real `groundwire serve`: a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator), open without a token but Host-checked, describing
// exactly the routes the app registers, with request bodies generated from the zod schemas;
// and a route called exactly as the document describes it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";
import { createServerApp } from "../../ts/server/app.js";
import { loadServerContext } from "../../ts/server/checks.js";
import { createMootStore } from "../../ts/server/moot-store.js";
import { queryBodySchema } from "../../ts/server/schemas.js";
import { call, CLI, ROOT, startServer, TEST_TOKEN, type RunningServer } from "./serve-process.js";

describe.skipIf(!existsSync(CLI))("GET /openapi.json", () => {
  let server: RunningServer;
  let doc: any;
  beforeAll(async () => {
    server = await startServer([]);
    const r = await call(server.url, "GET", "/openapi.json", undefined, { authorization: "" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    doc = r.json;
  }, 60_000);
  afterAll(async () => server?.stop());

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc)); // the validator resolves references in place
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toBe("3.1.0");
    // every $ref resolves (the result is circular: an op list nests op lists)
    const resolved = validator.resolveRefs() as any;
    expect(resolved.paths["/query"].post.requestBody.content["application/json"].schema.required).toEqual(["text", "corpus"]);
  });

  it("is open without a token but Host-checked, and says which routes need the token", async () => {
    const evil = await fetch(`${server.url}/openapi.json`, { headers: { origin: "http://evil.example" } });
    expect(evil.status).toBe(403);
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/health"].get.security).toEqual([]);
    expect(doc.paths["/openapi.json"].get.security).toEqual([]);
    expect(doc.paths["/books"].get.security).toBeUndefined();
  });

  it("carries the request bodies as the zod schemas generate them", () => {
    const query = doc.components.schemas.QueryBody;
    const fromZod = z.toJSONSchema(queryBodySchema, { io: "input", unrepresentable: "any" }) as any;
    delete fromZod.$schema;
    expect(query).toEqual(fromZod);
    expect(query.required).toEqual(["text", "corpus"]);
    expect(query.properties.k).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 6 });
    expect(query.additionalProperties).toBe(false);
    // a recursive schema's references point inside its component
    const sparql = JSON.stringify(doc.components.schemas.SparqlCheckBody);
    expect(sparql).toContain('"$ref":"#/components/schemas/SparqlCheckBody/$defs/');
    expect(sparql).not.toContain('"$ref":"#/$defs/');
    expect(Object.keys(doc.components.schemas.SparqlCheckBody.properties)).toEqual(["query", "ops", "schema", "goal"]);
  });

  it("describes exactly the routes the app registers", () => {
    const corpus = loadCorpus(join(ROOT, "data/books"));
    const app = createServerApp({
      ...loadServerContext(corpus, [], []),
      moots: createMootStore({ dataDir: null, client: corpus, synth: createExtractiveSynthesizer(), modelName: "extractive" }),
      token: "t",
      version: "0",
    });
    const registered = new Set(
      app.routes
        // /mcp is registered for every method (all but POST answer 405 with Allow: POST): described as POST
        .filter((r) => r.path !== "*" && (r.method !== "ALL" || r.path === "/mcp"))
        .map((r) => `${r.path === "/mcp" ? "POST" : r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const described = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`)));
    expect([...described].sort()).toEqual([...registered].sort());
  });

  it("a route called exactly as described (path, method, the example body) answers 200", async () => {
    const op = doc.paths["/query"].post;
    const media = op.requestBody.content["application/json"];
    expect(media.schema).toEqual({ $ref: "#/components/schemas/QueryBody" });
    const response = await fetch(`${server.url}/query`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}` },
      body: JSON.stringify(media.example),
    });
    expect(response.status).toBe(200);
    expect(Object.keys(op.responses)).toContain("200");
    const { hits } = await response.json();
    expect(hits).toHaveLength(media.example.k);
    expect(hits[0].node_id.startsWith(`${media.example.corpus}#`)).toBe(true);
    // every documented example is accepted by its route (not 400)
    for (const [path, ops] of Object.entries(doc.paths) as Array<[string, any]>) {
      for (const [method, o] of Object.entries(ops) as Array<[string, any]>) {
        const example = o.requestBody?.content?.["application/json"]?.example;
        if (example === undefined) continue;
        const r = await call(server.url, method.toUpperCase(), path, example);
        expect({ path, status: r.status }).toEqual({ path, status: Number(Object.keys(o.responses)[0]) });
      }
    }
  });
});
