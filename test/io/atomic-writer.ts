// A writer to be killed: saves `argv[2]` with writeFileAtomic in a loop, `argv[3]` MiB a time,
// and prints "writing" once before its first save (so the test knows it runs).
import { writeFileAtomic } from "../../ts/files.js";

const target = process.argv[2]!;
const bytes = Buffer.alloc(Number(process.argv[3] ?? 16) * 1024 * 1024, 0x61);
process.stdout.write("writing\n");
for (;;) writeFileAtomic(target, bytes);
