// ts/memdsl: MemDSL — deterministic, injection-safe envelopes of a graph neighborhood (browser-safe).
export { isAddressToken, STANDARD_PREFIXES } from "./address.js";
export {
  type Node,
  type Edge,
  type Neighborhood,
  type AssembledNeighborhood,
  assembleNeighborhood,
  pickLiteral,
  UnknownFocusError,
} from "./substrate.js";
export { StatusVerdict, applyNodeStatuses, TAINT_KINDS, type Taint, type TaintKind } from "./epistemics.js";
export {
  type Envelope,
  type RenderedNode,
  type GapToken,
  type GapKind,
  type Affordance,
  type AffordanceKind,
  type EpistemicStatus,
  EPISTEMIC_STATUSES,
  GAP_KINDS,
  AFFORDANCE_KINDS,
  MemDSLParseError,
  envelopeProblem,
} from "./schema.js";
export { renderNeighborhood, type RenderOptions, type MemDSLLogger, type NodeStatusMap } from "./render.js";
export {
  wrapUntrustedBody,
  unwrapUntrustedBody,
  defangFences,
  findFenceLookalikes,
  UNTRUSTED_OPEN,
  UNTRUSTED_CLOSE,
  UNTRUSTED_BANNER,
  DEFANGED_BRACKET,
} from "./untrusted.js";
export { neutralizeChatTokens, CHAT_CONTROL_TOKENS, type ChatControlToken, type ControlTokenHit } from "./chat-tokens.js";
export { serializeEnvelope, parseEnvelope, MEMDSL_HEADER, BODY_LINE_PREFIX } from "./wire.js";
export { resolveHandle, resolveGaps, resolveAffordance, HandleError } from "./handles.js";
export { invisibleCharacters, escapeWire } from "./text.js";
export { MEMDSL_NS, MEMDSL_PROPERTIES, MEMDSL_STATUS, MEMDSL_TAINT, MEMDSL_CLASSES } from "./vocab.js";
