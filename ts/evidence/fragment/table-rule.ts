/**
 * markdown-it's GFM table rule reduced to a table's extent (its lines), for the fragmenter's instance (`md`).
 */
import type { StateBlock } from "markdown-it";

/** A markdown-it block rule. */
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

/** markdown-it 15.0.3's cap on a table's autocompleted (missing) cells (`MAX_AUTOCOMPLETED_CELLS`). */
const MAX_AUTOCOMPLETED_CELLS = 65536;

/**
 * markdown-it 15.0.3's GFM table rule (`rules_block/table`) reduced to what the fragmenter reads
 * of a table: its lines, in the `table_open` token's map (`tableOf` reads rows and cells from
 * the lines themselves). The stock rule decides, called silent (no tokens), whether the lines
 * start a table; the loop here is the stock rule's body loop line for line, less the tokens of
 * every row and cell (a heading row and a body row of markdown-it make 3 tokens a cell, each
 * cell's text split, trimmed and kept): a table ends before the line a block quote's
 * terminators take, a blank line, a line indented by 4 or more, or one indented less than its
 * container. The stock rule also stops once more than 65,536 cells were autocompleted, which
 * needs more rows × header cells than that: such a table goes to the stock rule. Tokens:
 * `table_open` (map: the table's lines) and `table_close`, at the stock levels.
 * test/evidence/markdown-it-golden.test.ts holds them equal to the stock rule's table_open and
 * table_close on real documents.
 */
export function tableExtent(stock: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    if (!stock(state, startLine, endLine, true)) return false;
    // markdown-it reads `\\|` as an escaped pipe; GFM reads an escaped backslash and a cell
    // delimiter. A header that then has more cells than the delimiter row is no table (GFM 0.29
    // "Tables": the header row must match the delimiter row in the number of cells; micromark agrees).
    if (gfmCellCount(state.src, state.bMarks[startLine] + state.tShift[startLine], state.eMarks[startLine]) !== gfmCellCount(state.src, state.bMarks[startLine + 1] + state.tShift[startLine + 1], state.eMarks[startLine + 1])) return false;
    if (silent) return true;
    // At most one header cell per pipe, plus one: a bound on the stock rule's column count.
    let columnBound = 1;
    for (let p = state.bMarks[startLine] + state.tShift[startLine]; p < state.eMarks[startLine]; p++) if (state.src.charCodeAt(p) === 0x7c) columnBound++;
    const oldParentType = state.parentType;
    state.parentType = "table" as typeof state.parentType;
    const terminatorRules = state.md.block.ruler.getRules("blockquote") as unknown as BlockRule[];
    let nextLine = startLine + 2;
    for (; nextLine < endLine; nextLine++) {
      if (state.sCount[nextLine] < state.blkIndent) break;
      let terminate = false;
      for (let i = 0; i < terminatorRules.length; i++) {
        if (terminatorRules[i](state, nextLine, endLine, true)) {
          terminate = true;
          break;
        }
      }
      if (terminate) break;
      if (!state.src.slice(state.bMarks[nextLine] + state.tShift[nextLine], state.eMarks[nextLine]).trim()) break;
      if (state.sCount[nextLine] - state.blkIndent >= 4) break;
      if ((nextLine - startLine - 1) * columnBound > MAX_AUTOCOMPLETED_CELLS) {
        state.parentType = oldParentType;
        return stock(state, startLine, endLine, false);
      }
    }
    const open = state.push("table_open", "table", 1);
    open.map = [startLine, nextLine];
    state.push("table_close", "table", -1);
    state.parentType = oldParentType;
    state.line = nextLine;
    return true;
  };
}

/** A table row's cell count as GFM splits it: at pipes outside backslash escapes, a leading and a trailing pipe open and close the row. */
function gfmCellCount(src: string, start: number, end: number): number {
  while (end > start && (src.charCodeAt(end - 1) === 0x20 || src.charCodeAt(end - 1) === 0x09)) end--;
  let p = start;
  if (src.charCodeAt(p) === 0x7c) p++;
  let cells = 0;
  let open = false;
  for (let k = p; k < end; k++) {
    const c = src.charCodeAt(k);
    if (c === 0x7c) {
      cells++;
      open = false;
    } else {
      open = true;
      if (c === 0x5c) k++;
    }
  }
  return cells + (open || cells === 0 ? 1 : 0);
}
