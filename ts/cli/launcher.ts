#!/usr/bin/env node
/**
 * The `groundwire` bin, built to dist/cli.cjs as CommonJS: `groundwire`, `groundwire --help`,
 * `groundwire help` and `groundwire --version` are answered here without starting Node's ES
 * module loader (≈ 25 ms of CPU per start on the 2-core machine: docs/package.md as of commit
 * ff12b806a3, "Node start-up, third pass"; today's figures: docs/package.md, "Import time in Node"); every other invocation imports the ES module CLI (dist/cli.js,
 * ts/cli/index.ts), which reads the same process.argv and does the rest. Output and exit
 * codes are the ES module CLI's: the usage text is the one in ./usage.ts.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findGroundwirePackage } from "./package-json.js";
import { asksForUsage, usage } from "./usage.js";

/** The version of the groundwire package this file is in, or null (then the ES module CLI reports why). */
function versionHere(): string | null {
  return findGroundwirePackage(__dirname)?.version ?? null;
}

/** What this launcher prints for `argv` (with the exit code), or null when the ES module CLI must run. */
function answer(argv: string[]): { text: string; code: number } | null {
  const [name] = argv;
  if (name === undefined || name === "") return { text: usage(), code: 2 };
  if (asksForUsage(argv)) return { text: usage(), code: 0 };
  if (name === "--version" || name === "-V") {
    const version = versionHere();
    return version === null ? null : { text: version, code: 0 };
  }
  return null;
}

const answered = answer(process.argv.slice(2));
if (answered) {
  // as dist/cli.js: a reader that stops early (`groundwire --help | head -1`) is not an error
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  console.log(answered.text);
  process.exitCode = answered.code;
} else {
  // dist/cli.js beside this file (a URL: import() of a path is not portable to Windows)
  import(pathToFileURL(join(__dirname, "cli.js")).href).catch((error: unknown) => {
    process.stderr.write(`groundwire: cannot load the CLI: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
