import { describe, expect, it } from "vitest";
import { initial, personalise, reduce, refusalText, seatNames, sent } from "../src/model";
import { backoff, Connection, type SocketLike, socketUrl } from "../src/net";
import { changedOptions, controlFor, joinForm, optionValue, splitForm } from "../src/options";
import type { OptionForm, OptionInfo } from "../src/protocol";
import type { StateMsg, TableInfo } from "../src/protocol";
import { cleanCode, parseRoute, seatLink, seatLinkToken } from "../src/route";
import { type KeyValue, Memory } from "../src/storage";

const table = {
  code: "K7QX2M",
  players: 2,
  seats: [
    { seat: 0, kind: "person", name: "Ann", bot: null, connected: true, away_bot: false, host: true },
    { seat: 1, kind: "bot", name: "hard", bot: "pimc", connected: true, away_bot: false, host: false },
  ],
} as unknown as TableInfo;

function state(seq: number, events: string[]): StateMsg {
  return {
    type: "state", v: 1, seq, seat: 0, observation: {}, view: null, legal: [], to_act: [],
    events: events.map((t) => ({ event: { kind: "x", seat: 0 }, text: t })), time: 0, outcome: null, record_id: null,
    race_version: null,
  };
}

describe("the table model", () => {
  it("keeps the log, and starts it again after a welcome (the next state repeats every event)", () => {
    let m = reduce(initial(), { type: "welcome", v: 1, table, seat: 0, host: true, server_time: 0, max_message_bytes: 4096 });
    m = reduce(m, state(1, ["a", "b"]));
    m = reduce(m, state(2, ["c"]));
    expect(m.log.map((l) => l.text)).toEqual(["a", "b", "c"]);
    m = reduce(m, { type: "welcome", v: 1, table, seat: 0, host: true, server_time: 0, max_message_bytes: 4096 });
    m = reduce(m, state(2, ["a", "b", "c"]));
    expect(m.log.map((l) => l.text)).toEqual(["a", "b", "c"]);
  });

  it("counts the slaps heard live, not those a welcome's first state repeats", () => {
    const slap = (seq: number): StateMsg => ({
      ...state(seq, []),
      events: [{ event: { kind: "slap", seat: 1 }, text: "Seat 2 slaps" }],
    });
    let m = reduce(initial(), { type: "welcome", v: 1, table, seat: 0, host: true, server_time: 0, max_message_bytes: 4096 });
    m = reduce(m, slap(1));
    expect(m.slaps).toBe(0);
    m = reduce(m, slap(2));
    m = reduce(m, state(3, ["a"]));
    expect(m.slaps).toBe(1);
    m = reduce(m, { type: "welcome", v: 1, table, seat: 0, host: true, server_time: 0, max_message_bytes: 4096 });
    m = reduce(m, slap(3));
    expect(m.slaps).toBe(1);
  });

  it("makes an abbreviated events list whole again (events_kept), for a seat and a spectator", () => {
    const ev = (n: number) => ({ kind: "x", n });
    let m = reduce(initial(), { ...state(1, []), observation: { events: [ev(1), ev(2), ev(3)] } });
    m = reduce(m, { ...state(2, []), observation: { events: [ev(4)], turn: 1 }, events_kept: 3 });
    expect(m.state!.observation).toEqual({ events: [ev(1), ev(2), ev(3), ev(4)], turn: 1 });
    // The engine's list dropped its two oldest: keep the last two, then add one.
    m = reduce(m, { ...state(3, []), observation: { events: [ev(5)] }, events_kept: 2 });
    expect(m.state!.observation!.events).toEqual([ev(3), ev(4), ev(5)]);
    // A whole list (no events_kept) replaces what was there.
    m = reduce(m, { ...state(4, []), observation: { events: [ev(9)] } });
    expect(m.state!.observation!.events).toEqual([ev(9)]);
    let s = reduce(initial(), { ...state(1, []), seat: null, observation: null, view: { events: [ev(1)] } });
    s = reduce(s, { ...state(2, []), seat: null, observation: null, view: { events: [ev(2)] }, events_kept: 1 });
    expect(s.state!.view!.events).toEqual([ev(1), ev(2)]);
  });

  it("shows a refusal of an action and forgets it once acknowledged or refused", () => {
    let m = sent(initial(), 3, "draw");
    expect(m.pending).toEqual({ 3: "draw" });
    m = reduce(m, { type: "error", v: 1, code: "illegal_action", message: "it is not your turn", ref: 3 });
    expect(m.pending).toEqual({});
    expect(refusalText(m.refusal!)).toBe("Not allowed: it is not your turn");
    m = sent(m, 4, "take");
    expect(m.refusal).toBeNull();
    m = reduce(m, { type: "ack", v: 1, id: 4, seq: 9 });
    expect(m.pending).toEqual({});
  });

  it("names the seats", () => {
    expect(seatNames(table, 3, (i) => `Seat ${i + 1}`)).toEqual(["Ann", "Seat 2 (bot)", "Seat 3"]);
    expect(personalise("Seat 1 plays 7H; Seat 2 slaps.", table)).toBe("Ann plays 7H; Seat 2 slaps.");
  });

  it("follows a rematch", () => {
    expect(reduce(initial(), { type: "rematch", v: 1, table: "P3RT9Z" }).rematch).toBe("P3RT9Z");
  });
});

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: any[] = [];
  onopen: ((ev: any) => void) | null = null;
  onmessage: ((ev: { data: any }) => void) | null = null;
  onclose: ((ev: any) => void) | null = null;
  onerror: ((ev: any) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: object) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

