// Start `groundwire serve` from the built CLI (dist/cli.js) on 127.0.0.1 with --port 0 and
// read the port it announces: a real server on a free port, no mock of either side.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

/** Spawn `groundwire serve --port 0 …args` and resolve when it prints its address. */
export function startServer(args: string[], env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const fullEnv = { ...process.env, ...env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY"]) delete fullEnv[k];
  if (!("GROUNDWIRE_TOKEN" in env)) delete fullEnv.GROUNDWIRE_TOKEN;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const child = spawn(process.execPath, [CLI, "serve", "--host", "127.0.0.1", "--port", "0", ...args], { cwd: ROOT, env: fullEnv });
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        resolve({
          url: m[1]!,
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

/** POST JSON (or send `raw` as the body) and return the status and parsed JSON answer. */
export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(`${url}${path}`, init);
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null, headers: response.headers };
}
