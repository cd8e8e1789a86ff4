// A throwaway OpenLink Virtuoso (Debian's virtuoso-opensource) for the endpoint suites: started by
// test/global-setup.ts from a copy of the package's virtuoso.ini with every path moved to a
// temporary folder and both ports (SQL and HTTP) on free loopback ports, loaded with the repo's
// olympics graph and, when ../shared/data is there, the DBpedia ontology, then stopped and
// removed at the end. Its /sparql endpoint URL reaches the suites as GROUNDWIRE_TEST_SPARQL_URL.
//
// Anonymous SPARQL updates are granted (the SPARQL user gets SPARQL_UPDATE), so the Graph Store
// Protocol endpoint /sparql-graph-crud accepts PUT: the graphs are loaded that way, with no SQL
// text built from a path. Loopback only, and the folder is removed at the end.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "../free-port.js";

export const VIRTUOSO_INI = "/etc/virtuoso-opensource-7/virtuoso.ini";

/** The graphs loaded, by name: the IRI each is loaded under. */
export const TEST_GRAPHS = {
  olympics: "http://example.org/olympics/graph",
  dbpediaOntology: "http://dbpedia.org/ontology/graph",
} as const;

/** Whether `virtuoso-t` and `isql-vt` are on PATH and the package's ini is there. */
export function virtuosoInstalled(): boolean {
  const dirs = (process.env.PATH ?? "").split(":").filter(Boolean);
  const onPath = (bin: string) => dirs.some((d) => existsSync(join(d, bin)));
  return onPath("virtuoso-t") && onPath("isql-vt") && existsSync(VIRTUOSO_INI);
}


/**
 * The package's virtuoso.ini with the database files in `dir`, the SQL and HTTP ports moved,
 * DirsAllowed narrowed to `dir`, no Conductor VAD installed at first start (it takes ~15 s) and no
 * hosting plugins, and queries stopped after 5 s. Edited line by line on the ini's own keys.
 */
export function virtuosoIni(template: string, dir: string, sqlPort: number, httpPort: number): string {
  let section = "";
  const out: string[] = [];
  for (const line of template.split("\n")) {
    const head = /^\[([^\]]+)\]/.exec(line);
    if (head) section = head[1]!;
    const key = /^\s*([A-Za-z_][\w]*)\s*=/.exec(line)?.[1];
    const set = (value: string) => out.push(`${key} = ${value}`);
    if (key === undefined) out.push(line);
    else if (["DatabaseFile", "ErrorLogFile", "LockFile", "TransactionFile", "xa_persistent_file"].includes(key)) set(join(dir, line.split("=")[1]!.trim().replace(/^.*\//, "")));
    else if (key === "ServerPort") set(String(section === "HTTPServer" ? httpPort : sqlPort));
    else if (key === "DirsAllowed") set(dir);
    else if (key === "VADInstallDir" || (section === "Plugins" && /^Load\d/.test(key))) continue;
    else if (key === "CheckpointInterval") set("0");
    else if (key === "DefaultHost") set(`127.0.0.1:${httpPort}`);
    // a query a suite abandoned at its timeout stops here within seconds instead of holding a shared core for a minute
    else if (key === "MaxQueryExecutionTime") set("5");
    else out.push(line);
  }
  return out.join("\n");
}

export interface TestVirtuoso {
  /** The SPARQL endpoint, `http://127.0.0.1:PORT/sparql`. */
  sparqlUrl: string;
  /** The Graph Store Protocol endpoint (anonymous, updates granted), `http://127.0.0.1:PORT/sparql-graph-crud`. */
  graphStoreUrl: string;
  stop(): void;
}

async function waitForHttp(url: string, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`virtuoso-t exited with status ${child.exitCode}`);
    try {
      const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/sparql-results+json" }, body: new URLSearchParams({ query: "ASK {}" }) });
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Virtuoso did not answer at ${url} within ${ms} ms`);
}

/** PUT a Turtle file as the named graph `graph` (SPARQL 1.1 Graph Store HTTP Protocol §5.3). */
export async function putGraph(graphStoreUrl: string, graph: string, turtle: string): Promise<number> {
  const url = new URL(graphStoreUrl);
  url.searchParams.set("graph-uri", graph);
  const answer = await fetch(url, { method: "PUT", headers: { "content-type": "text/turtle" }, body: turtle });
  if (!answer.ok) throw new Error(`PUT ${graph}: HTTP ${answer.status} ${(await answer.text()).slice(0, 300)}`);
  return answer.status;
}

/**
 * Start Virtuoso in a temporary folder and load the test graphs, without waiting: the URLs are
 * known at once (the ports are chosen first); `ready` settles when the endpoint answers with the
 * graphs loaded, or rejects (the server stopped) when it cannot start.
 */
export async function launchTestVirtuoso(): Promise<TestVirtuoso & { ready: Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "groundwire-virtuoso-"));
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  const ini = join(dir, "virtuoso.ini");
  writeFileSync(ini, virtuosoIni(readFileSync(VIRTUOSO_INI, "utf8"), dir, sqlPort, httpPort));
  const child = spawn("virtuoso-t", ["+foreground", "+configfile", ini], { cwd: dir, stdio: "ignore" });
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${httpPort}`;
  const graphStoreUrl = `${base}/sparql-graph-crud`;
  const ready = (async () => {
    try {
      await waitForHttp(`${base}/sparql`, child, 120_000);
      // fixed SQL text, nothing pasted: let the anonymous SPARQL user update (Graph Store PUT)
      await promisify(execFile)("isql-vt", [String(sqlPort), "dba", "dba", 'exec=grant SPARQL_UPDATE to "SPARQL";'], { timeout: 60_000 });
      await putGraph(graphStoreUrl, TEST_GRAPHS.olympics, readFileSync(fileURLToPath(new URL("../../data/kernel/olympics.ttl", import.meta.url)), "utf8"));
      const ontology = fileURLToPath(new URL("../../../shared/data/rdf/dbpedia-ontology.ttl", import.meta.url));
      if (existsSync(ontology)) await putGraph(graphStoreUrl, TEST_GRAPHS.dbpediaOntology, readFileSync(ontology, "utf8"));
    } catch (error) {
      stop();
      throw error;
    }
  })();
  return { sparqlUrl: `${base}/sparql`, graphStoreUrl, stop, ready };
}

/** Start Virtuoso in a temporary folder and load the test graphs. */
export async function startTestVirtuoso(): Promise<TestVirtuoso> {
  const { ready, ...v } = await launchTestVirtuoso();
  await ready;
  return v;
}
