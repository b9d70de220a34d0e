import { describe, expect, it } from "vitest";
import { backoff, Connection, MOVED, movedPause, movedUrl, type SocketLike, tableUrl } from "../src/net";

/** A socket the test drives: the server side opens it, sends, and closes it with a code. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: any[] = [];
  onopen: ((ev: any) => void) | null = null;
  onmessage: ((ev: { data: any }) => void) | null = null;
  onclose: ((ev: any) => void) | null = null;
  onerror: ((ev: any) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code: 1005, reason: "", wasClean: true });
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: object) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  /** The server closes (or the connection fails: 1006, after an error). */
  serverCloses(code: number, reason = "") {
    this.readyState = 3;
    if (code === 1006) this.onerror?.({});
    this.onclose?.({ code, reason, wasClean: code !== 1006 });
  }
  /** The page's Content-Security-Policy refuses the address: an error, and no close. */
  refused() {
    this.readyState = 3;
    this.onerror?.({});
  }
}

const WELCOME = { type: "welcome", v: 1, seat: 0, table: {} };

function harness(page = "ws://games.test/ws", opts: { throwFor?: RegExp } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const got: any[] = [];
  const conn = new Connection({
    url: page,
    table: "K7QX2M",
    token: "T",
    hostToken: null,
    onMessage: (m) => got.push(m),
    makeSocket: (url) => {
      if (opts.throwFor?.test(url)) throw new Error("SecurityError: insecure WebSocket");
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    now: () => 0,
    schedule: (fn, ms) => timers.push({ fn, ms }),
    cancel: () => {},
  });
  /** Run the pending reconnection (the last timer); its pause. */
  const fire = () => {
    const t = timers[timers.length - 1];
    t.fn();
    return t.ms;
  };
  const last = () => sockets[sockets.length - 1];
  return { conn, sockets, timers, got, fire, last };
}

describe("the table code in the WebSocket URL", () => {
  it("is the table parameter, upper case, which the balancer routes on", () => {
    expect(tableUrl("ws://a.b/ws", " k7qx2m ")).toBe("ws://a.b/ws?table=K7QX2M");
    expect(tableUrl("wss://a.b/ws?x=1", "K7QX2M")).toBe("wss://a.b/ws?x=1&table=K7QX2M");
    const h = harness();
    expect(h.sockets[0].url).toBe("ws://games.test/ws?table=K7QX2M");
  });
});

describe("where a MOVED close sends the connection", () => {
  it("reads the owner's address from the close reason", () => {
    expect(movedUrl("http://10.0.0.2:8001", "ws://a/ws")).toBe("ws://10.0.0.2:8001/ws");
    expect(movedUrl("https://p2.games.test/", "wss://a/ws")).toBe("wss://p2.games.test/ws");
    expect(movedUrl("http://[::1]:8002", "ws://a/ws")).toBe("ws://[::1]:8002/ws");
  });

  it("reads a process's path at the balancer (deploy/haproxy.cfg's /p/NAME)", () => {
    expect(movedUrl("https://games.test/p/s2", "wss://games.test/ws")).toBe("wss://games.test/p/s2/ws");
    expect(movedUrl("http://127.0.0.1:8000/p/s0/", "ws://127.0.0.1:8000/ws")).toBe("ws://127.0.0.1:8000/p/s0/ws");
    expect(tableUrl("ws://127.0.0.1:8000/p/s0/ws", "K7QX2M")).toBe("ws://127.0.0.1:8000/p/s0/ws?table=K7QX2M");
  });

  it("follows a table through the balancer's path for its process", () => {
    const h = harness("wss://games.test/ws");
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "https://games.test/p/s1");
    h.fire();
    expect(h.last().url).toBe("wss://games.test/p/s1/ws?table=K7QX2M");
    h.last().open();
    h.last().receive(WELCOME);
    expect(h.conn.status).toBe("open");
  });

  it("names no address for an empty or odd reason, or an unencrypted one from an https page", () => {
    expect(movedUrl("", "ws://a/ws")).toBeNull();
    expect(movedUrl("somewhere else", "ws://a/ws")).toBeNull();
    expect(movedUrl("ftp://a:1", "ws://a/ws")).toBeNull();
    expect(movedUrl("http://a:1/p/s1?x=1", "ws://a/ws")).toBeNull();
    expect(movedUrl("http://a:1/p/s1#x", "ws://a/ws")).toBeNull();
    expect(movedUrl("http://10.0.0.2:8001", "wss://a/ws")).toBeNull();
  });

  it("pauses briefly, longer while the table keeps moving, at most a second", () => {
    expect([1, 2, 3, 4, 5, 9].map(movedPause)).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});

describe("following a table that lives in another process", () => {
  it("goes to the owner named by the close, says hello there and plays on", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://127.0.0.1:8002");
    expect(h.conn.status).toBe("retrying");
    expect(h.fire()).toBe(movedPause(1));
    expect(h.last().url).toBe("ws://127.0.0.1:8002/ws?table=K7QX2M");
    h.last().open();
    expect(h.last().sent[0]).toEqual({ type: "hello", v: 1, table: "K7QX2M", token: "T", delta_events: true });
    h.last().receive(WELCOME);
    expect(h.conn.moves).toBe(0);
    expect(h.conn.status).toBe("open");
    expect(h.conn.act("draw")).toBe(1);
    expect(h.last().sent[1]).toEqual({ type: "action", v: 1, id: 1, action: "draw" });
    expect(h.got.map((m) => m.type)).toEqual(["welcome"]);
  });

  it("comes back through the page's own address when the owner dies, at once", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://127.0.0.1:8002");
    h.fire();
    h.last().open();
    h.last().receive(WELCOME);
    h.last().serverCloses(1006); // SIGKILL of the owner
    expect(h.fire()).toBe(0);
    expect(h.last().url).toBe("ws://games.test/ws?table=K7QX2M");
    // the balancer's process has taken the table over
    h.last().open();
    expect(h.last().sent[0]).toMatchObject({ type: "hello", table: "K7QX2M", token: "T" });
    h.last().receive(WELCOME);
    expect(h.conn.status).toBe("open");
    expect(h.conn.url).toBe("ws://games.test/ws");
  });

  it("after a failure at the page's own address, pauses as after any lost connection", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(1006);
    expect(h.fire()).toBe(backoff(0));
    h.last().serverCloses(1006);
    expect(h.fire()).toBe(backoff(1));
    expect(h.sockets.every((s) => s.url === "ws://games.test/ws?table=K7QX2M")).toBe(true);
  });

  it("without an address, retries the same one while the old owner's lease runs out", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "");
    expect(h.fire()).toBe(movedPause(1));
    h.last().open();
    h.last().serverCloses(MOVED, "");
    expect(h.fire()).toBe(movedPause(2));
    expect(h.last().url).toBe("ws://games.test/ws?table=K7QX2M");
    h.last().open();
    h.last().receive(WELCOME);
    expect(h.conn.moves).toBe(0);
  });

  it("does not spin when the owner named cannot be reached from here", () => {
    const h = harness();
    const pauses: number[] = [];
    for (let round = 0; round < 8; round++) {
      h.last().open();
      h.last().serverCloses(MOVED, "http://10.9.9.9:8001"); // the balancer's process
      pauses.push(h.fire());
      expect(h.last().url).toBe("ws://10.9.9.9:8001/ws?table=K7QX2M");
      h.last().serverCloses(1006); // not reachable from the browser
      expect(h.fire()).toBe(0);
      expect(h.last().url).toBe("ws://games.test/ws?table=K7QX2M");
    }
    expect(pauses).toEqual([100, 200, 400, 800, 1000, 1000, 1000, 1000]);
    expect(h.conn.status).not.toBe("stopped");
  });

  it("goes back to the page's address when the browser refuses the socket named", () => {
    const h = harness("ws://games.test/ws", { throwFor: /8002/ });
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://127.0.0.1:8002");
    h.fire(); // the socket cannot even be made
    expect(h.conn.url).toBe("ws://games.test/ws");
    expect(h.fire()).toBe(0);
    expect(h.last().url).toBe("ws://games.test/ws?table=K7QX2M");
  });

  it("goes back to the page's address when the page's policy refuses the one named", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://127.0.0.1:8002");
    h.fire();
    h.last().refused(); // connect-src 'self': an error event, never a close
    expect(h.conn.status).toBe("retrying");
    expect(h.fire()).toBe(0);
    expect(h.last().url).toBe("ws://games.test/ws?table=K7QX2M");
    h.last().open();
    h.last().receive(WELCOME);
    expect(h.conn.status).toBe("open");
    expect(h.sockets.length).toBe(3);
  });

  it("from an https page, does not follow to an unencrypted address", () => {
    const h = harness("wss://games.test/ws");
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://10.0.0.2:8001");
    h.fire();
    expect(h.last().url).toBe("wss://games.test/ws?table=K7QX2M");
  });

  it("answers nothing sent while it moves, and stopping cancels the move", () => {
    const h = harness();
    h.sockets[0].open();
    h.sockets[0].serverCloses(MOVED, "http://127.0.0.1:8002");
    expect(h.conn.act("draw")).toBeNull();
    h.conn.stop();
    expect(h.conn.status).toBe("stopped");
    h.timers[h.timers.length - 1].fn();
    expect(h.sockets.length).toBe(1);
  });
});

describe("a hello refused for now", () => {
  it("connects again after a pause growing until a welcome", () => {
    const h = harness();
    const refused = { type: "error", v: 1, code: "rate_limited", message: "too many hellos from your address", ref: null };
    h.sockets[0].open();
    h.sockets[0].receive(refused);
    expect(h.sockets[0].readyState).toBe(3);
    expect(h.got).toEqual([refused]); // the page hears why
    expect(h.fire()).toBe(backoff(0));
    h.last().open();
    h.last().receive(refused);
    expect(h.fire()).toBe(backoff(1));
    h.last().open();
    expect(h.last().sent[0]).toMatchObject({ type: "hello", token: "T" });
    h.last().receive(WELCOME);
    h.last().serverCloses(1006);
    expect(h.fire()).toBe(backoff(0));
  });

  it("keeps a welcomed connection when a later message is refused for its rate", () => {
    const h = harness();
    h.sockets[0].open();
    h.last().receive(WELCOME);
    h.last().receive({ type: "error", v: 1, code: "rate_limited", message: "too many messages", ref: 4 });
    expect(h.sockets[0].readyState).toBe(1);
    expect(h.timers).toEqual([]);
  });
});
