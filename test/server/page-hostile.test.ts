// The page's API routes against a hostile client: a real `groundwire serve` from dist/ with a
// --history folder. The token is wanted on every page route (never read from the query
// string); a foreign Origin or Host (DNS rebinding) answers 403; history names with `../`,
// encoded `%2e%2e%2f`, absolute paths or NUL answer 404 naming only what was asked; bad JSON,
// a huge body and deep nesting answer 400/413 in words; 64 event streams opened and dropped at
// once leave none counted (64 open again) and /health answering; the token never reaches the
// request log; two --history folders of one name are refused at start.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CLI, rawRequest, ROOT, serveRefuses, startServer, TEST_TOKEN, type RunningServer } from "./serve-process.js";

let server: RunningServer;
let scratch: string;
const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };

describe.skipIf(!existsSync(CLI))("the page's routes against a hostile client (dist/cli.js)", () => {
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "groundwire-page-hostile-"));
    mkdirSync(join(scratch, "awesome"));
    copyFileSync(join(ROOT, "test/fixtures/evidence/awesome-v000.input.md"), join(scratch, "awesome", "v000.md"));
    // no --quiet: the request log is read below
    server = await startServer(["--history", join(scratch, "awesome")]);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const ROUTES = ["/moots", "/books/passages?book=novel/frankenstein", "/histories", "/histories/awesome/v000.md", "/moots/x/events"];

  it("want the token in its header on every route: none, a wrong one, or one in the query string is 401", async () => {
    for (const route of ROUTES) {
      const sep = route.includes("?") ? "&" : "?";
      const statuses = [
        (await rawRequest(server.url, "GET", route)).status,
        (await rawRequest(server.url, "GET", route, { authorization: "Bearer wrong-token" })).status,
        (await rawRequest(server.url, "GET", `${route}${sep}token=${TEST_TOKEN}`)).status,
        (await rawRequest(server.url, "GET", `${route}${sep}access_token=${TEST_TOKEN}`)).status,
      ];
      expect(statuses, route).toEqual([401, 401, 401, 401]);
    }
    for (const [path, body] of [["/passages/show", { node: "novel/frankenstein#chapter-5-1" }], ["/locate", { quote: "a dreary night", book: "novel/frankenstein" }]] as const) {
      expect((await rawRequest(server.url, "POST", `${path}?access_token=${TEST_TOKEN}`, { "content-type": "application/json" }, JSON.stringify(body))).status).toBe(401);
    }
  });

  it("answer 403 to a foreign Origin or Host (DNS rebinding), the page's files included", async () => {
    for (const route of [...ROUTES, "/"]) {
      expect((await rawRequest(server.url, "GET", route, { ...AUTH, origin: "http://evil.example" })).status, route).toBe(403);
      expect((await rawRequest(server.url, "GET", route, { ...AUTH, host: "evil.example" })).status, route).toBe(403);
      expect((await rawRequest(server.url, "GET", route, { ...AUTH, host: `evil.example:${new URL(server.url).port}` })).status, route).toBe(403);
    }
  });

  it("serve only the listed history versions: traversal, absolute paths and NUL are 404s", async () => {
    expect((await rawRequest(server.url, "GET", "/histories/awesome/v000.md", AUTH)).status).toBe(200);
    const asked: Array<[string, string | null]> = [
      ["%2e%2e%2fawesome/v000.md", "../awesome/v000.md"],
      ["awesome/..%2f..%2f..%2fetc%2fpasswd", "awesome/../../../etc/passwd"],
      ["%2Fetc%2Fpasswd/v000.md", "/etc/passwd/v000.md"],
      ["awesome/v000.md%00", "awesome/v000.md\u0000"],
      ["awesome/%ff%fe", "awesome/%ff%fe"],
      ["../awesome/v000.md", null],
      ["awesome/../../../etc/passwd", null],
    ];
    for (const [path, named] of asked) {
      const r = await rawRequest(server.url, "GET", `/histories/${path}`, AUTH);
      expect(r.status, path).toBe(404);
      const message = JSON.parse(r.body).error.message as string;
      if (named !== null) expect(message).toBe(`no history version ${JSON.stringify(named)} (GET /histories lists them)`);
      expect(message).not.toMatch(/root:|v000 input|#/);
    }
  });

  it("answer bad JSON, huge and deep bodies, and unknown or traversing book names in words", async () => {
    const post = (path: string, body: string) => rawRequest(server.url, "POST", path, { ...AUTH, "content-type": "application/json" }, body);
    for (const path of ["/passages/show", "/locate"]) {
      expect(JSON.parse((await post(path, "{")).body).error).toMatchObject({ code: "bad_request", message: "Malformed JSON in request body" });
      const huge = await post(path, JSON.stringify({ text: "a ".repeat(1_100_000) }));
      expect([huge.status, JSON.parse(huge.body).error.message]).toEqual([413, "the request body is larger than 2097152 bytes (--max-body)"]);
      const deep = await post(path, `{"x":${"[".repeat(50_000)}${"]".repeat(50_000)}}`);
      expect([deep.status, JSON.parse(deep.body).error.message]).toEqual([400, "x: nested deeper than 1,000 levels of arrays and objects"]);
    }
    const holds = "the corpus holds diary/pepys-1660, novel/frankenstein";
    expect(JSON.parse((await post("/passages/show", JSON.stringify({ node: "../../etc/passwd#x" }))).body).error.message).toBe(`unknown book "../../etc/passwd"; ${holds}`);
    expect(JSON.parse((await post("/locate", JSON.stringify({ quote: "a dreary night", book: "/etc/passwd" }))).body).error.message).toBe(`unknown book "/etc/passwd"; ${holds}`);
    expect(JSON.parse((await rawRequest(server.url, "GET", "/books/passages?book=..%2F..%2Fetc%2Fpasswd", AUTH)).body).error.message).toBe(`unknown book "../../etc/passwd"; ${holds}`);
    expect(JSON.parse((await rawRequest(server.url, "GET", "/moots/..%2F..%2Fetc/events", AUTH)).body).error.message).toBe('no moot "../../etc"');
  });

  it("64 event streams opened and dropped at once leave none open: 64 open again, and /health answers throughout", async () => {
    const moot = await call(server.url, "POST", "/moots", { keys: ["novel/frankenstein", "diary/pepys-1660"], topic: "fire", turns: 2 });
    const events = `/moots/${moot.json.id}/events`;
    const openAll = async (n: number) => {
      const ctls = Array.from({ length: n }, () => new AbortController());
      const statuses = await Promise.all(ctls.map(async (c) => (await fetch(`${server.url}${events}`, { headers: AUTH, signal: c.signal })).status));
      return { statuses, drop: () => ctls.forEach((c) => c.abort()) };
    };
    const first = await openAll(66);
    expect(first.statuses.filter((s) => s === 200)).toHaveLength(64);
    expect(first.statuses.filter((s) => s === 503)).toHaveLength(2);
    expect((await rawRequest(server.url, "GET", "/health")).status).toBe(200);
    first.drop();
    // dropped by closing the socket mid-stream, as a closed tab does
    const { port } = new URL(server.url);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), "127.0.0.1", () => socket.write(`GET ${events} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n\r\n`));
          socket.once("data", () => (socket.destroy(), resolve()));
        }),
      ),
    );
    // the count returns to 0: all 64 open again (retried briefly while the drops are noticed)
    let again: Awaited<ReturnType<typeof openAll>> | null = null;
    for (let i = 0; i < 20; i++) {
      again = await openAll(64);
      if (again.statuses.every((s) => s === 200)) break;
      again.drop();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again!.statuses.filter((s) => s === 200)).toHaveLength(64);
    again!.drop();
    expect(JSON.parse((await rawRequest(server.url, "GET", "/health")).body).ok).toBe(true);
  });

  it("never writes the token to the request log, even when sent in the query string", async () => {
    await rawRequest(server.url, "GET", `/histories?token=${TEST_TOKEN}`, AUTH);
    await rawRequest(server.url, "GET", `/books/passages?book=novel/frankenstein&access_token=${TEST_TOKEN}`, AUTH);
    expect(server.stderr()).toContain('"route":"/histories"');
    expect(server.stderr()).not.toContain(TEST_TOKEN);
  });

  it("refuses two --history folders of the same name at start (the second would never be served)", async () => {
    mkdirSync(join(scratch, "other", "awesome"), { recursive: true });
    copyFileSync(join(ROOT, "test/fixtures/evidence/awesome-v001.md"), join(scratch, "other", "awesome", "v001.md"));
    const refused = await serveRefuses(["--port", "0", "--history", join(scratch, "awesome"), "--history", join(scratch, "other", "awesome")]);
    expect([refused.code, refused.stderr]).toEqual([2, `groundwire serve: --history ${join(scratch, "other", "awesome")}: another --history folder (${join(scratch, "awesome")}) has the same name "awesome"; the page names a history by its folder's name\n`]);
  });
});
