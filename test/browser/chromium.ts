/**
 * Debian's Chromium (/usr/bin/chromium; `.ci/run` installs it with apt), driven by
 * playwright-core. Never a downloaded browser. Flags: headless, no sandbox (CI runs as
 * root), no GPU, and none of Chromium's own network traffic (this machine's network is
 * closed, and every start would otherwise try Google's hosts); a fresh profile each launch.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.GROUNDWIRE_CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

/** Launch Chromium with a fresh user-data-dir; `extraArgs` e.g. `--js-flags=--noexpose-wasm`. */
export async function launchChromium(extraArgs: string[] = []): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "groundwire-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport: { width: 1100, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
