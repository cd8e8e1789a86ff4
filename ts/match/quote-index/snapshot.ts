/**
 * A built quote index as bytes and back, so a caller can keep it (the CLI's on-disk cache,
 * ts/cli/quote-index-cache.ts) instead of tokenizing the texts again. Browser-safe.
 *
 * Layout (little-endian): "GWQI", u32 QUOTE_INDEX_FORMAT, u32 header length, the header as
 * UTF-8 JSON ({sources, vocabulary: keys in id order, alphabet: [code point, id] pairs,
 * alphabetSize, arrays: [name, length] pairs}), zero padding to a multiple of 4, then each
 * Int32Array of the index in the header's order. The bytes carry no checksum of their own:
 * whoever stores them checks their integrity (the CLI cache keeps a SHA-256 beside them).
 */
import { type Prepared } from "./types.js";

/** The snapshot's format; any change of the layout or of what the index holds bumps it. */
export const QUOTE_INDEX_FORMAT = 1;

const MAGIC = [0x47, 0x57, 0x51, 0x49]; // "GWQI"
const ARRAYS = ["chars", "charStart", "charEnd", "sourceWords", "spans", "wordIds", "postingStart", "postings", "postingChars", "wordSource"] as const;
type ArrayName = (typeof ARRAYS)[number];

interface Header {
  sources: Prepared["sources"];
  vocabulary: string[];
  alphabet: [number, number][];
  alphabetSize: number;
  arrays: [ArrayName, number][];
}

/** The prepared index as bytes. */
export function preparedToBytes(ix: Prepared): Uint8Array {
  const vocabulary: string[] = new Array(ix.vocabulary.size);
  for (const [k, id] of ix.vocabulary) vocabulary[id] = k;
  const header: Header = {
    sources: ix.sources,
    vocabulary,
    alphabet: [...ix.alphabet],
    alphabetSize: ix.alphabetSize,
    arrays: ARRAYS.map((name) => [name, ix[name].length]),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const headStart = 12;
  const bodyStart = Math.ceil((headStart + json.length) / 4) * 4;
  const total = bodyStart + ARRAYS.reduce((n, name) => n + ix[name].byteLength, 0);
  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, QUOTE_INDEX_FORMAT, true);
  view.setUint32(8, json.length, true);
  out.set(json, headStart);
  let at = bodyStart;
  for (const name of ARRAYS) {
    const a = ix[name];
    // Int32Array bytes are the platform's order; every platform Node runs on is little-endian
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at += a.byteLength;
  }
  return out;
}

/**
 * The prepared index from {@link preparedToBytes}'s bytes.
 * @throws RangeError when the bytes are not a snapshot of this format, or are cut short
 */
export function preparedFromBytes(bytes: Uint8Array): Prepared {
  const bad = (why: string) => new RangeError(`not a quote index snapshot of format ${QUOTE_INDEX_FORMAT}: ${why}`);
  if (bytes.length < 12 || MAGIC.some((b, i) => bytes[i] !== b)) throw bad("no GWQI mark");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) !== QUOTE_INDEX_FORMAT) throw bad(`format ${view.getUint32(4, true)}`);
  const headLength = view.getUint32(8, true);
  if (12 + headLength > bytes.length) throw bad("header cut short");
  const header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(12, 12 + headLength))) as Header;
  let at = Math.ceil((12 + headLength) / 4) * 4;
  const arrays = {} as Record<ArrayName, Int32Array>;
  for (const [name, length] of header.arrays) {
    if (!ARRAYS.includes(name) || !Number.isInteger(length) || length < 0 || at + 4 * length > bytes.length) throw bad(`array ${String(name)} cut short`);
    // copied into an aligned buffer of its own (a Node Buffer's slice would share its pool)
    const array = new Int32Array(length);
    new Uint8Array(array.buffer).set(bytes.subarray(at, at + 4 * length));
    arrays[name] = array;
    at += 4 * length;
  }
  if (at !== bytes.length || ARRAYS.some((name) => !arrays[name])) throw bad("length differs from its header");
  return {
    sources: header.sources,
    alphabet: new Map(header.alphabet),
    alphabetSize: header.alphabetSize,
    vocabulary: new Map(header.vocabulary.map((k, id) => [k, id])),
    ...arrays,
  };
}
