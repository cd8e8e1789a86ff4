// `npm test`'s pretest: run `npm run build` unless dist/ was built from exactly the sources there
// are now. The stamp (build/build-inputs.sha256, not packed) is the SHA-256 of every input file's
// path and bytes: the TypeScript and AssemblyScript sources, the build configs, the lockfile and
// the data files the build inlines. A fresh clone has no stamp, so it builds; a run after an edit
// of any input builds; a second run with nothing changed skips the minute the build takes.
// `npm run build` always builds (and writes the stamp); GROUNDWIRE_BUILD=1 forces it here.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STAMP = join(ROOT, "build", "build-inputs.sha256");
/** The digest of the inputs a running build started from: the stamp once the build ends. */
const PENDING = `${STAMP}.pending`;
const DIRS = ["ts", "assembly", "bindings", "web", "data", "scripts"];
const FILES = ["package.json", "package-lock.json", "rollup.config.mjs", "asconfig.json", "tsconfig.json"];
/** Inputs the build writes itself: not inputs. */
const GENERATED = /^bindings\/wasm-[\w-]+\.generated\.ts$/;

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") walk(path, out);
    } else if (entry.isFile()) out.push(relative(ROOT, path));
  }
  return out;
}

/** The SHA-256 of the build's inputs (sorted paths, each with its length and bytes). */
export function inputsDigest() {
  const files = [...FILES.filter((f) => existsSync(join(ROOT, f)))];
  for (const d of DIRS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d), files);
  const hash = createHash("sha256");
  for (const f of files.filter((f) => !GENERATED.test(f)).sort()) {
    const bytes = readFileSync(join(ROOT, f));
    hash.update(`${f}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/** A file written whole or not at all (a temporary file renamed over it). */
function writeAtomic(path, text) {
  mkdirSync(join(path, ".."), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === "--start") {
    // `npm run build` begins: dist/ is no longer a known build; remember what this build reads
    rmSync(STAMP, { force: true });
    writeAtomic(PENDING, `${inputsDigest()}\n`);
  } else if (process.argv[2] === "--done") {
    // the build ended well: dist/ is a build of the inputs it started from
    if (existsSync(PENDING)) renameSync(PENDING, STAMP);
  } else {
    const digest = inputsDigest();
    const built = existsSync(STAMP) && existsSync(join(ROOT, "dist", "node.js")) ? readFileSync(STAMP, "utf8").trim() : "";
    if (process.env.GROUNDWIRE_BUILD !== "1" && built === digest && statSync(join(ROOT, "dist", "node.js")).size > 0) {
      console.log("build: dist/ is a build of the current sources (build/build-inputs.sha256); skipped (GROUNDWIRE_BUILD=1 forces it)");
    } else {
      const run = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
      process.exitCode = run.status ?? 1;
    }
  }
}
