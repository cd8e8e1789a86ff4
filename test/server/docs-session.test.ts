// The curl session of docs/serving.md, run as written against a real `groundwire serve`
// (only the address is the free port this test got instead of 8787).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, startServer } from "./serve-process.js";

const DOC = readFileSync(new URL("../../docs/serving.md", import.meta.url), "utf8");
const hasTools = ["/usr/bin/curl", "/usr/bin/jq"].every(existsSync);

/** The fenced sh blocks of the "A session with curl" section, in order. */
function sessionBlocks(): string[] {
  const section = DOC.slice(DOC.indexOf("### A session with curl"), DOC.indexOf("### An agent's session with curl"));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The top-level JSON objects printed one after another (curl's output has no separators). */
function jsonValues(text: string): any[] {
  const out: any[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") {
      if (depth++ === 0) start = i;
    } else if (c === "}" && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}

describe.skipIf(!existsSync(CLI) || !hasTools)("docs/serving.md curl session (needs curl, jq and dist/)", () => {
  it("starts with the documented command and runs the session as written", async () => {
    const [start, session] = sessionBlocks();
    expect(start).toContain("groundwire serve --data ./moots");
    expect(start).toContain("listening on http://127.0.0.1:8787");
    expect(start).toContain("saved it in moots/token (mode 0600)");
    // the server makes its token and saves it under --data, as the documented start does
    const data = mkdtempSync(join(tmpdir(), "gw-docs-"));
    const server = await startServer(["--data", data], {}, { autoToken: false });
    try {
      for (let i = 0; i < 100 && !server.stderr().includes("saved it in"); i++) await new Promise((r) => setTimeout(r, 20));
      expect(server.stderr()).toContain(`saved it in ${join(data, "token")} (mode 0600)`);
      const script = session!.replaceAll("http://127.0.0.1:8787", server.url).replaceAll("./moots", data);
      const out = await new Promise<string>((resolve, reject) =>
        execFile("bash", ["-euo", "pipefail", "-c", script], (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
      );
      const docs = jsonValues(out);
      expect(docs[0]).toMatchObject({ ok: true });
      expect(docs[1]).toMatchObject({ turn: 1, title: "Frankenstein, or The Modern Prometheus", grounded: true });
      expect(docs[2]).toMatchObject({ turns: 1 });
      expect(docs[3].snapped).toBe('He wrote "on a dreary night of November" [s1].');
      expect(DOC).toContain('"snapped": "He wrote \\"on a dreary night of November\\" [s1]."');
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI) || !hasTools)("docs/serving.md agent session: explore, check, refuse, fix, run (needs curl, jq and dist/)", () => {
  it("starts the server as written and prints what the page shows", async () => {
    const section = DOC.slice(DOC.indexOf("### An agent's session with curl"), DOC.indexOf("### Routes"));
    const [start, session] = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const shown = /```text\n([\s\S]*?)```/.exec(section)![1]!;
    const args = start!.trim().split(/\s+/);
    expect(args.slice(0, 2)).toEqual(["groundwire", "serve"]);
    const server = await startServer(args.slice(2));
    try {
      const script = session!.replaceAll("http://127.0.0.1:8787", server.url);
      const out = await new Promise<string>((resolve, reject) =>
        execFile("bash", ["-euo", "pipefail", "-c", script], (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))),
      );
      expect(out).toBe(shown);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
