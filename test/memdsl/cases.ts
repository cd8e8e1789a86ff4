/** The real-data golden cases: a neighborhood of a real term, rendered with and without elision. */
export interface MemDSLCase {
  name: string;
  /** File in ../shared/data/rdf/ the excerpt was cut from. */
  sharedFile: string;
  /** Excerpt in test/fixtures/memdsl/. */
  input: string;
  focus: string;
  hops: number;
  /** null = no elision. One golden per entry, `<name>.<elision>.expected.memdsl`. */
  elisions: Array<number | null>;
}

export const MEMDSL_CASES: MemDSLCase[] = [
  {
    name: "dbo-city",
    sharedFile: "dbpedia-ontology.ttl",
    input: "dbo-city.input.ttl",
    focus: "http://dbpedia.org/ontology/City",
    hops: 1,
    elisions: [null, 40],
  },
  {
    name: "schema-book",
    sharedFile: "schemaorg-30.0-current-https.ttl",
    input: "schema-book.input.ttl",
    focus: "https://schema.org/Book",
    hops: 1,
    elisions: [null, 60],
  },
];
