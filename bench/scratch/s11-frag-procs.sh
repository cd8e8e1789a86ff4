#!/usr/bin/env bash
# Alternating processes of s11-frag-one.mjs for builds A and B: per-file medians of the per-process medians.
# usage: bash bench/scratch/s11-frag-procs.sh <distA/node.js> <distB/node.js> [pairs]
A=$1; B=$2; P=${3:-6}
for f in ../shared/data/markdown/system-design-primer/v039.md ../shared/data/markdown/commonmark/spec.txt; do
  a=(); b=()
  for i in $(seq "$P"); do a+=("$(node bench/scratch/s11-frag-one.mjs "$A" "$f")"); b+=("$(node bench/scratch/s11-frag-one.mjs "$B" "$f")"); done
  ma=$(printf '%s\n' "${a[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  mb=$(printf '%s\n' "${b[@]}" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
  echo "$(basename "$f"): A ${a[*]} | B ${b[*]} | medians $ma $mb ratio $(awk -v x="$ma" -v y="$mb" 'BEGIN{printf "%.3f", x/y}')"
done
