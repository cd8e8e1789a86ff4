/**
 * Linear-time lexing of prefixed names for Traqula's lexer.
 *
 * Traqula's `PNameNs`/`PNameLn` token patterns are regexes tried at every position the lexer
 * stands on. Inside a run of name characters with no `:` after it (`aaaa…`, `ASKASK…`,
 * `a1a1…`: the lexer splits such a run into the keyword `a`, numbers, keywords) each attempt
 * reads to the end of the run before failing, so a run of n characters cost n²/2 steps:
 * 8,000 characters took 5 s, 50,000 (the server's query cap) minutes.
 *
 * A prefixed name's prefix holds only name characters and `.`, so its `:` can only be the first
 * character after the run, and it never ends in `.` (PN_PREFIX). When that character is not `:`,
 * or the run ends in `.`, no position of the run starts a prefixed name: the matchers below remember the run and fail at once at every later position of
 * it. Matches are the original regexes' matches, so the tokens are unchanged.
 *
 * The tokens are Traqula's shared objects, and a lexer copies their patterns when it is built:
 * `traqula()` (./traqula.ts, ./traqula.node.ts) patches them as it loads the package, so every
 * lexer and parser built from what it returns — the kernel's parser, the lexers of syntax hints,
 * op fields and prefix checks — lexes in linear work, whichever is built first.
 */
import type { lex as Lex } from "@traqula/rules-sparql-1-1";

type Token = { PATTERN: unknown; START_CHARS_HINT?: unknown; LINE_BREAKS?: boolean };

// SPARQL 1.1 grammar [164] PN_CHARS_BASE, [165] PN_CHARS_U, [167] PN_CHARS (as a class body)
const PN_CHARS_BASE = "A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}";
const PN_CHARS = `${PN_CHARS_BASE}_\\-0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
/** A run of the characters a prefix holds (PN_CHARS and "."), read from lastIndex. */
const RUN = new RegExp(`[${PN_CHARS}.]*`, "uy");

/** Every UTF-16 unit a prefixed name can start with: a PN_CHARS_BASE character (its first unit), or ":". */
function startChars(): number[] {
  const first = new RegExp(`^[${PN_CHARS_BASE}:]`, "u");
  const out: number[] = [];
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdb7f) out.push(c); // the high half of U+10000..U+EFFFF
    } else if (first.test(String.fromCharCode(c))) out.push(c);
  }
  return out;
}

/** The matcher that stands in for `pattern`: the same matches, and O(1) failures inside a run already read. */
function memoMatcher(pattern: RegExp): { exec: (text: string, offset: number) => RegExpExecArray | null } {
  const sticky = new RegExp(pattern.source, "y");
  let seenText: string | null = null;
  let runStart = 0;
  let runEnd = 0;
  return {
    exec(text, offset) {
      if (text === seenText && offset >= runStart && offset < runEnd) return null;
      sticky.lastIndex = offset;
      const found = sticky.exec(text);
      if (found) return found;
      RUN.lastIndex = offset;
      RUN.exec(text);
      // no prefix ends at a "." (PN_PREFIX), so a run ending in "." cannot be one even before a ":"
      if (RUN.lastIndex > offset && (text[RUN.lastIndex] !== ":" || text[RUN.lastIndex - 1] === ".")) {
        seenText = text;
        runStart = offset;
        runEnd = RUN.lastIndex;
      }
      return null;
    },
  };
}

const patched = new WeakSet<object>();

/**
 * Give Traqula's prefixed-name tokens the linear matchers. Call before building a lexer or a
 * parser (`traqula()` does, as it loads Traqula); a second call is a no-op.
 */
export function linearPrefixedNames(lex: typeof Lex): void {
  const { pNameNs, pNameLn } = lex.terminals as unknown as { pNameNs: Token; pNameLn: Token };
  let hint: number[] | null = null;
  for (const token of [pNameNs, pNameLn]) {
    if (patched.has(token) || !(token.PATTERN instanceof RegExp)) continue;
    token.PATTERN = memoMatcher(token.PATTERN);
    // the lexer keeps its first-character table only when a custom pattern says where it starts
    token.START_CHARS_HINT = hint ??= startChars();
    token.LINE_BREAKS = false;
    patched.add(token);
  }
}
