/**
 * In-band chat-template control syntax: the strings the chat templates in common use read
 * as turn boundaries, roles or special tokens. In untrusted text (a node body, a title, a
 * book passage) each is neutralised — its opening `<` becomes `&lt;`, its `[` becomes
 * `&#91;` — so no downstream tokenizer or reader takes it for the real thing, and each
 * neutralisation is reported (MemDSL: a `control` gap).
 *
 * Matching folds every character as the fence check does (untrusted.ts `foldText`: TR39
 * confusables, NFKD, case, invisible characters dropped), so `＜|im_start|＞`, `<|IM_START|>`,
 * `<|im_\u200Bstart|>` and DeepSeek's fullwidth bars `<｜User｜>` all match.
 *
 * The list: each entry names the template and where its spelling comes from (the model
 * card or the `chat_template` of the tokenizer_config.json on Hugging Face). Two shapes
 * cover families whose token names vary: `<|name|>` (ChatML, Llama 3, Harmony, Phi, Granite,
 * Command-R, DeepSeek with fullwidth bars) and `[NAME]`/`[/NAME]` with an upper-case name
 * (Mistral's control tokens).
 */
import { foldText } from "./untrusted.js";
import { checkArgs } from "../args.js";

/** One control string of a chat template, with its source. */
export interface ChatControlToken {
  /** The spelling, as the template writes it. */
  token: string;
  /** The template family. */
  template: string;
  /** Where the spelling is documented. */
  source: string;
}

const QWEN = "Qwen/Qwen2.5-7B-Instruct tokenizer_config.json chat_template (ChatML)";
const LLAMA2 = "meta-llama/Llama-2-7b-chat-hf tokenizer_config.json chat_template";
const LLAMA3 = "meta-llama/Llama-3.1-8B-Instruct tokenizer_config.json chat_template; Llama 3.1 model card prompt format";
const GEMMA = "google/gemma-2-9b-it tokenizer_config.json chat_template";
const MISTRAL = "mistralai/Mistral-Small-24B-Instruct-2501 tokenizer_config.json chat_template; mistral-common control tokens";
const HARMONY = "openai/gpt-oss-20b chat_template; OpenAI Harmony response format";
const PHI3 = "microsoft/Phi-3-mini-4k-instruct tokenizer_config.json chat_template";
const PHI4 = "microsoft/phi-4 tokenizer_config.json chat_template";
const DEEPSEEK = "deepseek-ai/DeepSeek-V3 / DeepSeek-R1 tokenizer_config.json chat_template";
const COMMAND_R = "CohereForAI/c4ai-command-r-v01 tokenizer_config.json chat_template";
const GRANITE = "ibm-granite/granite-3.1-8b-instruct tokenizer_config.json chat_template";
const ZEPHYR = "HuggingFaceH4/zephyr-7b-beta tokenizer_config.json chat_template";
const GEMMA3 = "google/gemma-3-4b-it tokenizer_config.json chat_template and special tokens";
const GLM4 = "THUDM/glm-4-9b-chat tokenizer_config.json chat_template";
const SEED = "ByteDance-Seed/Seed-OSS-36B-Instruct tokenizer_config.json chat_template";

const entries = (template: string, source: string, tokens: string[]): ChatControlToken[] => tokens.map((token) => ({ token, template, source }));

