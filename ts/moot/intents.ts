
import { checkArgs } from "../args.js";/**
 * The move each turn of a moot is asked to make (open, answer, challenge, example, question,
 * close), and which move falls to which turn. Recorded on each utterance (`Utterance.intent`).
 */

/**
 * The move each turn is asked to make; `{other}` becomes the other book's title.
 * `open` is turn 1's (its prompt has its own opening line), `close` each book's last turn.
 */
export const INTENTS = {
  open: "Open the moot.",
  answer: "Take up what {other} just said and answer it from your own pages.",
  challenge: "Find where your pages part ways with {other} and press that difference.",
  example: "Give {other} one concrete scene or day from your pages that bears on the point.",
  question: "Put one pointed question to {other}, grounded in what your pages show.",
  close: "This is your last word to {other}: draw your side together in a few sentences.",
} as const;

/** A key of {@link INTENTS}. */
export type Intent = keyof typeof INTENTS;

const MIDDLE_INTENTS: Intent[] = ["answer", "challenge", "example", "question"];

/**
 * The move for turn `number` (from 1) of a moot of `turns` turns: `open` for
 * turn 1, `close` for the last two (each book's last word), the middle moves
 * (`answer`, `challenge`, `example`, `question`) in rotation between.
 */
export function turnIntent(number: number, turns: number): Intent {
  checkArgs("turnIntent", arguments, "number:int turns:int");
  if (number === 1) return "open";
  if (number > turns - 2) return "close";
  return MIDDLE_INTENTS[(number - 2) % MIDDLE_INTENTS.length]!;
}
