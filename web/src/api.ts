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

async function call<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
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

export const api = {
  games: () => call<GameInfo[]>("/api/games"),
  tables: () => call<TableInfo[]>("/api/tables"),
  table: (code: string) => call<TableInfo>(`/api/tables/${encodeURIComponent(code)}`),
  create: (body: Obj) => call<CreatedTable>("/api/tables", body),
  join: (code: string, name: string, seat?: number) =>
    call<Joined>(
      `/api/tables/${encodeURIComponent(code)}/join`,
      seat === undefined ? { name } : { name, seat },
    ),
  records: (before?: number) =>
    call<RecordSummary[]>(`/api/records?limit=50${before ? `&before=${before}` : ""}`),
  replay: (id: number, seat: number | null) =>
    call<Replay>(`/api/records/${id}/replay${seat === null ? "" : `?seat=${seat}`}`),
};
