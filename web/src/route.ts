// The pages and their paths: / (lobby), /t/CODE (a table), /replays, /replays/ID[?seat=N].

export type Route =
  | { page: "lobby" }
  | { page: "table"; code: string }
  | { page: "replays" }
  | { page: "replay"; id: number; seat: number | null }
  | { page: "missing"; path: string };

export function parseRoute(pathname: string, search = ""): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { page: "lobby" };
  let m = /^\/t\/([A-Za-z0-9]{1,16})$/.exec(path);
  if (m) return { page: "table", code: m[1].toUpperCase() };
  if (path === "/replays") return { page: "replays" };
  m = /^\/replays\/(\d{1,12})$/.exec(path);
  if (m) {
    const seat = new URLSearchParams(search).get("seat");
    const n = seat !== null && /^\d{1,2}$/.test(seat) ? Number(seat) : null;
    return { page: "replay", id: Number(m[1]), seat: n };
  }
  return { page: "missing", path };
}

/** A code typed by a person: spaces and a pasted link forgiven ("k7qx2m", ".../t/K7QX2M").
 * Public tables have 6-character codes, private ones 12. */
export function cleanCode(text: string): string | null {
  const t = text.trim();
  const m = /\/t\/([A-Za-z0-9]+)\/?$/.exec(t);
  const code = (m ? m[1] : t).replace(/\s+/g, "").toUpperCase();
  return /^(?:[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}){1,2}$/.test(code) ? code : null;
}

/** The seat token in a seat link's fragment (`/t/CODE#seat=TOKEN`), or null. */
export function seatLinkToken(hash: string): string | null {
  const m = /^#?seat=([A-Za-z0-9_-]{16,128})$/.exec(hash.trim());
  return m ? m[1] : null;
}

/** A seat link: the table's link with the seat's token in the fragment, which browsers never
 * send to a server (so it stays out of its logs).  As secret as the token: whoever opens it
 * plays the seat. */
export function seatLink(origin: string, code: string, token: string): string {
  return `${origin}/t/${code}#seat=${token}`;
}
