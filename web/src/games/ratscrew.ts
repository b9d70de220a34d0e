// Egyptian Ratscrew: the slap (optimistic display, then the server's verdict) and the
// challenge in words.
import type { EventItem, Obj } from "../protocol";

export type SlapStatus = "sent" | "valid" | "late" | "bad" | "refused";

export interface Slap {
  id: number | null;
  version: number;
  at: number;
  status: SlapStatus;
  text: string;
}

/** The slap action offered now ("slap@17"), if any. */
export function slapAction(legal: readonly string[]): string | null {
  return legal.find((a) => a.startsWith("slap@")) ?? null;
}

/** The verdict on your slap found among new events, or null if none is there yet. */
export function slapVerdict(events: readonly EventItem[], me: number): Pick<Slap, "status" | "text"> | null {
  for (const item of events) {
    const e = item.event;
    if (e.seat !== me) continue;
    if (e.kind === "slap" || e.kind === "join")
      return { status: "valid", text: item.text ?? "Your slap takes the pile!" };
    if (e.kind === "late_slap") return { status: "late", text: item.text ?? "Too late." };
    if (e.kind === "bad_slap") return { status: "bad", text: item.text ?? "Bad slap." };
  }
  return null;
}

export function seatName(names: readonly string[], view: Obj, seat: number): string {
  const n = names[seat] ?? `Seat ${seat + 1}`;
  return view.seat === seat ? `${n} (you)` : n;
}

/** The challenge or the pile waiting to be collected, in words ("" if none). */
export function challengeText(view: Obj, names: readonly string[]): string {
  if (view.phase === "final")
    return `${seatName(names, view, view.collector)} holds every other card: collects the table to win, unless someone slaps first.`;
  if (view.phase === "collect")
    return `${seatName(names, view, view.collector)} has won the pile: collect, unless someone slaps first.`;
  const ch = view.challenge;
  if (!ch) return "";
  const left = ch.chances_left;
  const who = ch.answering !== null ? seatName(names, view, ch.answering) : "-";
  return `Challenge: ${ch.card} by ${seatName(names, view, ch.by)}; ${who} has ${left} chance${left === 1 ? "" : "s"} to play a face card.`;
}
