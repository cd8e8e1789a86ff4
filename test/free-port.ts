// A free TCP port on the loopback interface: bind port 0, read the port the kernel gave, close.
import { createServer } from "node:net";

/** A port nothing listens on at this moment (127.0.0.1), for a server a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}
