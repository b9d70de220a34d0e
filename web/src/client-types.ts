// Types of the browser client that the server's protocol schema does not hold: JSON values,
// observations as the client reads them, and the replays of the client's own endpoint
// (src/ratgames/webclient/replay.py).  The protocol's types are in protocol.ts (generated).
import type { EventItem, Outcome } from "./protocol";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = Record<string, any>;

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
