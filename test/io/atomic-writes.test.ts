// Issue 30 item 3 (files): temporaries a killed writer left are removed by the next write to
// that folder (and only those), and the CLI's -o refuses the input reached under another
// path: a hard link, a symlink, a bind mount (compared by device and inode).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleTemporaries, TEMPORARY_NAME, writeFileAtomic } from "../../ts/files.js";
import { gw } from "./run-cli.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const MOUNTAINS = join(ROOT, "test/fixtures/triple-index/dbpedia-mountains.input.ttl");
const WRITER = join(ROOT, "test/io/atomic-writer.ts");

const temporaries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tmp")).sort();

/** A pid that named a process a moment ago and names none now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

/**
 * Start the writer on `target`, wait until it has a temporary beside the target, SIGKILL it.
 * Tried up to 20 times: a kill between a rename and the next open leaves nothing.
 */
async function killMidWrite(target: string, dir: string): Promise<{ pid: number; left: string[] }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, target, "16"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    for (let i = 0; i < 2000 && !temporaries(dir).some((f) => f.includes(`.${child.pid}.`)); i++) await new Promise((r) => setTimeout(r, 1));
    child.kill("SIGKILL");
    await exited;
    const left = temporaries(dir).filter((f) => f.includes(`.${child.pid}.`));
    if (left.length) return { pid: child.pid!, left };
  }
  throw new Error("the writer was never caught mid-write in 20 tries");
}

describe("writeFileAtomic: temporaries of a killed writer", () => {
  it("a writer killed with SIGKILL mid-save leaves its pid-named temporary; the next write to that folder removes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-killed-"));
    const target = join(dir, "big.bin");
    const { pid, left } = await killMidWrite(target, dir);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^\\.big\\.bin\\.${pid}\\.[0-9a-f]{16}\\.tmp$`));
    expect(TEMPORARY_NAME.exec(left[0]!)![2]).toBe(String(pid));
    // the target is whole: absent (killed during the first save) or one complete save
    if (existsSync(target)) expect(readFileSync(target).length).toBe(16 * 1024 * 1024);
    // a write of another file in that folder removes the leftover, and leaves none of its own
    writeFileAtomic(join(dir, "other.txt"), "hello\n");
    expect(temporaries(dir)).toEqual([]);
    expect(readFileSync(join(dir, "other.txt"), "utf8")).toBe("hello\n");
  }, 120_000);

  it("removes only its own pattern of dead writers: not a live writer's, not another name, not in another folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-stale-"));
    const sub = join(dir, "sub");
    mkdirSync(sub);
    const dead = deadPid();
    const hex = "0123456789abcdef";
    const files = {
      dead: `.notes.md.${dead}.${hex}.tmp`,
      deadOtherTarget: `.a.b.c.json.${dead}.fedcba9876543210.tmp`,
      live: `.notes.md.${process.ppid}.${hex}.tmp`, // our parent runs
      own: `.notes.md.${process.pid}.${hex}.tmp`, // ours: a write of this process in flight is never touched
      noDot: `notes.md.${dead}.${hex}.tmp`,
      shortHex: `.notes.md.${dead}.0123.tmp`,
      oldName: `.notes.md.${hex}.tmp`,
      notTmp: `.notes.md.${dead}.${hex}.tmpx`,
    };
    for (const name of Object.values(files)) writeFileSync(join(dir, name), "x");
    writeFileSync(join(sub, files.dead), "x");
    // a symlink of the pattern is not the writer's: left alone, and what it points at too
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, join(dir, `.link.${dead}.${hex}.tmp`));
    expect(removeStaleTemporaries(dir).sort()).toEqual([files.deadOtherTarget, files.dead].sort());
    expect(readdirSync(dir).sort()).toEqual(
      [files.live, files.own, files.noDot, files.shortHex, files.oldName, files.notTmp, `.link.${dead}.${hex}.tmp`, "sub", "victim.txt"].sort(),
    );
    expect(readdirSync(sub)).toEqual([files.dead]);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    // and writeFileAtomic does the same sweep
    writeFileSync(join(dir, files.dead), "x");
    writeFileAtomic(join(dir, "notes.md"), "# notes\n");
    expect(existsSync(join(dir, files.dead))).toBe(false);
    expect(existsSync(join(dir, files.live))).toBe(true);
  });
});

describe("-o refuses the input under another path (device and inode, not the path)", () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-same-"));
    const graph = join(dir, "g.ttl");
    copyFileSync(MOUNTAINS, graph);
    writeFileSync(join(dir, "c.json"), "[]");
    return { dir, graph, base: ["critique", graph, join(dir, "c.json"), "--fingerprint", "0".repeat(64)] };
  };

  it("a hard link to the input graph, and one to the critique file", async () => {
    const { dir, graph, base } = setup();
    const hard = join(dir, "hard.ttl");
    linkSync(graph, hard);
    const r = await gw([...base, "-o", hard]);
    expect(r.stderr).toBe(`groundwire critique: -o ${hard} is ${graph} under another name (a hard link or a mount): the input graph; pass --in-place to overwrite it\n`);
    expect(r.code).toBe(2);
    const critiqueLink = join(dir, "c2.json");
    linkSync(join(dir, "c.json"), critiqueLink);
    const c = await gw([...base, "-o", critiqueLink]);
    expect(c.stderr).toBe(`groundwire critique: -o ${critiqueLink} is ${join(dir, "c.json")} under another name (a hard link or a mount): the critique file; it would be overwritten\n`);
    expect(readFileSync(graph, "utf8")).toBe(readFileSync(MOUNTAINS, "utf8"));
  });

  it("a symlink to the input graph, and the input named through a symlinked folder", async () => {
    const { dir, graph, base } = setup();
    const link = join(dir, "link.ttl");
    symlinkSync(graph, link);
    const r = await gw([...base, "-o", link]);
    expect(r.stderr).toBe(`groundwire critique: -o ${link} is the input graph; pass --in-place to overwrite it\n`);
    expect(r.code).toBe(2);
    const folderLink = join(dir, "via");
    symlinkSync(dir, folderLink);
    const v = await gw([...base, "-o", join(folderLink, "g.ttl")]);
    expect(v.stderr).toBe(`groundwire critique: -o ${join(folderLink, "g.ttl")} is the input graph; pass --in-place to overwrite it\n`);
    expect(v.code).toBe(2);
  });

  const root = process.getuid?.() === 0;
  if (!root) console.log("note: the bind-mount case of -o is skipped: it needs root (mount --bind); CI runs as root");
  it.skipIf(!root)("the input's folder bind-mounted elsewhere: the same file under a path that shares nothing with the input's", async () => {
    const { dir, graph, base } = setup();
    const other = mkdtempSync(join(tmpdir(), "gw-bind-"));
    const bound = spawnSync("mount", ["--bind", dir, other], { encoding: "utf8" });
    if (bound.status !== 0) {
      console.log(`note: the bind-mount case of -o is skipped: mount --bind failed (${bound.stderr.trim()})`);
      return;
    }
    try {
      const target = join(other, "g.ttl");
      const r = await gw([...base, "-o", target]);
      expect(r.stderr).toBe(`groundwire critique: -o ${target} is ${graph} under another name (a hard link or a mount): the input graph; pass --in-place to overwrite it\n`);
      expect(r.code).toBe(2);
      // a new file under the mount is fine
      const fresh = await gw([...base, "-o", join(other, "new.ttl")]);
      expect(fresh.stderr).not.toContain("under another name");
    } finally {
      spawnSync("umount", [other]);
      rmdirSync(other);
    }
  });
});
