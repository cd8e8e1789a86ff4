// A hostile SPARQL endpoint for the endpoint suites: a real node:http server on a loopback port
// whose every path is one way a remote store can misbehave (an adversary, not a stand-in for
// Virtuoso: the positive paths run on the real Virtuoso of virtuoso-server.ts). Each answer is
// written by hand on the socket, as a broken or malicious server would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";

/** The bearer token the suites send; a hostile server echoes it back wherever it can. */
export const HOSTILE_SECRET = "hostile-token-5e1f0c7a93";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const JSON_TYPE = { "content-type": "application/sparql-results+json" };

/** Write `count` chunks of `chunk`, honouring back-pressure, then end (or stop when the client leaves). */
function stream(res: ServerResponse, head: string, count: number, chunk: (i: number) => string, tail: string): void {
  res.write(head);
  let i = 0;
  const more = (): void => {
    while (i < count) {
      if (res.destroyed) return;
      if (!res.write(chunk(i++))) return void res.once("drain", more);
    }
    res.end(tail);
  };
  more();
}

/** The misbehaviours, by path (`/huge`, `/drip`…). */
export const HOSTILE: Record<string, Handler> = {
  // 24 MiB of results JSON: past every cap (8 MiB for a run, 16 MiB for a schema page)
  huge: (_q, res) => stream(res.writeHead(200, JSON_TYPE), '{"head":{"vars":["x"]},"results":{"bindings":[', 24, (i) => `${i ? "," : ""}"${"x".repeat(1 << 20)}"`, "]}}"),
  // a byte every 50 ms, for ever: each read is quick, the answer never ends
  drip: (_q, res) => {
    res.writeHead(200, JSON_TYPE);
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(" ")), 50);
    res.on("close", () => clearInterval(timer));
  },
  // accepts, reads the request, never answers
  silent: () => undefined,
  // a status line, then nothing
  "half-head": (q) => void q.socket.write("HTTP/1.1 200 OK\r\n"),
  html: (_q, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>It works!</body></html>"),
  "truncated-json": (_q, res) => void res.writeHead(200, JSON_TYPE).end('{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri"'),
  "junk-rows": (_q, res) => void res.writeHead(200, JSON_TYPE).end('{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri","value":"http://a"}},null,"row",{"x":null},{"x":{"type":42,"value":{}}}]}}'),
  "vars-not-a-list": (_q, res) => void res.writeHead(200, JSON_TYPE).end('{"head":{"vars":"x"},"results":{"bindings":[]}}'),
  // a term 10,000 arrays deep: JSON.parse reads it; writing it back out overflows the stack
  "deep-term": (_q, res) => void res.writeHead(200, JSON_TYPE).end(`{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"literal","value":"a","extra":${"[".repeat(10_000)}${"]".repeat(10_000)}}}]}}`),
  "deep-doc": (_q, res) => void res.writeHead(200, JSON_TYPE).end(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
  xml: (_q, res) =>
    void res
      .writeHead(200, { "content-type": "application/sparql-results+xml" })
      .end('<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="x"/></head><results/></sparql>'),
  "bad-turtle": (_q, res) => void res.writeHead(200, { "content-type": "text/turtle" }).end('<http://a> <http://b> "unterminated .\n<<<<'),
  // 50,000 rows in under 8 MiB: far more than the LIMIT the query was sent with
  "many-rows": (_q, res) =>
    stream(res.writeHead(200, JSON_TYPE), '{"head":{"vars":["c","s"]},"results":{"bindings":[', 50_000, (i) => `${i ? "," : ""}{"c":{"type":"uri","value":"http://example.org/olympics/C${i}"},"s":{"type":"uri","value":"http://example.org/olympics/C${i}"}}`, "]}}"),
  // 100 rows (a small answer) for a query sent with LIMIT 5
  "hundred-rows": (_q, res) =>
    stream(res.writeHead(200, JSON_TYPE), '{"head":{"vars":["s"]},"results":{"bindings":[', 100, (i) => `${i ? "," : ""}{"s":{"type":"uri","value":"http://example.org/olympics/C${i}"}}`, "]}}"),
  // 2,000,000 rows: past the byte cap
  "millions-of-rows": (_q, res) => stream(res.writeHead(200, JSON_TYPE), '{"head":{"vars":["x"]},"results":{"bindings":[', 2_000_000, (i) => `${i ? "," : ""}{"x":{"type":"literal","value":"${i}"}}`, "]}}"),
  // 64 MiB of spaces gzipped to ≈ 64 KB, declared as content-encoding
  "gzip-bomb": (_q, res) => {
    const bomb = gzipBomb();
    res.writeHead(200, { ...JSON_TYPE, "content-encoding": "gzip", "content-length": bomb.length }).end(bomb);
  },
  // a redirect to another host (the thief below records what reaches it)
  redirect: (_q, res) => void res.writeHead(307, { location: `${thiefUrl}/steal?x=1` }).end(),
  // errors that echo the request's credentials back in their bodies
  "echo-401": (q, res) => void res.writeHead(401, { "content-type": "text/plain" }).end(`unauthorized: you sent ${q.headers.authorization} (token ${HOSTILE_SECRET})`),
  "echo-403": (q, res) => void res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `forbidden for ${q.headers.authorization}` } })),
  "echo-500": (q, res) => void res.writeHead(500, { "content-type": "text/plain" }).end(`Virtuoso 37000 Error SP030: ${String(q.headers.authorization)} ${JSON.stringify(q.headers)}`),
  // 200, then the connection is cut before the declared body is complete
  "cut-after-200": (q, res) => {
    res.writeHead(200, { "content-type": "text/plain", "content-length": 10_000 });
    res.write("partial");
    setTimeout(() => q.socket.destroy(), 20);
  },
  // the connection is cut before any answer
  reset: (q) => void q.socket.destroy(),
  // a schema that never ends: every page brings 1,000 triples never seen before
  "endless-schema": (_q, res) => {
    const from = pages++ * 1000;
    stream(res.writeHead(200, { "content-type": "application/n-triples" }), "", 1000, (i) => `<http://example.org/e/C${from + i}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .\n`, "");
  },
  // the endless schema, each page after 300 ms
  "slow-endless-schema": (q, res, body) => void setTimeout(() => HOSTILE["endless-schema"]!(q, res, body), 300),
  // the same two declarations on every page (the reading ends when a page adds nothing)
  "small-schema": (_q, res) =>
    void res
      .writeHead(200, { "content-type": "application/n-triples" })
      .end(`<http://example.org/e/City> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .\n<http://example.org/e/hosted> <http://www.w3.org/2000/01/rdf-schema#domain> <http://example.org/e/City> .\n`),
  // 201 with the request it got (the Graph Store suites read where the graph IRI went)
  echo: (q, res, body) => void res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ url: q.url, method: q.method, contentType: q.headers["content-type"], body: body.slice(0, 100_000) })),
};

