/**
 * The page's only way to the server: the documented HTTP API, same origin, the bearer token
 * kept in sessionStorage and sent as the Authorization header (never in a URL).
 */
const KEY = "groundwire.token";

export const token = {
  get: (): string => sessionStorage.getItem(KEY) ?? "",
  set: (t: string) => (t ? sessionStorage.setItem(KEY, t) : sessionStorage.removeItem(KEY)),
};

/** An error answer of the API, in its own words. */
export class ApiError extends Error {
  constructor(message: string, readonly code: string, readonly status: number) {
    super(message);
  }
}

/** Listeners told of a 401 (the page shows the token form). */
export const onUnauthorized: Array<(e: ApiError) => void> = [];

export async function api<T = any>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  const t = token.get();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit", cache: "no-store" });
  } catch (e) {
    throw new ApiError(`the server did not answer (${(e as Error).message})`, "network", 0);
  }
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(`the server answered HTTP ${response.status} with something other than JSON`, "bad_answer", response.status);
  }
  if (!response.ok) {
    const e = new ApiError(json?.error?.message ?? `HTTP ${response.status}`, json?.error?.code ?? "error", response.status);
    if (response.status === 401) for (const f of onUnauthorized) f(e);
    throw e;
  }
  return json as T;
}

export const q = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => [k, String(v)])).toString();
