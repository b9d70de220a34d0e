// The WebSocket to the server: hello, answering pings, numbering actions, and reconnecting
// with a growing pause whenever the connection is lost (the seat token brings the seat back).
// Behind a balancer in front of several server processes, the table code goes in the URL (the
// balancer routes a table's connections by it), and a process that does not hold the table
// closes with MOVED naming the one that does: the connection goes there, and back to the
// page's own address when that process cannot be reached (it died: the table comes back on
// another process, which the balancer then routes to).
import type { ServerMsg } from "./protocol";

/** The close code of a server process that does not serve the table; the close reason is
 * the address (http://host:port) of the one that does, or empty when it is not known. */
export const MOVED = 4009;

/** The part of a WebSocket used here (tests pass a fake). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: { data: any }) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
}

export type Status = "connecting" | "open" | "retrying" | "stopped";

export interface ConnectionOptions {
  url: string;
  table: string;
  token: string | null;
  hostToken: string | null;
  onMessage: (msg: ServerMsg) => void;
  onStatus?: (status: Status, detail?: string) => void;
  makeSocket?: (url: string) => SocketLike;
  now?: () => number;
  schedule?: (fn: () => void, ms: number) => unknown;
  cancel?: (handle: unknown) => void;
}

/** The pause before reconnecting after ``failures`` failed attempts in a row (ms); an attempt
 * counts as failed until the server welcomes it. */
export function backoff(failures: number): number {
  return Math.min(8000, 250 * 2 ** Math.min(failures, 5));
}

/** The WebSocket address of the page's own server. */
export function socketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}/ws`;
}

/** ``url`` with the table code as its ``table`` parameter (``/ws?table=CODE``), where a
 * balancer reads it to route the table's connections to one process. */
export function tableUrl(url: string, code: string): string {
  const param = `table=${encodeURIComponent(code.trim().toUpperCase())}`;
  return url + (url.includes("?") ? "&" : "?") + param;
}

/** The WebSocket address of the process a MOVED close names (its reason: ``http://host:port``,
 * ``https://...``, or a path at the balancer's own address such as ``https://site/p/s2``, which
 * it routes to that process), or null if the reason names none, or one this page may not open
 * (an unencrypted socket from an https page, which the browser refuses).  A page whose policy
 * allows only its own origin (``connect-src 'self'``) is refused any other origin: its
 * connection comes back to the page's own address, where the balancer routes by table code. */
export function movedUrl(reason: string, pageUrl: string): string | null {
  const found = /^(https?):\/\/([^/?#\s]+)(\/[^?#\s]*)?$/.exec(reason.trim());
  if (found === null) return null;
  const secure = found[1] === "https";
  if (!secure && pageUrl.startsWith("wss:")) return null;
  const path = (found[3] ?? "").replace(/\/+$/, "");
  return `${secure ? "wss:" : "ws:"}//${found[2]}${path}/ws`;
}

/** The pause before reconnecting after the ``moves``-th MOVED in a row (ms): short, as the
 * table is either at the address named or back on a live process once its lease runs out. */
export function movedPause(moves: number): number {
  return Math.min(1000, 100 * 2 ** Math.max(0, moves - 1));
}

export class Connection {
  status: Status = "connecting";
  rtt: number | null = null;
  private socket: SocketLike | null = null;
  private nextId = 1;
  private failures = 0;
  private timer: unknown = null;
  private stopped = false;
  private takenOver = false;
  private readonly now: () => number;
  /** The WebSocket address connected to: the page's own (``opts.url``), or the process a
   * MOVED close named. */
  url: string;
  /** MOVED closes since the last welcome. */
  moves = 0;

  constructor(private readonly opts: ConnectionOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.url = opts.url;
    this.open();
  }

  /** Use other tokens from now on (after joining a seat) and say hello again. */
  setTokens(token: string | null, hostToken: string | null): void {
    this.opts.token = token;
    this.opts.hostToken = hostToken;
    if (this.socket !== null && this.socket.readyState === 1) this.hello();
  }

  private setStatus(status: Status, detail?: string): void {
    this.status = status;
    this.opts.onStatus?.(status, detail);
  }

