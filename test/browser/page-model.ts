/**
 * A stub OpenAI-compatible model endpoint on 127.0.0.1 for the page's browser test and
 * scripts/screenshot.ts: each reply is the offline extractive synthesizer's (grounded quotes of
 * the passages the prompt carries), then spoiled three ways, as models do: the first quote
 * gets one word wrong (a near miss the server snaps), the second quote's tag names the first
 * quote's passage (a wrong tag), and a made-up quote is added.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createExtractiveSynthesizer, type ChatMessage } from "../../ts/moot/index.js";

/** The word the near miss puts in place of one of the quote's words. */
export const WRONG_WORD = "crimson";
/** The quote no book holds. */
export const MADE_UP = "the purple moon sang softly over the silent glass hills";

/** Spoil an extractive reply: a near miss, a wrong tag and a made-up quote. `replaced` gets each word the near miss replaced. */
export function spoil(reply: string, replaced: string[]): string {
  const quotes = [...reply.matchAll(/"([^"]+)" \[(s\d+)\]/g)];
  const first = quotes[0];
  if (!first) return `${reply} And "${MADE_UP}" [s1].`;
  const words = first[1]!.split(" ");
  // a word of letters only, near the middle, so the quote stays a near miss of its passage
  const at = [...words.keys()].sort((a, b) => Math.abs(a - words.length / 2) - Math.abs(b - words.length / 2)).find((i) => /^[A-Za-z]{4,}$/.test(words[i]!));
  let out = reply;
  if (at !== undefined) {
    replaced.push(words[at]!);
    words[at] = WRONG_WORD;
    out = out.replace(`"${first[1]}"`, `"${words.join(" ")}"`);
  }
  const second = quotes[1];
  if (second && second[2] !== first[2]) out = out.replace(`"${second[1]}" [${second[2]}]`, `"${second[1]}" [${first[2]}]`);
  return `${out} And "${MADE_UP}" [${first[2]}].`;
}

/**
 * Start the stub; `replaced` lists the words its near misses replaced, in order. `hold()` makes it
 * keep its next replies until the returned function is called (so a turn in progress stays on
 * screen until the test has seen it).
 */
export async function startStubModel(): Promise<{ baseUrl: string; replaced: string[]; hold(): () => void; close(): Promise<void> }> {
  const extractive = createExtractiveSynthesizer();
  const replaced: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      await gate;
      const messages = (JSON.parse(body) as { messages: ChatMessage[] }).messages;
      const text = spoil((await extractive.complete(messages)) ?? "", replaced);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ model: "stub-7b", choices: [{ message: { role: "assistant", content: text } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    replaced,
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
