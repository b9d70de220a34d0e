// What the browser remembers: the display name, the seat tokens of each table (to get the seat
// back after a reload or a lost connection) and the card colours.

export interface SeatKeys {
  token: string | null;
  host_token: string | null;
  seat: number | null;
}

/** The part of the Storage API used here (so tests can pass a Map-backed one). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const PREFIX = "ratgames.";

function store(): KeyValue | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export class Memory {
  constructor(private readonly kv: KeyValue | null = store()) {}

  private get(key: string): string | null {
    try {
      return this.kv?.getItem(PREFIX + key) ?? null;
    } catch {
      return null;
    }
  }

  private set(key: string, value: string | null): void {
    try {
      if (value === null) this.kv?.removeItem(PREFIX + key);
      else this.kv?.setItem(PREFIX + key, value);
    } catch {
      // storage full or disabled: the page still works, it only forgets
    }
  }

  get name(): string {
    return this.get("name") ?? "";
  }
  set name(value: string) {
    this.set("name", value.trim() || null);
  }

  get fourColour(): boolean {
    return this.get("fourColour") === "1";
  }
  set fourColour(value: boolean) {
    this.set("fourColour", value ? "1" : null);
  }

  /** A sound when the person's turn comes (off unless chosen). */
  get turnSound(): boolean {
    return this.get("turnSound") === "1";
  }
  set turnSound(value: boolean) {
    this.set("turnSound", value ? "1" : null);
  }

  seat(code: string): SeatKeys | null {
    const raw = this.get("table." + code.toUpperCase());
    if (raw === null) return null;
    try {
      const v = JSON.parse(raw) as Partial<SeatKeys>;
      return {
        token: typeof v.token === "string" ? v.token : null,
        host_token: typeof v.host_token === "string" ? v.host_token : null,
        seat: typeof v.seat === "number" ? v.seat : null,
      };
    } catch {
      return null;
    }
  }

  setSeat(code: string, keys: SeatKeys | null): void {
    this.set("table." + code.toUpperCase(), keys === null ? null : JSON.stringify(keys));
  }

  /** A rematch: the old table's tokens play the same seat at the new table. */
  carryOver(from: string, to: string): void {
    const keys = this.seat(from);
    if (keys !== null && this.seat(to) === null) this.setSeat(to, keys);
  }
}
