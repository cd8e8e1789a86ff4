import { fragmentMarkdown } from "../../ts/node.js";
const check = (name: string, src: string) => {
  const fs = fragmentMarkdown("doc", src);
  const bad = fs.filter((f: any) => src.slice(f.start, f.end) !== f.text);
  console.log(name, fs.length, "fragments, slice mismatches:", bad.length, bad.slice(0, 2).map((f: any) => [f.kind, f.start, f.end, JSON.stringify(f.text)]));
};
check("bom", "\uFEFF# Pricing\n\nThe fee is 10\n");
check("nul", "- a\u0000b\n  > q\u0000\n\n| a |\n| - |\n| \u0000 |\n");
check("crlf", "- a\r\n  > q\r\n  > r\r\n\r\n> - x\r\n>   y\r\n");
check("cr", "- a\r  > q\r  > r\r\r> - x\r>   y\r");
check("tabs", "-\ta\n\t> q\n>\t- x\n>\t\ty\n\n\t\tcode\n");
const t = fragmentMarkdown("doc", "| a | b |\n| - | - |\n| apples |\n| pears | 4 | 5 |\n").filter((f: any) => f.kind === "row");
console.log("cells", JSON.stringify(t.map((r: any) => r.cells?.map((c: any) => c.text ?? c))));
