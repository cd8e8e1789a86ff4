// placeholder until the sequence-match kernel lands
export function seqVersion(): i32 { return 0; }
