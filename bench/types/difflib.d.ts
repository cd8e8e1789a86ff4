// Minimal types for the difflib npm port (a bench contender only; it ships none).
declare module "difflib" {
  export class SequenceMatcher {
    constructor(isjunk: ((x: string) => boolean) | null, a: string, b: string, autojunk?: boolean);
    setSeq1(a: string): void;
    setSeq2(b: string): void;
    ratio(): number;
    quickRatio(): number;
    realQuickRatio(): number;
  }
}
