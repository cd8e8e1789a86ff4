#!/usr/bin/env python3
"""The seed's triple-index algorithm in Python/rdflib, timing itself (bench/triple-index.bench.ts).

Usage: /usr/bin/python3 bench/python/triple_index_reference.py GRAPH.nt [--samples N] [--limit N]

Parses GRAPH with rdflib (timed once), then N times: sort the triples by rendered subject,
rdf:type first, rendered predicate, rendered object (Python str order = code point order),
assign ids 1..N, build the reverse lookup and the subject blocks, and SHA-256 the lines
"s\\tp\\to\\n" -- the seed's build_triple_index. Terms render with Term.n3(namespace_manager)
(rdflib's default bindings: rdf, rdfs, xsd, owl, xml), blank nodes as _:label.
With --limit, only the first N lines of the file are read (the bench says so).
Prints one JSON object: medianMs (wall), medianCpuMs (process CPU), samples, parseMs, triples, fingerprint, maxRssMB.
"""
import argparse
import hashlib
import itertools
import json
import resource
import statistics
import time

from rdflib import BNode, Graph, RDF

RDF_TYPE = RDF.type


def format_term(term, nsmgr):
    if isinstance(term, BNode):
        return f"_:{term}"
    try:
        return term.n3(nsmgr)
    except Exception:
        return str(term)


def build_triple_index(graph):
    nsmgr = graph.namespace_manager
    rendered = {}

    def r(t):
        s = rendered.get(t)
        if s is None:
            s = rendered[t] = format_term(t, nsmgr)
        return s

    def key(triple):
        s, p, o = triple
        return (r(s), p != RDF_TYPE, r(p), r(o))

    by_id, ids, order = {}, {}, []
    digest = hashlib.sha256()
    current, block = None, None
    next_id = 0
    for triple in sorted(graph, key=key):
        s, p, o = triple
        digest.update(f"{r(s)}\t{r(p)}\t{r(o)}\n".encode())
        next_id += 1
        by_id[next_id] = triple
        ids[triple] = next_id
        if s != current:
            current, block = s, []
            order.append((s, block))
        block.append((triple, next_id))
    return by_id, ids, order, digest.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graph")
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    t = time.perf_counter()
    g = Graph()
    if args.limit:
        with open(args.graph, encoding="utf-8") as f:
            data = "".join(itertools.islice(f, args.limit))
        g.parse(data=data, format="nt")
    else:
        g.parse(args.graph, format="nt")
    parse_ms = (time.perf_counter() - t) * 1000
    times, cpu_times, fingerprint = [], [], None
    for _ in range(args.samples):
        t, c = time.perf_counter(), time.process_time()
        by_id, ids, order, fingerprint = build_triple_index(g)
        times.append((time.perf_counter() - t) * 1000)
        cpu_times.append((time.process_time() - c) * 1000)
        assert len(by_id) == len(g) and len(ids) == len(g)
    print(json.dumps({
        "medianMs": statistics.median(times),
        "samples": len(times),
        "medianCpuMs": statistics.median(cpu_times),
        "parseMs": parse_ms,
        "triples": len(g),
        "fingerprint": fingerprint,
        "maxRssMB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "prefixes": {prefix: str(ns) for prefix, ns in g.namespaces()},
    }))


if __name__ == "__main__":
    main()