let pages = 0;
let bomb: Buffer | undefined;
function gzipBomb(): Buffer {
  return (bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024, 32), { level: 9 }));
}

let thiefUrl = "http://127.0.0.1:9";

export interface HostileEndpoint {
  /** `http://127.0.0.1:PORT`: append `/huge`, `/drip`… */
  base: string;
  /** Every request the hostile server got: its path and Authorization header. */
  requests: { path: string; authorization?: string }[];
  /** Every request that reached the other host a redirect points at. */
  stolen: { path: string; authorization?: string }[];
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

/** Start the hostile server and the thief a redirect points at. */
export async function startHostileEndpoint(): Promise<HostileEndpoint> {
  const requests: HostileEndpoint["requests"] = [];
  const stolen: HostileEndpoint["stolen"] = [];
  const thief = createServer((q, res) => {
    stolen.push({ path: q.url ?? "", authorization: q.headers.authorization });
    q.resume();
    res.end("thanks");
  });
  thiefUrl = await listen(thief);
  const server = createServer((q, res) => {
    const path = new URL(q.url ?? "/", "http://x").pathname.slice(1);
    requests.push({ path, authorization: q.headers.authorization });
    const chunks: Buffer[] = [];
    q.on("data", (c: Buffer) => chunks.push(c));
    q.on("end", () => {
      const handler = HOSTILE[path];
      if (handler) handler(q, res, Buffer.concat(chunks).toString("utf8"));
      else res.writeHead(404).end("no such misbehaviour");
    });
  });
  const base = await listen(server);
  return {
    base,
    requests,
    stolen,
    async close() {
      server.closeAllConnections();
      thief.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => thief.close(r))]);
    },
  };
}
