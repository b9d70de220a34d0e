// The WebSocket to the server: hello, answering pings, numbering actions, and reconnecting
// with a growing pause whenever the connection is lost (the seat token brings the seat back).
import type { ServerMsg } from "./protocol";

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

/** The pause before reconnecting after ``failures`` failed attempts in a row (ms). */
export function backoff(failures: number): number {
  return Math.min(8000, 250 * 2 ** Math.min(failures, 5));
}

/** The WebSocket address of the page's own server. */
export function socketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}/ws`;
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

  constructor(private readonly opts: ConnectionOptions) {
    this.now = opts.now ?? (() => performance.now());
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
      socket = make(this.opts.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
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
      if (msg.type === "error" && msg.code === "bad_token" && /taken over/.test(msg.message)) {
        this.takenOver = true;
      }
      this.opts.onMessage(msg);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.takenOver) {
        this.stop("This seat is now played from another window.");
        return;
      }
      this.retry();
    };
    socket.onerror = () => {
      // onclose follows and retries
    };
  }

  private retry(): void {
    if (this.stopped) return;
    const pause = backoff(this.failures);
    this.failures += 1;
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
