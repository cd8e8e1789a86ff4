// The one JSON body validator of the HTTP API: Content-Type, nesting depth, then the route's zod schema.
import { validator } from "hono/validator";
import type { z } from "zod";
import { badRequest, HttpError } from "./errors.js";
import { formatLimit, MAX_JSON_DEPTH, valueTooDeep } from "../json-depth.js";

/** The media types Hono's JSON validator parses (`application/json`, `application/*+json`, parameters allowed). */
const JSON_CONTENT_TYPE_RE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * Validate a JSON body with `schema`; a failure is a 400 naming the field. A body
 * sent with another Content-Type is a 415: Hono's validator would otherwise hand the
 * schema `{}` and the client would read a misleading "keys: … received undefined".
 */
export const json = <S extends z.ZodType>(schema: S) =>
  validator("json", (value, c): z.infer<S> => {
    const type = c.req.header("content-type") ?? "";
    if (!JSON_CONTENT_TYPE_RE.test(type)) {
      throw new HttpError(415, "unsupported_media_type", `the request body must be Content-Type: application/json, got ${type ? JSON.stringify(type.slice(0, 100)) : "none"}`);
    }
    // zod's walk recurses: a body nested ~10,000 deep would overflow the stack and answer
    // "Maximum call stack size exceeded", naming nothing. Refuse it first, naming the field.
    if (valueTooDeep(value)) {
      const field = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).find((k) => valueTooDeep((value as Record<string, unknown>)[k], MAX_JSON_DEPTH - 1)) : undefined;
      throw new HttpError(400, "bad_request", `${field ?? "body"}: nested deeper than ${formatLimit(MAX_JSON_DEPTH)} levels of arrays and objects`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw badRequest("body", parsed.error);
    return parsed.data;
  });
