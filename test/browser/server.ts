/**
 * A static file server on 127.0.0.1 for the browser suite (node:http, no dependency).
 * `mounts` maps a URL prefix to a directory; anything else, or a path escaping its
 * directory, is a 404. Files are served as they are, with the right module MIME types.
 */
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".md": "text/markdown; charset=utf-8",
  ".nt": "application/n-triples; charset=utf-8",
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/** Serve `mounts` (URL prefix → directory) on an ephemeral port of 127.0.0.1. */
export async function serveStatic(mounts: Record<string, string>): Promise<StaticServer> {
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length)));
      if (!file.startsWith(normalize(dir + sep)) && file !== normalize(dir)) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
        res.end(body);
        return;
      } catch {
        break;
      }
    }
    res.writeHead(404, { "content-type": "text/plain" });
    res.end(`not found: ${path}`);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("static server has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    // Chromium keeps its connections alive; close them too, or close() waits out their idle timeout
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
