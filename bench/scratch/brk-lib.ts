// breaker (session 10): compare fragmentMarkdown with the reference fragmenter on a text.
import { fragmentMarkdown } from "../../ts/node.js";
import { fragmentMarkdown as reference } from "../../test/evidence/reference-fragmenter.js";
const key = (f: any) => [f.fragmentId, f.contentHash, f.path, f.kind, f.start, f.end, f.line].join(" ");
export function compare(name: string, text: string): number {
  const c0 = process.cpuUsage();
  let a: string[] | null = null, err = "";
  try { a = fragmentMarkdown("d", text).map(key); } catch (e) { err = (e as Error).message.slice(0, 200); }
  const c1 = process.cpuUsage(c0);
  let b: string[] | null = null, rerr = "";
  const c2 = process.cpuUsage();
  try { b = reference("d", text).map(key); } catch (e) { rerr = (e as Error).message.slice(0, 200); }
  const c3 = process.cpuUsage(c2);
  const ours = (c1.user + c1.system) / 1e3, ref = (c3.user + c3.system) / 1e3;
  let diff = 0; const shown: string[] = [];
  if (a && b) for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) { if (diff++ < 3) shown.push(`  #${i} ours ${a[i]}\n      ref  ${b[i]}`); }
  console.log(`${name}: ${text.length} chars; ours ${ours.toFixed(0)} ms ${a ? a.length : "THREW " + err}; ref ${ref.toFixed(0)} ms ${b ? b.length : "THREW " + rerr}; ratio ${(ours / ref).toFixed(2)}; diffs ${diff}`);
  for (const s of shown) console.log(s);
  return diff + (a ? 0 : 1);
}
/** A list of items built by `item(i)` (lines, no trailing newline), with a table in item 3 so micromark reads the list, until over `size` code units. */
export function listDoc(item: (i: number) => string, size = 300_000, opts: { eol?: string; pre?: string; post?: string; tableItem?: number } = {}): string {
  const parts: string[] = [opts.pre ?? "# T\n\nintro\n\n"];
  let n = 0, len = parts[0].length;
  for (let i = 0; len < size; i++) {
    const s = i === (opts.tableItem ?? 3) ? `- Table ${i}\n\n  | a | b |\n  | - | - |\n  | ${i} | x |\n` : item(i) + "\n";
    parts.push(s); len += s.length; n++;
  }
  parts.push(opts.post ?? "\nafter\n");
  let t = parts.join("");
  if (opts.eol) t = t.replace(/\n/g, opts.eol);
  return t;
}
