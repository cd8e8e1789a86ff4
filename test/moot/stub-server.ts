// A stub OpenAI-compatible chat server on 127.0.0.1 for the synthesizer and CLI tests.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubRequest {
  url: string;
  headers: IncomingMessage["headers"];
  body: { model?: string; messages: Array<{ role: string; content: string }>; max_tokens?: number; temperature?: number };
}

/** Start a server whose replies come from `reply(request, index)`: `{status?, content}` or a raw body string. */
export async function startStub(
  reply: (req: StubRequest, index: number) => { status?: number; content?: string | null; raw?: string },
): Promise<{ baseUrl: string; requests: StubRequest[]; close: () => Promise<void> }> {
  const requests: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      const request: StubRequest = { url: req.url ?? "", headers: req.headers, body: JSON.parse(data || "{}") };
      requests.push(request);
      const r = reply(request, requests.length - 1);
      res.writeHead(r.status ?? 200, { "content-type": "application/json" });
      res.end(r.raw ?? JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: r.content ?? null } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
