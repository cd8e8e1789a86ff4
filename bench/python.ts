/**
 * The python3 the benches run as a contender: `$PYTHON` when set, else `python3` on PATH
 * (a pyenv or venv interpreter, where `pip install rdflib rapidfuzz` puts the packages),
 * never a hard-coded /usr/bin/python3 that may lack them.
 */
import { spawnSync } from "node:child_process";

export const PYTHON = process.env.PYTHON || "python3";

/**
 * Why `module` cannot be imported by PYTHON (one line, for the bench's note), or null when it can.
 * The module name is passed as an argument, never pasted into the program text.
 */
export function pythonLacks(module: string): string | null {
  const r = spawnSync(PYTHON, ["-c", "import importlib, sys; importlib.import_module(sys.argv[1])", module], { encoding: "utf8" });
  if (r.error) return `${PYTHON} not runnable (${r.error.message})`;
  return r.status === 0 ? null : `${PYTHON} has no ${module} (pip install ${module})`;
}
