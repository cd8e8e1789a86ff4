// placeholder until the closure kernel lands
export function closureVersion(): i32 { return 0; }
