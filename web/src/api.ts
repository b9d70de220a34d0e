// The lobby's REST API (docs/protocol.md, "The lobby").
import type {
  CreatedTable,
  GameInfo,
  Joined,
  Obj,
  RecordSummary,
  Replay,
  TableInfo,
} from "./protocol";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The header that shows the server seat or host tokens (a private table's games need one). */
const TOKEN_HEADER = "X-Ratgames-Token";
/** The most tokens the server takes in one header. */
const MAX_TOKENS = 64;

async function call<T>(path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? extra : { "content-type": "application/json", ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "the server cannot be reached");
  }
  let data: any = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : response.statusText;
    throw new ApiError(response.status, detail || `error ${response.status}`);
  }
  return data as T;
}

/** Every seat and host token this browser keeps for its tables (see storage.ts). */
function rememberedTokens(): string[] {
  const out: string[] = [];
  try {
    const kv = globalThis.localStorage;
    for (let i = 0; i < kv.length; i++) {
      const key = kv.key(i);
      if (key === null || !key.startsWith("ratgames.table.")) continue;
      const keys = JSON.parse(kv.getItem(key) ?? "null") as { token?: unknown; host_token?: unknown } | null;
      for (const t of [keys?.token, keys?.host_token]) {
        if (typeof t === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(t) && !out.includes(t)) out.push(t);
      }
    }
  } catch {
    // no storage, or an entry that is not ours: only public games then
  }
  return out;
}

/** The token headers to try, at most MAX_TOKENS tokens each (none if nothing is kept). */
function tokenHeaders(): Record<string, string>[] {
  const tokens = rememberedTokens();
  const out: Record<string, string>[] = [];
  for (let i = 0; i < tokens.length; i += MAX_TOKENS) {
    out.push({ [TOKEN_HEADER]: tokens.slice(i, i + MAX_TOKENS).join(",") });
  }
  return out;
}

/** A GET that a private table's game refuses (403) without a token of that table: tried
 * without tokens, then with the tokens kept here; returns the answer and the header that
 * worked. */
async function withTokens<T>(path: string): Promise<[T, Record<string, string>]> {
  try {
    return [await call<T>(path), {}];
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
    for (const header of tokenHeaders()) {
      try {
        return [await call<T>(path, undefined, header), header];
      } catch (again) {
        if (!(again instanceof ApiError) || again.status !== 403) throw again;
      }
    }
    throw new ApiError(
      403,
      "This game was played at a private table: only its players may see it, in the browser they played in.",
    );
  }
}

/** A GET asked again, after a pause, while the server says it is busy (429, 503). */
async function patiently<T>(path: string, header: Record<string, string>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call<T>(path, undefined, header);
    } catch (e) {
      if (!(e instanceof ApiError) || (e.status !== 429 && e.status !== 503) || attempt >= 20) throw e;
      await new Promise((resolve) => setTimeout(resolve, 250 + 100 * attempt));
    }
  }
}

/** One page of a replay: its steps from `start`, and where the next page starts. */
type ReplayPage = Replay & { moves: number; start: number; next: number | null };

/** A stored game's replay, its pages fetched one after another and put together. */
async function replay(id: number, seat: number | null): Promise<Replay> {
  const base = `/api/records/${id}/replay?${seat === null ? "" : `seat=${seat}&`}start=`;
  const [first, header] = await withTokens<ReplayPage>(base + "0");
  const steps = [...first.steps];
  let next = first.next;
  while (typeof next === "number" && next > 0) {
    const page = await patiently<ReplayPage>(base + next, header);
    steps.push(...page.steps);
    next = page.next;
  }
  return { ...first, steps };
}

/** A stored game in the replay list: its summary and its table's seats (`GET /api/replays`). */
export type ListedReplay = RecordSummary & { seats: { kind: string; name: string | null }[] };

/** Public games, and the private ones of the tables whose tokens this browser keeps (asked
 * for with each header of tokens, the answers put together): the newest 50. */
async function records(before?: number): Promise<ListedReplay[]> {
  const path = `/api/replays?limit=50${before ? `&before=${before}` : ""}`;
  const headers = tokenHeaders();
  if (headers.length <= 1) return call<ListedReplay[]>(path, undefined, headers[0] ?? {});
  const lists = await Promise.all(headers.map((h) => call<ListedReplay[]>(path, undefined, h)));
  const byId = new Map<number, ListedReplay>();
  for (const list of lists) for (const r of list) byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, 50);
}

/** The query that routes a table's request to its process behind a balancer. */
export function byTable(code: string): string {
  return `?table=${encodeURIComponent(code)}`;
}

export const api = {
  games: () => call<GameInfo[]>("/api/games"),
  tables: () => call<TableInfo[]>("/api/tables"),
  // A table's own requests name its code in the query too: a balancer in front of several
  // server processes routes by it (`?table=`) to the process that holds the table.
  table: (code: string) => call<TableInfo>(`/api/tables/${encodeURIComponent(code)}${byTable(code)}`),
  create: (body: Obj) => call<CreatedTable>("/api/tables", body),
  join: (code: string, name: string, seat?: number) =>
    call<Joined>(
      `/api/tables/${encodeURIComponent(code)}/join${byTable(code)}`,
      seat === undefined ? { name } : { name, seat },
    ),
  records,
  replay,
};