  private open(): void {
    if (this.stopped) return;
    this.setStatus(this.failures === 0 ? "connecting" : "retrying");
    const make = this.opts.makeSocket ?? ((url: string) => new WebSocket(url) as SocketLike);
    let socket: SocketLike;
    try {
      socket = make(tableUrl(this.url, this.opts.table));
    } catch {
      this.lost();
      return;
    }
    this.socket = socket;
    let welcomed = false;
    socket.onopen = () => {
      this.setStatus("open");
      this.hello();
    };
    socket.onmessage = (ev) => {
      let msg: ServerMsg;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMsg;
      } catch {
        return;
      }
      if (msg.type === "ping") {
        this.rtt = msg.rtt_ms;
        this.send({ type: "pong", v: 1, id: msg.id, client_time: this.now() });
      }
      if (msg.type === "welcome") {
        welcomed = true;
        this.failures = 0;
        this.moves = 0;
      }
      if (msg.type === "error" && msg.code === "bad_token" && /taken over/.test(msg.message)) {
        this.takenOver = true;
      }
      this.opts.onMessage(msg);
      if (!welcomed && msg.type === "error" && msg.code === "rate_limited" && this.socket === socket) {
        // The hello was refused for now (too many from this address, as when everyone behind
        // one balancer reconnects at once): the server keeps the connection, which is of no
        // use without a table; connect again after a growing pause.
        this.socket = null;
        socket.close();
        this.lost();
      }
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.takenOver) {
        this.stop("This seat is now played from another window.");
        return;
      }
      if (ev?.code === MOVED) {
        this.moved(String(ev.reason ?? ""));
        return;
      }
      this.lost();
    };
    socket.onerror = () => {
      // A failed connection: onclose follows and retries, except when the page's own policy
      // (its Content-Security-Policy) refused the address, which fires no close at all.
      if (this.socket !== socket || socket.readyState === 1) return;
      this.socket = null;
      socket.close();
      this.lost();
    };
  }

  /** The table is another process's: go where the close named (else to the same address,
   * where a process takes the table over once its lease has run out). */
  private moved(reason: string): void {
    this.moves += 1;
    this.url = movedUrl(reason, this.opts.url) ?? this.opts.url;
    this.later(movedPause(this.moves));
  }

  /** The connection failed or was lost: at a process a MOVED close named, go back to the
   * page's own address at once (that process is gone, or cannot be reached from here);
   * else try again after a growing pause. */
  private lost(): void {
    if (this.url !== this.opts.url) {
      this.url = this.opts.url;
      this.later(0);
      return;
    }
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    const pause = backoff(this.failures);
    this.failures += 1;
    this.later(pause);
  }

  /** Connect again after ``pause`` ms. */
  private later(pause: number): void {
    if (this.stopped) return;
    this.setStatus("retrying");
    const schedule = this.opts.schedule ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    this.timer = schedule(() => {
      this.timer = null;
      this.open();
    }, pause);
  }

  private hello(): void {
    const msg: Record<string, unknown> = { type: "hello", v: 1, table: this.opts.table, delta_events: true };
    if (this.opts.token) msg.token = this.opts.token;
    if (this.opts.hostToken) msg.host_token = this.opts.hostToken;
    this.send(msg);
  }

  /** Send a message if the connection is open; false if it could not be sent. */
  send(msg: Record<string, unknown>): boolean {
    const socket = this.socket;
    if (socket === null || socket.readyState !== 1) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  /** Send an action; its id (answered by ``ack`` or ``error`` with ``ref``), or null if the
   * connection is down. */
  act(action: string, times?: { pressed_at: number; seen_at: number | null }): number | null {
    const id = this.nextId++;
    const msg: Record<string, unknown> = { type: "action", v: 1, id, action };
    if (times) {
      msg.pressed_at = times.pressed_at;
      if (times.seen_at !== null) msg.seen_at = times.seen_at;
    }
    return this.send(msg) ? id : null;
  }

  /** Close for good (leaving the page). */
  stop(detail?: string): void {
    this.stopped = true;
    if (this.timer !== null) (this.opts.cancel ?? ((h: any) => clearTimeout(h)))(this.timer);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.setStatus("stopped", detail);
  }
}
