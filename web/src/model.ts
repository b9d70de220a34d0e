// What a table page knows, updated message by message (pure, so it is unit-tested).
import type { ServerMsg, StateMsg, TableInfo } from "./protocol";

export interface LogLine {
  n: number;
  text: string;
  seat: number | null;
}

export interface ChatLine {
  n: number;
  name: string;
  text: string;
}

export interface Refusal {
  n: number;
  code: string;
  message: string;
  ref: number | null;
}

export interface Model {
  table: TableInfo | null;
  seat: number | null;
  host: boolean;
  state: StateMsg | null;
  log: LogLine[];
  chat: ChatLine[];
  refusal: Refusal | null;
  pending: Record<number, string>;
  rematch: string | null;
  welcomed: boolean;
  counter: number;
  /** Slaps that took a pile, heard live (not in the history a welcome replays). */
  slaps: number;
  /** True from a welcome until its first state, which repeats every event so far. */
  catchingUp: boolean;
}

export const LOG_LIMIT = 200;

export function initial(): Model {
  return {
    table: null,
    seat: null,
    host: false,
    state: null,
    log: [],
    chat: [],
    refusal: null,
    pending: {},
    rematch: null,
    welcomed: false,
    slaps: 0,
    catchingUp: true,
    counter: 0,
  };
}

/** The model after one message from the server. */
export function reduce(m: Model, msg: ServerMsg): Model {
  switch (msg.type) {
    case "welcome":
      // A fresh connection: the state that follows carries every event again.
      return { ...m, table: msg.table, seat: msg.seat, host: msg.host, log: [], welcomed: true, pending: {}, catchingUp: true };
    case "table":
      return { ...m, table: msg.table };
    case "state": {
      let counter = m.counter;
      const lines = msg.events.map((e) => ({
        n: ++counter,
        text: e.text ?? String(e.event.kind ?? e.event.event ?? "event"),
        seat: typeof e.event.seat === "number" ? e.event.seat : null,
      }));
      const log = [...m.log, ...lines].slice(-LOG_LIMIT);
      const heard = m.catchingUp ? 0 : msg.events.filter((e) => e.event.kind === "slap").length;
      return { ...m, state: wholeEvents(m.state, msg), log, counter, slaps: m.slaps + heard, catchingUp: false };
    }
    case "ack": {
      const pending = { ...m.pending };
      delete pending[msg.id];
      return { ...m, pending };
    }
    case "error": {
      const pending = { ...m.pending };
      if (msg.ref !== null) delete pending[msg.ref];
      const counter = m.counter + 1;
      return { ...m, pending, counter, refusal: { n: counter, code: msg.code, message: msg.message, ref: msg.ref } };
    }
    case "chat": {
      const counter = m.counter + 1;
      return { ...m, counter, chat: [...m.chat, { n: counter, name: msg.name, text: msg.text }].slice(-100) };
    }
    case "rematch":
      return { ...m, rematch: msg.table };
    default:
      return m;
  }
}

/** A state whose events list is a change to the previous one (`events_kept`) made whole again,
 * so that the rest of the page reads observations as the engine made them. */
export function wholeEvents(previous: StateMsg | null, msg: StateMsg): StateMsg {
  const kept = msg.events_kept;
  if (typeof kept !== "number" || kept <= 0) return msg;
  const key = msg.observation !== null ? "observation" : "view";
  const part = msg[key];
  const before = previous?.[key]?.events;
  if (part === null || !Array.isArray(part.events)) return msg;
  const old: unknown[] = Array.isArray(before) ? before : [];
  const events = [...old.slice(Math.max(0, old.length - kept)), ...part.events];
  return { ...msg, [key]: { ...part, events }, events_kept: null };
}

/** An action sent (waiting for its ack). */
export function sent(m: Model, id: number, action: string): Model {
  return { ...m, pending: { ...m.pending, [id]: action }, refusal: null };
}

/** The display name of every seat: the person's name, "Bot (level)", or "Open seat". */
export function seatNames(table: TableInfo | null, players: number, fallback: (i: number) => string): string[] {
  return Array.from({ length: players }, (_, i) => {
    const s = table?.seats[i];
    if (!s) return fallback(i);
    if (s.kind === "person") return s.name ?? fallback(i);
    if (s.kind === "bot") return `${fallback(i)} (bot)`;
    return "Open seat";
  });
}

/** A sentence of the game with the people's names for their seats ("Seat 2 plays 7H." ->
 * "Bob plays 7H."); bots keep their seat names. */
export function personalise(text: string, table: TableInfo | null): string {
  if (!table) return text;
  return text.replace(/\bSeat (\d+)\b/g, (whole, n: string) => {
    const s = table.seats[Number(n) - 1];
    return s && s.kind === "person" && s.name ? s.name : whole;
  });
}

/** Readable text of a refusal ("That move is not allowed: ..."). */
export function refusalText(r: Refusal): string {
  if (r.code === "illegal_action") return `Not allowed: ${r.message}`;
  if (r.code === "invalid_notation") return `Not a move of this game: ${r.message}`;
  if (r.code === "rate_limited") return "Too fast: that was dropped.";
  return r.message;
}
