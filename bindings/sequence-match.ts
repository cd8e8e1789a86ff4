/**
 * Binding of the WASM best-span kernel (assembly/sequence-match.ts).
 *
 * Types the raw exports, keeps typed-array views on the kernel's arena (its
 * buffer addresses come from the pointer table `seqReserve` returns) and
 * rebuilds them only when the arena moves (its generation changes) or memory
 * grows (the old ArrayBuffer is detached). Inputs cross in one batch per call:
 * the pool's interned ids with one `set()` per array — and only when a
 * different pool was loaded last — then every quote of the batch with one
 * `set()`, then one `seqMatch` call for the whole batch.
 */
import type { WasmExports } from "./wasm.js";

/** The raw exports of assembly/sequence-match.ts. */
export interface SeqExports {
  memory: WebAssembly.Memory;
  seqReserve(poolChars: number, poolWords: number, sources: number, quoteChars: number, quotes: number, alphabet: number, maxQuoteLen: number): number;
  seqMatch(nSources: number, nQuotes: number, alphabet: number): void;
  seqRatio(la: number, lb: number): number;
}

/** The pool as the kernel reads it (see ts/match/best-span.ts `PreparedPool`). */
export interface SeqPool {
  chars: Int32Array;
  charStart: Int32Array;
  charEnd: Int32Array;
  sourceWords: Int32Array;
}

/** One quote: interned ids, word count, and the size of the alphabet its ids come from. */
export interface SeqQuote {
  ids: Int32Array;
  words: number;
  alphabetSize: number;
}

/** A kernel result: source index, first word (global index), window size in words, ratio. -1 source = none. */
export interface SeqFound {
  source: number;
  word: number;
  size: number;
  ratio: number;
}

/** The names the match module exports for this kernel (tested in test/match/best-span.test.ts). */
export const SEQ_EXPORTS = ["seqReserve", "seqMatch", "seqRatio"] as const;
/** The names a module serving only `ratio` must export (the suggest module has no `seqMatch`). */
const RATIO_EXPORTS = ["seqReserve", "seqRatio"] as const;

/** A live binding to one instance's kernel. */
export interface SeqBinding {
  /** Best span of every quote over `pool`; `owner` identifies the pool so it is copied in only when it changes. */
  match(owner: object, pool: SeqPool, quotes: readonly SeqQuote[]): SeqFound[];
  /** difflib ratio of two id sequences (autojunk off), computed by the kernel. */
  ratio(a: ArrayLike<number>, b: ArrayLike<number>): number;
}

const bindings = new WeakMap<object, SeqBinding>();

/** The binding for `exports` (created once per instance). Throws when `seqReserve` or `seqRatio` is missing; its `match` throws on a module without `seqMatch`. */
export function seqBindingFor(exports: WasmExports): SeqBinding {
  let b = bindings.get(exports);
  if (!b) {
    for (const name of RATIO_EXPORTS) {
      if (typeof exports[name] !== "function") throw new Error(`groundwire wasm: export ${name} is missing (rebuild with npm run build:wasm)`);
    }
    b = createBinding(exports as unknown as SeqExports);
    bindings.set(exports, b);
  }
  return b;
}

function createBinding(x: SeqExports): SeqBinding {
  // Whole-memory views, cached; rebuilt only when memory grows (the old buffer is then detached).
  let buffer: ArrayBuffer | null = null;
  let i32 = new Int32Array(0);
  let f64 = new Float64Array(0);
  let generation = -1;
  let loaded: object | null = null;

  /** Reserve room, refresh the views if memory grew; returns the pointer table as i32 indices/values. */
  function reserve(poolChars: number, poolWords: number, sources: number, quoteChars: number, quotes: number, alphabet: number, maxQuoteLen: number) {
    const table = x.seqReserve(poolChars, poolWords, sources, quoteChars, quotes, alphabet, maxQuoteLen);
    if (x.memory.buffer !== buffer) {
      buffer = x.memory.buffer;
      i32 = new Int32Array(buffer);
      f64 = new Float64Array(buffer);
    }
    const t = table >> 2;
    if (i32[t] !== generation) {
      generation = i32[t];
      loaded = null; // the arena moved: whatever pool was there is gone
    }
    return {
      chars: i32[t + 1] >> 2, charStart: i32[t + 2] >> 2, charEnd: i32[t + 3] >> 2, sourceWords: i32[t + 4] >> 2,
      quoteChars: i32[t + 5] >> 2, quoteMeta: i32[t + 6] >> 2, results: i32[t + 7] >> 2, ratios: i32[t + 8] >> 3,
    };
  }

  return {
    match(owner, pool, quotes) {
      if (typeof x.seqMatch !== "function") throw new Error("groundwire wasm: this module has no seqMatch (bestSpan's scan is in the match module)");
      let total = 0;
      let maxLen = 1;
      let alphabet = 1;
      for (const q of quotes) {
        total += q.ids.length;
        if (q.ids.length > maxLen) maxLen = q.ids.length;
        if (q.alphabetSize > alphabet) alphabet = q.alphabetSize;
      }
      const nSources = pool.sourceWords.length - 1;
      const at = reserve(pool.chars.length, pool.charStart.length, nSources, total, quotes.length, alphabet, maxLen);
      if (loaded !== owner) {
        i32.set(pool.chars, at.chars);
        i32.set(pool.charStart, at.charStart);
        i32.set(pool.charEnd, at.charEnd);
        i32.set(pool.sourceWords, at.sourceWords);
        loaded = owner;
      }
      // every quote back to back, and their (offset, length, words): one set() each
      const ids = new Int32Array(total);
      const meta = new Int32Array(3 * quotes.length);
      let off = 0;
      for (let i = 0; i < quotes.length; i++) {
        const q = quotes[i];
        ids.set(q.ids, off);
        meta[3 * i] = off;
        meta[3 * i + 1] = q.ids.length;
        meta[3 * i + 2] = q.words;
        off += q.ids.length;
      }
      i32.set(ids, at.quoteChars);
      i32.set(meta, at.quoteMeta);
      x.seqMatch(nSources, quotes.length, alphabet);
      const out: SeqFound[] = [];
      for (let i = 0; i < quotes.length; i++) {
        const r = at.results + 3 * i;
        out.push({ source: i32[r], word: i32[r + 1], size: i32[r + 2], ratio: f64[at.ratios + i] });
      }
      return out;
    },
    ratio(a, b) {
      const la = a.length;
      const lb = b.length;
      const at = reserve(0, 0, 0, la + lb, 1, 1, Math.max(1, lb));
      i32.set(a, at.quoteChars);
      i32.set(b, at.quoteChars + la);
      return x.seqRatio(la, lb);
    },
  };
}
