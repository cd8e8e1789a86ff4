// Transcript.fromDict and Moot.toState/Moot.resume: a moot saved as JSON after every turn and
// continued from the save says exactly what the uninterrupted moot says.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../../ts/moot/corpus-node.js";
import { Moot, runMoot } from "../../ts/moot/moot.js";
import { Transcript, TranscriptFormatError } from "../../ts/moot/transcript.js";
import { createExtractiveSynthesizer } from "../../ts/moot/synth.js";

const corpus = loadCorpus(join(fileURLToPath(new URL("../..", import.meta.url)), "data/books"));
const KEYS = ["novel/frankenstein", "diary/pepys-1660"];

describe("resumable moots", () => {
  it("a moot resumed from JSON after every turn matches the uninterrupted one, summaries and stats included", async () => {
    const synth = createExtractiveSynthesizer();
    const whole = await runMoot(corpus, synth, KEYS, "fire and ruin", 9, { k: 4, modelName: "extractive" });
    let moot = new Moot(corpus, synth, KEYS, "fire and ruin", 9, { k: 4, modelName: "extractive" });
    await moot.start();
    while (!moot.done) {
      await moot.nextTurn();
      // what the server writes, read back in a new process
      moot = Moot.resume(corpus, synth, JSON.parse(JSON.stringify(moot.toState())));
    }
    expect(moot.transcript!.toDict()).toEqual(whole.toDict());
    expect(whole.summaries.length).toBe(2);
    const state = moot.toState();
    expect(state.cited[KEYS[0]!]!.length).toBeGreaterThan(0);
    expect(state.pools[KEYS[1]!]!.every((p) => p.content.length > 0)).toBe(true);
  });

  it("Transcript.fromDict reads toDict back and recomputes the stats", async () => {
    const t = await runMoot(corpus, createExtractiveSynthesizer(), KEYS, null, 3, { k: 3 });
    const data = JSON.parse(JSON.stringify(t.toDict()));
    data.stats.turns = 99;
    const back = Transcript.fromDict(data);
    expect(back).toBeInstanceOf(Transcript);
    expect(back.toDict()).toEqual(t.toDict());
    expect(back.stats().turns).toBe(3);
  });

  it("refuses a malformed save, naming the field", async () => {
    const t = await runMoot(corpus, createExtractiveSynthesizer(), KEYS, null, 2, { k: 3 });
    const d = t.toDict();
    expect(() => Transcript.fromDict({ ...d, utterances: [d.utterances[1], d.utterances[0]] })).toThrow('saved transcript: "utterances" must be a list of utterances numbered 1, 2, …');
    expect(() => Transcript.fromDict({ ...d, trees: [] })).toThrow(TranscriptFormatError);
    expect(() => Transcript.fromDict(null)).toThrow(TranscriptFormatError);
    const moot = new Moot(corpus, createExtractiveSynthesizer(), KEYS, null, 2, { k: 3 });
    await moot.start();
    const state = moot.toState();
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, version: 2 })).toThrow('saved moot: "version" must be 1');
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, pools: {} })).toThrow(/saved moot: "pools" must be a list per book/);
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, options: { ...state.options, temperature: "hot" } })).toThrow('saved moot: "options.temperature" must be a number of at least 0');
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, options: { ...state.options, temperature: -1 } })).toThrow(/"options.temperature"/);
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, options: { ...state.options, k: "6" } })).toThrow('saved moot: "options.k" must be a number');
    expect(() => Moot.resume(corpus, createExtractiveSynthesizer(), { ...state, options: { ...state.options, model: 7 } })).toThrow('saved moot: "options.model" must be a string');
    expect(Moot.resume(corpus, createExtractiveSynthesizer(), JSON.parse(JSON.stringify(state))).temperature).toBe(0.6);
  });
});
