/**
 * N3.js, the RDF parser, writer and store (static import; see ts/deps/README.md for the
 * Node variant). One function per class, not one object, so a bundler keeps only the ones
 * a page calls: a page that parses with `parseQuads` and never builds a store does not
 * carry N3.js's `Store` (and the stream polyfills it brings).
 */
import { DataFactory, Parser, Store, Writer } from "n3";

/** N3.js's RDF/JS data factory. Never throws. */
export function n3DataFactory(): typeof DataFactory {
  return DataFactory;
}

/** N3.js's parser class (Turtle, TriG, N-Triples, N-Quads). Never throws. */
export function n3Parser(): typeof Parser {
  return Parser;
}

/** N3.js's writer class. Never throws. */
export function n3Writer(): typeof Writer {
  return Writer;
}

/** N3.js's `Store` class. Never throws. */
export function n3Store(): typeof Store {
  return Store;
}

/** The class GraphStore extends: here N3.js's `Store` itself. */
export const StoreBase: typeof Store = Store;
