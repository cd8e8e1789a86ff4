// The workerd smoke test's worker: POST the workload's input, get its result as JSON
// (with ?ready: after `await ready()`, the fast path a worker may take).
// Bundled from this file by esbuild as wrangler would (test/package/runtimes.test.ts), or
// loaded with the self-contained dist/browser/groundwire.js as it is.
import * as groundwire from "groundwire";
import { workload } from "./workload.js";

export default {
  async fetch(request) {
    const input = await request.json();
    if (new URL(request.url).searchParams.has("ready")) await groundwire.ready();
    return Response.json(workload(groundwire, input));
  },
};
