# The x64 code of the wasm function with the most vpshufb (the lanes kernels), and its opcode counts.
node --no-liftoff --no-wasm-lazy-compilation --print-wasm-code bench/scratch/s10-wasm-code.mjs > /tmp/s10-code.txt 2>&1
f=$(awk '/^name: /{name=$0} /vpshufb/{c[name]++} END{for(k in c) print c[k], k}' /tmp/s10-code.txt | sort -n | tail -1 | cut -d' ' -f2-)
awk -v n="$f" '/^name: /{p=($0==n)} p' /tmp/s10-code.txt > /tmp/s10-fn.asm
echo "$f: $(wc -l < /tmp/s10-fn.asm) lines"; awk '{print $4}' /tmp/s10-fn.asm | sort | uniq -c | sort -rn | head -${1:-12}