/** The control strings neutralised, by template (a string may appear under several). */
export const CHAT_CONTROL_TOKENS: readonly ChatControlToken[] = [
  ...entries("ChatML (Qwen)", QWEN, ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<tool_call>", "</tool_call>", "<tools>", "</tools>", "<tool_response>", "</tool_response>", "<think>", "</think>"]),
  ...entries("Llama 2", LLAMA2, ["[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "<s>", "</s>"]),
  ...entries("Llama 3", LLAMA3, ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>"]),
  ...entries("Gemma", GEMMA, ["<start_of_turn>", "<end_of_turn>", "<bos>", "<eos>"]),
  ...entries("Mistral", MISTRAL, ["[INST]", "[/INST]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_CALLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[THINK]", "[/THINK]", "<s>", "</s>"]),
  ...entries("Harmony (gpt-oss)", HARMONY, ["<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|return|>", "<|call|>", "<|startoftext|>"]),
  ...entries("Phi-3", PHI3, ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]),
  ...entries("Phi-4", PHI4, ["<|im_start|>", "<|im_sep|>", "<|im_end|>"]),
  ...entries("DeepSeek", DEEPSEEK, ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", "<think>", "</think>"]),
  ...entries("Command-R", COMMAND_R, ["<BOS_TOKEN>", "<|START_OF_TURN_TOKEN|>", "<|END_OF_TURN_TOKEN|>", "<|SYSTEM_TOKEN|>", "<|USER_TOKEN|>", "<|CHATBOT_TOKEN|>"]),
  ...entries("Granite", GRANITE, ["<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>", "<|tool_call|>"]),
  ...entries("Zephyr", ZEPHYR, ["<|system|>", "<|user|>", "<|assistant|>", "</s>"]),
  ...entries("Gemma 3", GEMMA3, ["<start_of_turn>", "<end_of_turn>", "<start_of_image>", "<end_of_image>"]),
  ...entries("GLM-4", GLM4, ["[gMASK]", "<sop>", "<|system|>", "<|user|>", "<|assistant|>", "<|observation|>"]),
  ...entries("Seed-OSS", SEED, ["<seed:bos>", "<seed:eos>", "<seed:think>", "</seed:think>", "<seed:tool_call>", "</seed:tool_call>"]),
];

/** `<|name|>` (folded: fullwidth bars are `|`, `▁` stays a letter-like joiner) and Mistral's `[NAME]`, `[/NAME]`. */
const SHAPES: ReadonlyArray<{ re: RegExp; template: string }> = [
  { re: /<\|[a-z0-9_\u2581-]{1,40}\|>/y, template: "special-token shape: a name between angle brackets and bars" },
];
const BRACKET_SHAPE = /\[\/?[A-Z][A-Z0-9_]{2,30}\]/y;

/** What a neutralised string's first character becomes. */
const NEUTRAL: Record<string, string> = { "<": "&lt;", "[": "&#91;" };

let folded: ReadonlyArray<{ key: string; token: ChatControlToken }> | null = null;
function foldedList() {
  return (folded ??= CHAT_CONTROL_TOKENS.map((token) => ({ key: foldText(token.token).text, token })).sort((a, b) => b.key.length - a.key.length));
}

/** One neutralised control string: its template, and the text it now reads as (safe to show). */
export interface ControlTokenHit {
  template: string;
  /** The neutralised spelling as it stands in the output (`&lt;|im_start|>`). */
  neutralised: string;
}

/**
 * Neutralise every chat-template control string in `text` (see the module note). Everything
 * else is kept as is. The result holds none: `&lt;` and `&#91;` fold to no `<` or `[`.
 *
 * @returns the text and one hit per neutralised string, in text order
 */
export function neutralizeChatTokens(text: string): { text: string; hits: ControlTokenHit[] } {
  checkArgs("neutralizeChatTokens", arguments, "text:string");
  if (!/[<[\u2039\u2329\u27e8\u3008\uff1c\ufe64\uff3b\u02c2\u1438]|[^\x00-\x7f]/.test(text)) return { text, hits: [] };
  const { text: f, origin } = foldText(text);
  const hits: ControlTokenHit[] = [];
  const cuts: Array<{ start: number; end: number; lead: string; template: string }> = [];
  for (let i = 0; i < f.length; i++) {
    const c = f[i];
    if (c !== "<" && c !== "[") continue;
    let matched: { length: number; template: string } | null = null;
    for (const { key, token } of foldedList()) {
      if (f.startsWith(key, i)) {
        matched = { length: key.length, template: token.template };
        break;
      }
    }
    if (!matched && c === "<") {
      for (const s of SHAPES) {
        s.re.lastIndex = i;
        const m = s.re.exec(f);
        if (m) matched = { length: m[0].length, template: s.template };
      }
    }
    if (!matched && c === "[") {
      // Mistral's control tokens are upper case in the original text (folding lower-cases it).
      BRACKET_SHAPE.lastIndex = origin[i];
      const m = BRACKET_SHAPE.exec(text);
      if (m && text[origin[i]] === "[") matched = { length: -m[0].length, template: "Mistral control-token shape: an upper-case name in square brackets" };
    }
    if (!matched) continue;
    const start = origin[i];
    const end = matched.length < 0 ? start - matched.length : origin[i + matched.length - 1] + (text.codePointAt(origin[i + matched.length - 1])! > 0xffff ? 2 : 1);
    cuts.push({ start, end, lead: NEUTRAL[c], template: matched.template });
    // continue after this string (in folded units)
    while (i + 1 < f.length && origin[i + 1] < end) i++;
  }
  if (!cuts.length) return { text, hits };
  let out = "";
  let at = 0;
  for (const cut of cuts) {
    const leadEnd = cut.start + (text.codePointAt(cut.start)! > 0xffff ? 2 : 1);
    out += text.slice(at, cut.start) + cut.lead;
    hits.push({ template: cut.template, neutralised: cut.lead + text.slice(leadEnd, cut.end) });
    at = leadEnd;
  }
  return { text: out + text.slice(at), hits };
}
