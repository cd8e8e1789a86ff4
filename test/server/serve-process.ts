// Start `groundwire serve` from the built CLI (dist/cli.js) on 127.0.0.1 with --port 0 and
// read the port it announces: a real server on a free port, no mock of either side.
// serve requires a bearer token: unless a test gives one (--token-file, GROUNDWIRE_TOKEN) or
// --no-auth, the server is started with GROUNDWIRE_TOKEN=TEST_TOKEN, and `call` sends the
// token of the server it calls (unless the test sets `authorization` itself, "" for none).
import { readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The token of servers started without one of their own. */
export const TEST_TOKEN = "test-token-0123456789";

/** The token each running server (by its URL) requires; absent: none. */
const tokens = new Map<string, string>();

export interface RunningServer {
  url: string;
  /** The bearer token it requires (null with --no-auth or a token it made itself). */
  token: string | null;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

/** The environment of a child: the caller's, without model settings, PORT, HOST or a token unless given. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const fullEnv = { ...process.env, ...env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_TOKEN", "PORT", "HOST"]) if (!(k in env)) delete fullEnv[k];
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  return fullEnv;
}

/**
 * Spawn `groundwire serve --host 127.0.0.1 --port 0 …args` and resolve when it prints its
 * address. `options.bare`: no `--host`/`--port` before `args` (to test PORT and HOST);
 * `options.autoToken: false`: no TEST_TOKEN either (the server makes its own).
 */
export function startServer(args: string[], env: Record<string, string | undefined> = {}, options: { bare?: boolean; autoToken?: boolean } = {}): Promise<RunningServer> {
  const fullEnv = childEnv(env);
  const ownToken = "GROUNDWIRE_TOKEN" in env || args.includes("--token-file") || args.includes("--no-auth");
  if (!ownToken && options.autoToken !== false) fullEnv.GROUNDWIRE_TOKEN = TEST_TOKEN;
  let token: string | null = fullEnv.GROUNDWIRE_TOKEN ?? null;
  const file = args.indexOf("--token-file");
  if (file >= 0) token = readFileSync(args[file + 1]!, "utf8").split(/\r?\n/, 1)[0]!.trim();
  if (args.includes("--no-auth")) token = null;
  // one check worker unless the test names its count: the pool is still what answers the checks,
  // at half the start-up of the default two (each worker loads the library and the context)
  const workers = args.includes("--check-workers") ? [] : ["--check-workers", "1"];
  const child = spawn(process.execPath, [CLI, "serve", ...(options.bare ? [] : ["--host", "127.0.0.1", "--port", "0"]), ...workers, ...args], { cwd: ROOT, env: fullEnv });
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+:\d+)/.exec(out);
      if (m) {
        if (token !== null) tokens.set(m[1]!, token);
        resolve({
          url: m[1]!,
          token,
          child,
          stderr: () => err,
          async stop() {
            child.kill("SIGTERM");
            await exited;
          },
          async kill() {
            child.kill("SIGKILL");
            await exited;
          },
        });
      }
    });
    child.stderr!.on("data", (chunk) => (err += chunk));
    child.once("exit", (code) => reject(new Error(`serve exited with ${code} before listening: ${err}`)));
  });
}

/** Run `groundwire serve …args` expecting it to refuse to start: its exit code and stderr. */
export function serveRefuses(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "serve", ...args], { cwd: ROOT, env: childEnv(env) });
  let err = "";
  child.stderr.on("data", (chunk) => (err += chunk));
  const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: err });
    }),
  );
}

/** POST JSON (or send `raw` as the body) and return the status and parsed JSON answer. */
export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const token = tokens.get(url);
  const sent: Record<string, string> = token !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === "authorization") ? { authorization: `Bearer ${token}`, ...headers } : { ...headers };
  for (const [k, v] of Object.entries(sent)) if (v === "") delete sent[k];
  const init: RequestInit = { method, headers: sent };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(`${url}${path}`, init);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null, headers: response.headers };
}

/** A model endpoint whose replies wait until released: turns in flight on demand. */
export async function startSlowModel(): Promise<{ baseUrl: string; release: () => void; close: () => Promise<void> }> {
  const waiting: Array<() => void> = [];
  let open = false;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Nothing to quote." } }] }));
      };
      if (open) answer();
      else waiting.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    release() {
      open = true;
      for (const w of waiting.splice(0)) w();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * A request with exactly these headers, on a connection of its own (fetch would not let a test
 * set Host, nor show a write that failed). Resolves with the status and the body as text; rejects
 * with the socket's error (EPIPE, ECONNRESET, …) when no answer could be read.
 */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<{ status: number; connection: string | undefined; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const r = request({ host: hostname, port, path, method, headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    r.on("error", reject);
    r.end(body);
  });
}