function harness(token: string | null) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const got: any[] = [];
  const statuses: string[] = [];
  const conn = new Connection({
    url: "ws://x/ws",
    table: "K7QX2M",
    token,
    hostToken: null,
    onMessage: (m) => got.push(m),
    onStatus: (s) => statuses.push(s),
    makeSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    now: () => 1234.5,
    schedule: (fn, ms) => timers.push({ fn, ms }),
    cancel: () => {},
  });
  return { conn, sockets, timers, got, statuses };
}

describe("the connection", () => {
  it("says hello with the seat token, answers pings and numbers actions", () => {
    const h = harness("T");
    h.sockets[0].open();
    expect(h.sockets[0].sent[0]).toEqual({ type: "hello", v: 1, table: "K7QX2M", token: "T", delta_events: true });
    h.sockets[0].receive({ type: "ping", v: 1, id: 7, server_time: 1, rtt_ms: 41.7 });
    expect(h.sockets[0].sent[1]).toEqual({ type: "pong", v: 1, id: 7, client_time: 1234.5 });
    expect(h.conn.rtt).toBe(41.7);
    expect(h.conn.act("draw")).toBe(1);
    expect(h.conn.act("slap@3", { pressed_at: 10, seen_at: 5 })).toBe(2);
    expect(h.sockets[0].sent[3]).toEqual({ type: "action", v: 1, id: 2, action: "slap@3", pressed_at: 10, seen_at: 5 });
  });

  it("reconnects after a lost connection, pausing longer each time, and says hello again", () => {
    const h = harness("T");
    h.sockets[0].open();
    h.sockets[0].close();
    expect(h.timers.map((t) => t.ms)).toEqual([backoff(0)]);
    h.timers[0].fn();
    h.sockets[1].close();
    expect(h.timers[1].ms).toBeGreaterThan(h.timers[0].ms);
    h.timers[1].fn();
    h.sockets[2].open();
    expect(h.sockets[2].sent[0]).toMatchObject({ type: "hello", token: "T" });
    expect(h.conn.act("x")).toBe(1);
  });

  it("stops when another window takes the seat over", () => {
    const h = harness("T");
    h.sockets[0].open();
    h.sockets[0].receive({ type: "error", v: 1, code: "bad_token", message: "your seat was taken over by a new connection", ref: null });
    h.sockets[0].close();
    expect(h.timers).toEqual([]);
    expect(h.conn.status).toBe("stopped");
  });

  it("sends nothing while closed", () => {
    const h = harness(null);
    expect(h.conn.act("draw")).toBeNull();
    h.sockets[0].open();
    expect(h.sockets[0].sent[0]).toEqual({ type: "hello", v: 1, table: "K7QX2M", delta_events: true });
    expect(socketUrl({ protocol: "https:", host: "a.b" })).toBe("wss://a.b/ws");
    expect(backoff(20)).toBe(8000);
  });
});

