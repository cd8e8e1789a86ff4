/**
 * No request stalls another: `/health` latency while four maximal hostile checks
 * run at once against a real `groundwire serve` (dist/cli.js, a process of its own), with the
 * checks in the worker pool (the default) and on the event loop (`--check-workers 0`, the
 * way the server ran them before the pool; the work bounds hold in both). A figure, never a
 * timed test (test/server/stall.test.ts states its bound).
 *
 * The four: the 2 MB RDF list graph (`POST /graph/index`, 2 million triples unbounded), the
 * reply of 99,900 spaces after a quote (`POST /quotes/verify`, the quadratic regex), a
 * markdown list of 400,000 items (`POST /fragments`, runs to the time budget) and 1001
 * nested quotes (`POST /fragments`). /health is probed every 25 ms until all four are
 * answered; p50 is the median note's figure, p99 in the note. A second case times the 2 MB
 * list graph alone and reports the server's peak RSS (VmHWM, /proc) after it.
 *
 * Run: npx tsx bench/run.ts stall (after npm run build)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { get } from "node:http";
import { fileURLToPath } from "node:url";
import type { BenchCase, BenchSuite } from "./harness.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const listGraph = { graph: { text: `<urn:s> <urn:p> (${" 1".repeat(1_040_000)}) .` } };
const HOSTILE: Array<[string, unknown]> = [
  ["/graph/index", listGraph],
  ["/quotes/verify", { reply: `"one two three"${" ".repeat(99_900)}x`, passages: ["one two three four"] }],
  ["/fragments", { text: "- a\n".repeat(400_000) }],
  ["/fragments", { text: `${"> ".repeat(1001)}x` }],
];

/** The bearer token of the servers this bench starts (made per run). */
const TOKEN = randomBytes(24).toString("base64url");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function start(args: string[]): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const env = { ...process.env };
  for (const k of ["GROUNDWIRE_BASE_URL", "GROUNDWIRE_MODEL", "GROUNDWIRE_API_KEY", "OPENAI_API_KEY", "GROUNDWIRE_TOKEN"]) delete env[k];
  env.GROUNDWIRE_TOKEN = TOKEN; // serve requires a bearer token
  const child = spawn(process.execPath, [CLI, "serve", "--host", "127.0.0.1", "--port", "0", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr!.resume();
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    url,
    child,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, text: await r.text() }));

/** /health probed while the four hostile requests run; throws if /health answers anything but 200. */
async function healthUnderLoad(args: string[]) {
  const server = await start(args);
  try {
    let done = false;
    const t0 = performance.now();
    const hostile = Promise.all(HOSTILE.map(([path, body]) => post(`${server.url}${path}`, body))).finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const t = performance.now();
      const status = await probe(`${server.url}/health`);
      if (status !== 200) throw new Error(`/health answered ${status}`);
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 25));
    }
    const answers = await hostile;
    const wall = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    return {
      medianMs: percentile(latencies, 50),
      samples: latencies.length,
      note: `${latencies.length} probes, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(0)} ms; the four answered ${answers.map((a) => a.status).join("/")} in ${(wall / 1000).toFixed(1)} s`,
    };
  } finally {
    await server.stop();
  }
}

/**
 * GET on a fresh connection (no keep-alive): a pooled socket the server closed while its loop
 * was blocked would fail the probe for a reason that is not the one measured.
 */
function probe(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (r) => {
      r.resume();
      r.on("end", () => resolve(r.statusCode ?? 0));
    }).on("error", reject);
  });
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

const suite: BenchSuite = {
  part: "stall",
  async cases(): Promise<BenchCase[]> {
    if (!existsSync(CLI)) {
      suite.skipped = "dist/cli.js absent (npm run build)";
      return [];
    }
    const listAlone = async (args: string[]) => {
      const server = await start(args);
      try {
        // the workers load the corpus as they start: one cheap check first, so the figure is the request's
        await post(`${server.url}/quotes/verify`, { reply: "x", passages: ["y"] });
        const t = performance.now();
        const r = await post(`${server.url}/graph/index`, listGraph);
        const ms = performance.now() - t;
        if (r.status !== 422 || !r.text.includes("--max-triples")) throw new Error(`the list graph answered ${r.status} ${r.text.slice(0, 200)}`);
        return { medianMs: ms, samples: 1, note: `422 limit (--max-triples) in ${(ms / 1000).toFixed(2)} s; server peak RSS ${peakRssMb(server.child.pid!).toFixed(0)} MB` };
      } finally {
        await server.stop();
      }
    };
    return [
      {
        name: "/health while four hostile checks run (2 MB list graph, 99,900-space reply, 400,000-item list, 1001 nested quotes)",
        size: "pathological",
        baseline: "checks on the event loop (--check-workers 0)",
        contenders: [
          { name: "checks on the event loop (--check-workers 0)", kind: "external", measure: () => healthUnderLoad(["--check-workers", "0"]) },
          { name: "checks in the worker pool (default: 2 workers here)", kind: "external", measure: () => healthUnderLoad([]) },
        ],
      },
      {
        name: "POST /graph/index, the 2 MB RDF list graph (2,080,000 triples unbounded)",
        size: "pathological",
        baseline: "in the worker pool",
        contenders: [
          { name: "in the worker pool", kind: "external", measure: () => listAlone([]) },
          { name: "on the event loop (--check-workers 0)", kind: "external", measure: () => listAlone(["--check-workers", "0"]) },
        ],
      },
    ];
  },
};
export default suite;
