/**
 * The library's Node start-up, one place for the Node entry, the CLI, the server's workers, the
 * test setup and the bench runner: bindings/init-node.ts (node:crypto, every WASM module's bytes
 * given and compiled) plus the deferred parts that live in ts/ — bestSpan's pre-pass
 * (ts/match/pre-pass.ts) — given at once, so code imported after the start-up (a CLI command, a
 * bench suite) has it from its first call. `loadDeferred` (ready()) loads only the parts defined
 * by the time it runs; one defined later would arrive a turn of the event loop after its first
 * use, and a synchronous run of calls would go without it (identical answers, slower).
 */
import { initNodeBackends, useNodeBackends } from "../bindings/init-node.js";
import { providePrePass } from "./match/index.js";

/** Synchronous, for the Node entry's import: `useNodeBackends()` and the pre-pass given. Idempotent; never throws. */
export function useNodeStart(): void {
  useNodeBackends();
  providePrePass();
}

/**
 * The pre-pass given, then `initNodeBackends()`: `useNodeBackends()` and the background compile
 * awaited where Node refused the synchronous one. Never rejects.
 */
export async function initNodeStart(): Promise<void> {
  providePrePass();
  await initNodeBackends();
}
