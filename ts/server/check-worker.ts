/**
 * The worker thread of the check pool (pool.ts), built to dist/check-worker.js: loads the
 * server's context once (corpus, `--graph` and `--schema` files, the work bounds) from the
 * pool's workerData, then answers each task `{name, body}` with the check's JSON text, or the
 * error as `{status, code, message}` (an error class does not survive the thread boundary).
 */
import { workerData } from "node:worker_threads";
import { initNodeStart } from "../node-start.js";
import { GroundwireError } from "../errors.js";
import { loadCorpus } from "../moot/corpus-node.js";
import { createEmbeddedCorpus } from "../moot/index.js";
import { loadServerContext, type CheckContext } from "./checks.js";
import { errorResponse } from "./errors.js";
import { answerText, CHECKS, type CheckName, type WorkerAnswer, type WorkerContextOptions } from "./pool.js";

await initNodeStart();
const options = workerData as WorkerContextOptions;
const ctx: CheckContext = { ...loadServerContext(options.books ? createEmbeddedCorpus(options.books) : loadCorpus(options.corpusDir), options.graphPairs, options.schemaPairs, options.endpoints, options.sparql), limits: options.limits };

/** One check, run here. */
export default async function runTask(task: { name: CheckName; body: unknown }): Promise<WorkerAnswer> {
  try {
    const check = CHECKS[task.name] as (c: CheckContext, b: never) => unknown;
    return { ok: true, text: answerText(await check(ctx, task.body as never), ctx.limits) };
  } catch (error) {
    const { status, code, message } = errorResponse(error);
    const answer: WorkerAnswer = { ok: false, status, code, message };
    if (error instanceof GroundwireError && error.retryAfter !== undefined) answer.retryAfter = error.retryAfter;
    if (status >= 500) answer.stack = String((error as Error)?.stack ?? error);
    return answer;
  }
}
