// Issue 30 items 3 and 6 through a real `groundwire serve` process (dist/cli.js): a turn is
// shown only once saved (a full tmpfs at three moments, a read-only one), a deleted moot
// stays deleted whatever turn was running, SIGKILL during saves, --max-moots and --moot-idle,
// the start-up cleanup of temporaries.
// npm test kills the server on the nearly full disk at one moment, and runs the two --moot-idle
// tests (their own servers; most of their time is waiting for the moot to idle) at the same time;
// npm run test:deep (test/depth.ts) kills it at two moments and runs them one after the other.
// Every other case runs in both.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, CLI, ROOT, startServer, startSlowModel, type RunningServer } from "./serve-process.js";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { Moot } from "../../ts/moot/moot.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";
import { DEEP, spread } from "../depth.js";

const KEYS = ["novel/frankenstein", "diary/pepys-1660"];
const BODY = { keys: KEYS, topic: "fire and ruin", turns: 6, k: 2 };
const NO_SPACE = { code: "no_space", message: "cannot save the moot: no space left on the device" };

/** A tmpfs of `size` mounted on a fresh folder, or the reason it cannot be (not root, no permission). */
function mountTmpfs(size: string): { dir: string; umount: () => void } | string {
  const dir = mkdtempSync(join(tmpdir(), "gw-tmpfs-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) {
    rmdirSync(dir);
    return `mount -t tmpfs failed: ${(r.stderr || r.error?.message || "").trim()}`;
  }
  return {
    dir,
    umount: () => {
      spawnSync("umount", [dir]);
      rmdirSync(dir);
    },
  };
}

const probe = process.getuid?.() === 0 ? mountTmpfs("64k") : "not root";
const canMount = typeof probe !== "string";
if (typeof probe === "string") console.log(`note: the full-disk suites of moot-durability.test.ts are skipped (${probe}); they need root to mount a tmpfs, as CI has`);
else probe.umount();

/** Fill the file system holding `dir` to the last byte with a file `filler`; returns its path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  try {
    for (const size of [65536, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x78);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

const saved = (dir: string, id: string) => JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8"));
const texts = (transcript: { utterances: Array<{ text: string }> }) => transcript.utterances.map((u) => u.text);
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tmp"));

async function until(what: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!existsSync(CLI) || !canMount)("a full disk under --data (a 256 KiB tmpfs): nothing shown that is not saved", () => {
  let tmpfs: { dir: string; umount: () => void };
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.kill();
    tmpfs?.umount();
  });

  it("creation, the first turn and a later turn on a full disk answer 507; GET and a restart show only saved turns; freed, the same turn is spoken and kept", async () => {
    tmpfs = mountTmpfs("256k") as { dir: string; umount: () => void };
    const dir = tmpfs.dir;
    // the same moot uninterrupted, as the server holds one (its corpus, the extractive synthesizer): what turns 1-3 say
    const whole = new Moot(loadCorpus(join(ROOT, "data/books")), createExtractiveSynthesizer(), KEYS, BODY.topic, BODY.turns, { k: BODY.k, modelName: "extractive" });
    await whole.start();
    for (let t = 0; t < 3; t++) await whole.nextTurn();
    const expected = texts(whole.transcript!);

    server = await startServer(["--data", dir]);
    // 1. creation on a full disk: 507, no id, nothing held, nothing left behind
    let filler = fill(dir);
    const refused = await call(server.url, "POST", "/moots", BODY);
    expect(refused.status).toBe(507);
    expect(refused.json.error).toMatchObject(NO_SPACE);
    expect((await call(server.url, "GET", "/health")).json).toMatchObject({ moots: 0, loaded: 0 });
    expect(readdirSync(dir)).toEqual(["filler"]);
    unlinkSync(filler);

    // 2. between creation and the first turn
    const created = await call(server.url, "POST", "/moots", BODY);
    expect(created.status).toBe(201);
    const id = created.json.id;
    filler = fill(dir);
    for (let attempt = 0; attempt < 2; attempt++) {
      const turn = await call(server.url, "POST", `/moots/${id}/turns`);
      expect(turn.status).toBe(507);
      expect(turn.json.error).toMatchObject(NO_SPACE);
      expect(turn.headers.get("retry-after")).toBeNull();
      const shown = (await call(server.url, "GET", `/moots/${id}`)).json;
      expect(shown.utterances).toEqual([]);
      expect(shown.done).toBe(false);
    }
    expect(saved(dir, id).transcript.utterances).toEqual([]);
    expect(leftovers(dir)).toEqual([]);
    unlinkSync(filler);
    const first = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(first.status).toBe(200);
    expect(first.json.turn).toBe(1);
    expect(saved(dir, id).transcript.utterances).toHaveLength(1);

    // 3. before a later turn: turn 2 kept, turn 3 refused three times
    expect((await call(server.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(2);
    filler = fill(dir);
    for (let attempt = 0; attempt < 3; attempt++) {
      const turn = await call(server.url, "POST", `/moots/${id}/turns`);
      expect(turn.status).toBe(507);
      expect(turn.json.error).toMatchObject(NO_SPACE);
      expect((await call(server.url, "GET", `/moots/${id}`)).json.utterances).toHaveLength(2);
    }
    expect(saved(dir, id).transcript.utterances).toHaveLength(2);
    // a restart while the disk is still full shows exactly the saved turns
    await server.kill();
    server = await startServer(["--data", dir]);
    expect(texts((await call(server.url, "GET", `/moots/${id}`)).json)).toEqual(expected.slice(0, 2));
    expect((await call(server.url, "POST", `/moots/${id}/turns`)).status).toBe(507);
    // freed: the same turn number is spoken, says what the uninterrupted moot said, and is kept
    unlinkSync(filler);
    const third = await call(server.url, "POST", `/moots/${id}/turns`);
    expect(third.status).toBe(200);
    expect(third.json.turn).toBe(3);
    expect(third.json.text).toBe(expected[2]);
    await server.kill();
    server = await startServer(["--data", dir]);
    expect(texts((await call(server.url, "GET", `/moots/${id}`)).json)).toEqual(expected);
    expect(texts(saved(dir, id).transcript)).toEqual(expected);
    expect(leftovers(dir)).toEqual([]);
  }, 180_000);

  it("a read-only file system answers 503 storage with Retry-After, and the moot stays at its saved turn", async () => {
    const dir = tmpfs.dir;
    const id = (await call(server!.url, "POST", "/moots", { ...BODY, turns: 2 })).json.id;
    expect(spawnSync("mount", ["-o", "remount,ro", dir]).status).toBe(0);
    try {
      const turn = await call(server!.url, "POST", `/moots/${id}/turns`);
      expect(turn.status).toBe(503);
      expect(turn.json.error).toMatchObject({ code: "storage", message: "cannot save the moot: read-only file system; try again later" });
      expect(turn.headers.get("retry-after")).toBe("5");
      expect((await call(server!.url, "GET", `/moots/${id}`)).json.utterances).toEqual([]);
      const create = await call(server!.url, "POST", "/moots", BODY);
      expect(create.status).toBe(503);
      const health = (await call(server!.url, "GET", "/health")).json.moots;
      expect(health).toBe(readdirSync(dir).filter((f) => f.endsWith(".json")).length);
    } finally {
      spawnSync("mount", ["-o", "remount,rw", dir]);
    }
    expect((await call(server!.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(1);
    expect(saved(dir, id).transcript.utterances).toHaveLength(1);
  }, 60_000);

  it("a server killed during turns on a nearly full disk leaves every file whole; its leftovers go at the next start", async () => {
    const dir = tmpfs.dir;
    const ids = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, 36));
    // npm test: the first kill moment; npm run test:deep (test/depth.ts): both
    for (const round of spread([0, 1], 1)) {
      const loop = Promise.all(ids.map(async (id) => {
        for (;;) {
          try {
            const r = await call(server!.url, "POST", `/moots/${id}/turns`);
            if (r.status === 409) return; // over
          } catch {
            return;
          }
        }
      }));
      await new Promise((r) => setTimeout(r, 60 + 90 * round));
      await server!.kill();
      await loop;
      for (const id of ids) {
        const state = saved(dir, id);
        expect(state.version).toBe(1);
        expect(state.transcript.utterances.every((u: { turn: number }, i: number) => u.turn === i + 1)).toBe(true);
      }
      server = await startServer(["--data", dir]);
      expect(server.stderr()).not.toContain("skipped");
      expect(leftovers(dir)).toEqual([]);
      for (const id of ids) {
        const shown = (await call(server.url, "GET", `/moots/${id}`)).json;
        expect(shown.utterances).toEqual(saved(dir, id).transcript.utterances);
      }
    }
  }, 120_000);
});

describe.skipIf(!existsSync(CLI))("a deleted moot stays deleted whatever turn was running", () => {
  // the first test restarts its server with --turn-timeout 200 and a new slow model: the second
  // goes on with that server and its --data folder, empty again (one start fewer)
  let late: { server: RunningServer; model: Awaited<ReturnType<typeof startSlowModel>>; data: string } | undefined;
  afterAll(async () => {
    await late?.server.stop();
    await late?.model.close();
  });

  it("DELETE during a turn answers 200 at once; the turn lands as 404, is never saved, and a restart does not bring the moot back", async () => {
    const model = await startSlowModel();
    const data = mkdtempSync(join(tmpdir(), "gw-delete-"));
    let server = await startServer(["--data", data, "--base-url", model.baseUrl]);
    let lateModel: Awaited<ReturnType<typeof startSlowModel>> | undefined;
    try {
      const id = (await call(server.url, "POST", "/moots", BODY)).json.id;
      const turn = call(server.url, "POST", `/moots/${id}/turns`);
      await until(async () => (await call(server.url, "GET", "/health")).json.running === 1);
      const deleted = await call(server.url, "DELETE", `/moots/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.json).toEqual({ deleted: id });
      expect(existsSync(join(data, `${id}.json`))).toBe(false);
      expect((await call(server.url, "GET", `/moots/${id}`)).status).toBe(404);
      model.release();
      const landed = await turn;
      expect(landed.status).toBe(404);
      expect(landed.json.error).toMatchObject({ code: "not_found", message: `moot ${id} was deleted while this turn ran; the turn was not saved` });
      expect(readdirSync(data)).toEqual([]);
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).status).toBe(404);
      await server.kill();
      lateModel = await startSlowModel();
      server = await startServer(["--data", data, "--base-url", lateModel.baseUrl, "--turn-timeout", "200"]);
      expect((await call(server.url, "GET", `/moots/${id}`)).status).toBe(404);
      expect((await call(server.url, "GET", "/health")).json.moots).toBe(0);
      late = { server, model: lateModel, data };
    } finally {
      if (!late) {
        await server.stop();
        await lateModel?.close();
      }
      await model.close();
    }
  }, 60_000);

  it("a turn past --turn-timeout (504, going on) and then DELETE: the late turn does not recreate the file", async () => {
    const model = late?.model ?? (await startSlowModel());
    const data = late?.data ?? mkdtempSync(join(tmpdir(), "gw-delete-late-"));
    const server = late?.server ?? (await startServer(["--data", data, "--base-url", model.baseUrl, "--turn-timeout", "200"]));
    late = undefined;
    try {
      const keep = (await call(server.url, "POST", "/moots", BODY)).json.id;
      const id = (await call(server.url, "POST", "/moots", BODY)).json.id;
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).status).toBe(504);
      expect((await call(server.url, "DELETE", `/moots/${id}`)).status).toBe(200);
      model.release();
      await until(async () => (await call(server.url, "GET", "/health")).json.running === 0);
      expect(readdirSync(data)).toEqual([`${keep}.json`]);
      expect((await call(server.url, "GET", `/moots/${id}`)).status).toBe(404);
      expect((await call(server.url, "POST", `/moots/${keep}/turns`)).json.turn).toBe(1);
    } finally {
      await server.stop();
      await model.close();
    }
  }, 60_000);
});

describe.skipIf(!existsSync(CLI))("bounded state: --max-moots and --moot-idle", () => {
  // the start-up cleanup is checked on the start of the --max-moots server, which the next test goes on with
  const data = mkdtempSync(join(tmpdir(), "gw-cap-"));
  let capped: RunningServer | undefined;
  afterAll(async () => capped?.stop());

  it("the store's start-up cleanup removes the temporaries of dead writers (pid-named, and the older unnamed kind) and keeps a live writer's", async () => {
    const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
    const id = "0a1b2c3d-0000-4000-8000-000000000000";
    const names = {
      dead: `.${id}.json.${dead}.0123456789abcdef.tmp`,
      old: `.${id}.json.0123456789abcdef.tmp`,
      live: `.${id}.json.${process.pid}.0123456789abcdef.tmp`,
      other: "notes.txt",
    };
    for (const name of Object.values(names)) writeFileSync(join(data, name), "{");
    capped = await startServer(["--data", data, "--max-moots", "3"]);
    expect(readdirSync(data).sort()).toEqual([names.live, names.other].sort());
    expect(capped.stderr()).not.toContain("skipped");
  }, 60_000);

  it("past --max-moots POST /moots answers 429 naming the cap and the flag; saved moots count after a restart; concurrent creations never pass it", async () => {
    let server = capped ?? (await startServer(["--data", data, "--max-moots", "3"]));
    capped = undefined;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await call(server.url, "POST", "/moots", BODY)).json.id);
      const over = await call(server.url, "POST", "/moots", BODY);
      expect(over.status).toBe(429);
      expect(over.json.error).toMatchObject({
        code: "too_many_moots",
        message: "this server holds 3 moots, its cap (--max-moots 3); delete one (DELETE /moots/ID) or start the server with a larger --max-moots",
      });
      expect(over.headers.get("retry-after")).toBeNull();
      await server.kill();
      server = await startServer(["--data", data, "--max-moots", "3"]);
      expect((await call(server.url, "GET", "/health")).json).toMatchObject({ moots: 3, loaded: 0 });
      expect((await call(server.url, "POST", "/moots", BODY)).status).toBe(429);
      await call(server.url, "DELETE", `/moots/${ids[0]}`);
      await call(server.url, "DELETE", `/moots/${ids[1]}`);
      // ten at once for two places: two are made, eight refused
      const burst = await Promise.all(Array.from({ length: 10 }, () => call(server.url, "POST", "/moots", BODY)));
      expect(burst.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429, 429, 429, 429, 429]);
      expect(readdirSync(data).filter((f) => f.endsWith(".json"))).toHaveLength(3);
    } finally {
      await server.stop();
    }
  }, 60_000);

  // npm test: the two tests below at once; npm run test:deep (test/depth.ts): one after the other
  const idleIt = DEEP ? it : it.concurrent;

  idleIt("with --data an idle moot leaves memory and reloads from its file on the next GET or turn", async ({ expect }) => {
    const data = mkdtempSync(join(tmpdir(), "gw-idle-"));
    const server = await startServer(["--data", data, "--moot-idle", "1000"]);
    try {
      const id = (await call(server.url, "POST", "/moots", BODY)).json.id;
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(1);
      expect((await call(server.url, "GET", "/health")).json).toMatchObject({ moots: 1, loaded: 1 });
      await until(async () => (await call(server.url, "GET", "/health")).json.loaded === 0);
      expect((await call(server.url, "GET", "/health")).json.moots).toBe(1);
      const back = await call(server.url, "GET", `/moots/${id}`);
      expect(back.status).toBe(200);
      expect(back.json.utterances).toHaveLength(1);
      expect((await call(server.url, "GET", "/health")).json.loaded).toBe(1);
      await until(async () => (await call(server.url, "GET", "/health")).json.loaded === 0);
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).json.turn).toBe(2);
      expect(saved(data, id).transcript.utterances).toHaveLength(2);
    } finally {
      await server.stop();
    }
  }, 60_000);

  idleIt("without --data an idle moot is gone (404) and no longer counts against --max-moots", async ({ expect }) => {
    const server = await startServer(["--moot-idle", "1000", "--max-moots", "1"]);
    try {
      const id = (await call(server.url, "POST", "/moots", BODY)).json.id;
      expect((await call(server.url, "POST", "/moots", BODY)).status).toBe(429);
      await until(async () => (await call(server.url, "GET", "/health")).json.moots === 0);
      const gone = await call(server.url, "GET", `/moots/${id}`);
      expect(gone.status).toBe(404);
      expect((await call(server.url, "POST", `/moots/${id}/turns`)).status).toBe(404);
      expect((await call(server.url, "POST", "/moots", BODY)).status).toBe(201);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
