# Replace lanes32i in assembly/quote-index.ts with the generator's current output (scratch helper).
import re, subprocess
gen = subprocess.run(["node", "scripts/gen-quote-index-simd.mjs", "lanes32i"], capture_output=True, text=True, check=True).stdout.rstrip("\n")
p = "assembly/quote-index.ts"
s = open(p).read()
a = s.index("function lanes32i("); a = s.rindex("/**", 0, a)
b = s.index("\n}\n", a) + 2
s = s[:a] + gen + s[b:]
open(p, "w").write(s)
