// Run the built CLI as a user does (through the bin, dist/cli.cjs, which imports dist/cli.js), with a time bound.
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLI = join(ROOT, "dist/cli.cjs");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI with `input` on stdin (none: stdin closed), killed after `limitMs`. */
export function gw(args: string[], options: { input?: string | Buffer; cwd?: string; limitMs?: number } = {}): Promise<Run> {
  const env = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY"]) delete env[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), options.limitMs ?? 30_000);
    // decoded as a stream: a character split between two pipe reads is not two U+FFFD
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? -1 : -2), stdout, stderr });
    });
  });
}

