// The messages of the server's protocol (docs/protocol.md), as TypeScript types.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = Record<string, any>;

export interface SeatInfo {
  seat: number;
  kind: "open" | "person" | "bot";
  name: string | null;
  bot: string | null;
  connected: boolean;
  away_bot: boolean;
  host: boolean;
}

export interface TableInfo {
  code: string;
  link: string;
  game: string;
  title: string;
  players: number;
  options: Obj;
  public: boolean;
  status: "lobby" | "playing" | "finished";
  seats: SeatInfo[];
  timeout: { policy: "wait" | "bot"; seconds: number; bot: string };
  spectators: number;
  game_no: number;
  next_table: string | null;
  record_id: number | null;
  created: string;
}

export interface OptionInfo {
  default: Json;
  allowed: string;
  help: string;
}

export interface GameInfo {
  id: string;
  title: string;
  summary: string;
  players: number[];
  default_players: number;
  real_time: boolean;
  rules_version: number;
  options: Record<string, OptionInfo>;
  bots: { name: string; summary: string }[];
  levels: Record<string, string>;
  rules: string;
}

export interface EventItem {
  event: Obj;
  text: string | null;
}

export interface Outcome {
  winners: number[];
  points: number[];
  places: number[];
  reason: string;
  capped: boolean;
  details: Obj;
}

export interface StateMsg {
  type: "state";
  v: 1;
  seq: number;
  seat: number | null;
  observation: Obj | null;
  view: Obj | null;
  legal: string[];
  to_act: number[];
  events: EventItem[];
  time: number;
  outcome: Outcome | null;
  record_id: number | null;
  /** Set when the observation's (or view's) events list holds only what is new: the whole
   * list is the last `events_kept` entries of the previous whole list, then these. */
  events_kept?: number | null;
}

export interface WelcomeMsg {
  type: "welcome";
  v: 1;
  table: TableInfo;
  seat: number | null;
  host: boolean;
  server_time: number;
  max_message_bytes: number;
}

export interface ErrorMsg {
  type: "error";
  v: 1;
  code: string;
  message: string;
  ref: number | null;
}

export type ServerMsg =
  | WelcomeMsg
  | { type: "table"; v: 1; table: TableInfo }
  | StateMsg
  | { type: "ack"; v: 1; id: number; seq: number }
  | ErrorMsg
  | { type: "ping"; v: 1; id: number; server_time: number; rtt_ms: number | null }
  | { type: "chat"; v: 1; seat: number | null; name: string; text: string }
  | { type: "rematch"; v: 1; table: string }
  | { type: "seat_link"; v: 1; seat: number; token: string };

export interface CreatedTable {
  table: TableInfo;
  host_token: string;
  seat: number | null;
  token: string | null;
}

export interface Joined {
  table: TableInfo;
  seat: number;
  token: string;
}

export interface RecordSummary {
  id: number;
  table: string;
  game: string;
  players: number;
  created: string;
  outcome: Outcome | null;
}

/** One step of a replay as the client's replay endpoint serves it. */
export interface ReplayStep {
  seq: number;
  seat: number | null;
  action: string | null;
  view: Obj;
  to_act: number[];
  events: EventItem[];
}

export interface Replay {
  id: number;
  game: string;
  title: string;
  players: number;
  seats: { name: string; player: string }[];
  viewer: number | null;
  steps: ReplayStep[];
  outcome: Outcome | null;
}
