/**
 * The library's Node start-up, one place for the Node entry, the CLI, the server's workers, the
 * test setup and the bench runner: bindings/init-node.ts (node:crypto, every WASM module's bytes
 * given and compiled) plus the deferred parts that live in ts/ — bestSpan's pre-pass
 * (ts/match/pre-pass.ts) — given at once. A start-up that left the pre-pass to `loadDeferred`
 * got it only where its module was imported before that ran; imported later (a CLI command, a
 * bench suite), it arrived at the first bestSpan's next turn of the event loop, so a synchronous
 * run of calls went without it to the end (identical answers, the verbatim class ~20× slower).
 */
import { initNodeBackends, useNodeBackends } from "../bindings/init-node.js";
import { providePrePass } from "./match/index.js";

/** Synchronous, for the Node entry's import: `useNodeBackends()` and the pre-pass given. Idempotent; never throws. */
export function useNodeStart(): void {
  useNodeBackends();
  providePrePass();
}

/** `useNodeStart()`, then what `initNodeBackends` awaits (a compile Node refused synchronously). Never rejects. */
export async function initNodeStart(): Promise<void> {
  providePrePass();
  await initNodeBackends();
}
