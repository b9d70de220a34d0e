// Egyptian Ratscrew: the slap (optimistic display, then the server's verdict) and the
// challenge in words.
import type { EventItem, Obj } from "../protocol";

export type SlapStatus = "sent" | "valid" | "late" | "bad" | "refused" | "held";

export interface Slap {
  id: number | null;
  version: number;
  at: number;
  status: SlapStatus;
  text: string;
}

/** No person reacts to a pile sooner than this (ms): the server's and the rules' minimum. */
export const MIN_REACTION_MS = 100;

/** How many pile versions the page remembers with the moment it drew them. */
export const SHOWN_KEPT = 32;

/** A pile version as this page drew it: when (the page's clock, ms) and how many cards. */
export interface Shown {
  version: number;
  at: number;
  cards: number;
}

/** ``history`` with pile ``version`` drawn at ``at`` (a version already there keeps its
 * first moment); the latest ``SHOWN_KEPT`` are kept, oldest first. */
export function noteShown(history: readonly Shown[], version: number, at: number, cards: number): Shown[] {
  if (history.length > 0 && history[history.length - 1].version === version) return history as Shown[];
  return [...history, { version, at, cards }].slice(-SHOWN_KEPT);
}

/** The pile a press at ``now`` is aimed at: the latest one drawn at least ``MIN_REACTION_MS``
 * before it (nobody reacts faster), else the first one drawn; null before any. */
export function aimedPile(history: readonly Shown[], now: number): Shown | null {
  let aimed: Shown | null = history.length > 0 ? history[0] : null;
  for (const shown of history) {
    if (shown.at > now - MIN_REACTION_MS) break;
    aimed = shown;
  }
  return aimed;
}

/** What a press at ``now`` does: send ``slap@N`` for the pile it is aimed at with the moment
 * that pile was drawn, or hold it back (with the reason) when it could only cost a card or is
 * not allowed.  ``offered`` is the slap the server offers now (null: this seat may not slap). */
export function pressSlap(
  history: readonly Shown[],
  now: number,
  offered: string | null,
  lastSlap: number,
): { action: string; version: number; seenAt: number } | { held: string } {
  if (offered === null) return { held: "You may not slap now." };
  const aimed = aimedPile(history, now);
  if (aimed === null) {
    const version = Number(offered.slice(5));
    return { action: offered, version, seenAt: now };
  }
  if (aimed.version <= lastSlap) return { held: "You already slapped this pile." };
  if (aimed.cards === 0) return { held: "The pile is empty: nothing to slap." };
  return { action: `slap@${aimed.version}`, version: aimed.version, seenAt: aimed.at };
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
