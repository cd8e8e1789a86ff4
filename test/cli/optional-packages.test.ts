// `serve` and `mcp` ask for exactly the optional peer packages their code loads: the bare
// packages reached from each command's chunk in the build (static and dynamic imports), less the
// library's own dependencies and the --store driver (pg, asked for by --store itself).
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { importGraph, requireBuild, ROOT } from "../package/support.js";
import { MCP_PACKAGES, SERVER_PACKAGES, STORE_PACKAGES } from "../../ts/cli/optional-packages.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (spec: string) => spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/");

/** The optional peers reached from `command`'s chunk of dist/cli.js. */
function peersReached(command: string): string[] {
  const cli = readFileSync(join(ROOT, "dist/cli.js"), "utf8");
  const chunk = new RegExp(`\\b${command}: async \\(\\) => \\(await import\\('(\\./chunks/${command}-[\\w-]+\\.js)'\\)`).exec(cli);
  expect(chunk, `dist/cli.js loads ${command} from a chunk of its own`).not.toBeNull();
  const bare = new Set<string>();
  for (const spec of importGraph(join(ROOT, "dist", chunk![1]!)).specifiers) {
    if (!spec.startsWith("node:") && !builtinModules.includes(spec)) bare.add(packageOf(spec));
  }
  return [...bare].filter((p) => Object.hasOwn(pkg.peerDependencies, p) && !Object.hasOwn(STORE_PACKAGES, p)).sort();
}

describe("the packages serve and mcp name as missing are the ones they load", () => {
  beforeAll(requireBuild);

  it("serve: HTTP, MCP, the request log and the worker pool", () => {
    expect(peersReached("serve")).toEqual(Object.keys(SERVER_PACKAGES).sort());
    expect(Object.keys(SERVER_PACKAGES).sort()).toEqual(["@hono/node-server", "@modelcontextprotocol/sdk", "hono", "pino", "piscina"]);
  });

  it("mcp (stdio): no HTTP server and no request log", () => {
    expect(peersReached("mcp")).toEqual(Object.keys(MCP_PACKAGES).sort());
    expect(Object.keys(MCP_PACKAGES).sort()).toEqual(["@modelcontextprotocol/sdk", "hono", "piscina"]);
  });
});
