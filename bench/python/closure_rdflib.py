"""Python/rdflib peer of groundwire's closure benchmark (bench/kernel.bench.ts).

Reads an edge list (one "child parent" pair of integer ids a line), builds an rdflib
Graph of `<http://g/child> rdfs:subClassOf <http://g/parent>` triples (not timed),
then times the reflexive-transitive closure of every node with rdflib's
Graph.transitive_objects (the subject itself included, as in groundwire's contract).
Checks the total number of (node, ancestor) pairs against the expectation before
reporting. Prints JSON: {"medianMs", "samples", "note"}.

usage: python3 closure_rdflib.py EDGES N EXPECTED_PAIRS SAMPLES
"""
import json
import statistics
import sys
import time

from rdflib import Graph, URIRef
from rdflib.namespace import RDFS


def main() -> None:
    edges_path, n, expected, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    nodes = [URIRef(f"http://g/{i}") for i in range(n)]
    g = Graph()
    with open(edges_path) as f:
        for line in f:
            c, p = line.split()
            g.add((nodes[int(c)], RDFS.subClassOf, nodes[int(p)]))
    times = []
    for _ in range(samples):
        t = time.perf_counter()
        pairs = 0
        for node in nodes:
            for _ancestor in g.transitive_objects(node, RDFS.subClassOf):
                pairs += 1
        times.append((time.perf_counter() - t) * 1000)
        if pairs != expected:
            raise SystemExit(f"rdflib closure: {pairs} pairs, expected {expected}")
    print(json.dumps({"medianMs": statistics.median(times), "samples": samples, "note": f"rdflib {__import__('rdflib').__version__}, transitive_objects per node, {pairs} pairs"}))


if __name__ == "__main__":
    main()
