// The endpoint suites' wait for the test Virtuoso, which the global setup starts without waiting
// (virtuoso-setup.ts): awaited at the top of each suite that reads GROUNDWIRE_TEST_SPARQL_URL or
// GROUNDWIRE_TEST_GSP_URL, before it reads them. When the start failed, the URLs are withdrawn so
// the suite skips with its note, as when no Virtuoso started; GROUNDWIRE_REQUIRE_VIRTUOSO=1 (CI)
// makes the failure an error instead.
import { existsSync, readFileSync } from "node:fs";

export async function virtuosoReady(limitMs = 180_000): Promise<void> {
  const status = process.env.GROUNDWIRE_TEST_VIRTUOSO_READY;
  if (!status) return;
  const end = Date.now() + limitMs;
  while (!existsSync(status)) {
    if (Date.now() > end) throw new Error(`the test Virtuoso was not ready within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const said = readFileSync(status, "utf8");
  if (said === "ok") return;
  if (process.env.GROUNDWIRE_REQUIRE_VIRTUOSO === "1") throw new Error(`GROUNDWIRE_REQUIRE_VIRTUOSO=1 but the test Virtuoso did not start (${said})`);
  console.log(`note: the test Virtuoso did not start (${said}): the endpoint suites run on the embedded Oxigraph store only.`);
  delete process.env.GROUNDWIRE_TEST_SPARQL_URL;
  delete process.env.GROUNDWIRE_TEST_GSP_URL;
  delete process.env.GROUNDWIRE_TEST_VIRTUOSO_READY;
}