describe("routes, codes, options and storage", () => {
  it("reads the page from the path", () => {
    expect(parseRoute("/")).toEqual({ page: "lobby" });
    expect(parseRoute("/t/k7qx2m")).toEqual({ page: "table", code: "K7QX2M" });
    expect(parseRoute("/replays/12", "?seat=1")).toEqual({ page: "replay", id: 12, seat: 1 });
    expect(parseRoute("/replays/12")).toEqual({ page: "replay", id: 12, seat: null });
    expect(parseRoute("/nope").page).toBe("missing");
  });

  it("forgives how a code is typed or pasted", () => {
    expect(cleanCode(" k7qx2m ")).toBe("K7QX2M");
    expect(cleanCode("http://host:8000/t/K7QX2M")).toBe("K7QX2M");
    expect(cleanCode("K7QX2")).toBeNull();
    expect(cleanCode("K7QX2O")).toBeNull();
    // private tables have 12-character codes
    expect(cleanCode("k7qx 2m9a bc3d")).toBe("K7QX2M9ABC3D");
    expect(cleanCode("https://host/t/K7QX2M9ABC3D/")).toBe("K7QX2M9ABC3D");
    expect(cleanCode("K7QX2M9ABC3")).toBeNull();
    expect(cleanCode("K7QX2M9ABC3DE")).toBeNull();
  });

  it("makes and reads seat links (the token in the fragment only)", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUv_-12";
    const link = seatLink("https://cards.example", "K7QX2M9ABC3D", token);
    expect(link).toBe(`https://cards.example/t/K7QX2M9ABC3D#seat=${token}`);
    const url = new URL(link);
    expect(parseRoute(url.pathname)).toEqual({ page: "table", code: "K7QX2M9ABC3D" });
    expect(seatLinkToken(url.hash)).toBe(token);
    expect(seatLinkToken("")).toBeNull();
    expect(seatLinkToken("#seat=short")).toBeNull();
    expect(seatLinkToken("#seat=" + token + "&x=1")).toBeNull();
  });

  it("turns option descriptions into controls and values", () => {
    const info = (o: Omit<OptionInfo, "forms">, forms: OptionForm[] | null = null): OptionInfo => ({ ...o, forms });
    expect(controlFor(info({ default: true, allowed: "true or false", help: "" }))).toEqual({ kind: "bool" });
    expect(controlFor(info({ default: "gamewright", allowed: "one of 'gamewright', 'forlago'", help: "" }))).toEqual({
      kind: "choice",
      choices: ["gamewright", "forlago"],
    });
    const jokers = info({ default: 0, allowed: "one of 0, 1, 2", help: "" });
    expect(controlFor(jokers)).toEqual({ kind: "choice", choices: ["0", "1", "2"] });
    expect(optionValue(jokers, "2")).toBe(2);
    const cap = info({ default: 200, allowed: "a whole number from 1 to 100000", help: "" });
    expect(controlFor(cap)).toEqual({ kind: "int", min: 1, max: 100000 });
    expect(controlFor(info({ default: "x", allowed: "any text", help: "" }))).toEqual({ kind: "text" });
    expect(changedOptions({ cap, jokers }, { cap: 200, jokers: 1 })).toEqual({ jokers: 1 });
  });

  it("offers a structured option as its forms and a number", () => {
    const forms: OptionForm[] = [
      { word: "round", help: "One round", number: false, minimum: 1, maximum: 100000, start: 1 },
      { word: "rounds", help: "A number of rounds", number: true, minimum: 1, maximum: 100000, start: 3 },
      { word: "elimination", help: "Out at a total", number: true, minimum: 1, maximum: 500, start: 100 },
    ];
    const mode: OptionInfo = { default: "elimination=100", allowed: "round, rounds=N or elimination=N", help: "", forms };
    expect(controlFor(mode)).toEqual({ kind: "forms", forms });
    expect(splitForm(forms, "elimination=100")).toEqual({ form: forms[2], n: 100 });
    expect(splitForm(forms, "round")).toEqual({ form: forms[0], n: 1 });
    expect(splitForm(forms, "rounds=3")).toEqual({ form: forms[1], n: 3 });
    expect(splitForm(forms, "nonsense")).toEqual({ form: forms[0], n: 1 });
    expect(joinForm(forms[1], 3)).toBe("rounds=3");
    expect(joinForm(forms[0], 3)).toBe("round");
    expect(joinForm(forms[2], 9999)).toBe("elimination=500"); // kept within its bounds
    expect(joinForm(forms[1], 0)).toBe("rounds=1");
    expect(joinForm(forms[1], Number.NaN)).toBe("rounds=1");
  });

  it("remembers the name, the seat tokens of each table, and carries them to a rematch", () => {
    const map = new Map<string, string>();
    const kv: KeyValue = {
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    };
    const m = new Memory(kv);
    m.name = "  Ann ";
    expect(new Memory(kv).name).toBe("Ann");
    m.setSeat("k7qx2m", { token: "T", host_token: "H", seat: 0 });
    m.carryOver("K7QX2M", "P3RT9Z");
    expect(new Memory(kv).seat("P3RT9Z")).toEqual({ token: "T", host_token: "H", seat: 0 });
    map.set("ratgames.table.BAD", "{not json");
    expect(m.seat("BAD")).toBeNull();
    expect(new Memory(null).seat("K7QX2M")).toBeNull();
  });
});

describe("replay seats", () => {
  it("names bots by their level in words and keeps people's names", async () => {
    const { replaySeatName } = await import("../src/ui/Replays");
    expect(replaySeatName({ name: "normal", player: "normal" }, "rats", 1)).toBe("Normal bot");
    expect(replaySeatName({ name: "expert", player: "pimc:seconds=1.5" }, "rats", 2)).toBe("Expert bot");
    expect(replaySeatName({ name: "Ann", player: "human" }, "rats", 0)).toBe("Ann");
    expect(replaySeatName({ name: "", player: "human" }, "caged-rats", 1)).toBe("Black");
  });
});
