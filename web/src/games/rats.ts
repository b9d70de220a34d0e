// Rats: matching the cards you chose to a legal play, the hints of what beats the trick, and
// the order of a discard (one card at a time, lowest first, jokers last).
import { cardOrder, cardsIn, sortCards } from "../cards";

function sameCards(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = sortCards(a);
  const y = sortCards(b);
  return x.every((c, i) => c === y[i]);
}

/** The legal plays (not discards) made of exactly the chosen cards; with jokers a choice may
 * have two readings ("5H BJ RJ set", "5H BJ RJ run"). */
export function playsFor(legal: readonly string[], chosen: readonly string[]): string[] {
  if (!chosen.length) return [];
  return legal.filter((a) => !a.startsWith("discard ") && sameCards(cardsIn(a), chosen));
}

/** The plays that lead or beat the trick (every legal action that is not a discard step). */
export function hints(legal: readonly string[]): string[] {
  return legal
    .filter((a) => !a.startsWith("discard "))
    .sort((a, b) => {
      const x = cardsIn(a);
      const y = cardsIn(b);
      if (x.length !== y.length) return x.length - y.length;
      return Math.max(...x.map(cardOrder)) - Math.max(...y.map(cardOrder));
    });
}

/** The cards that may be discarded now (from "discard X" actions). */
export function discardable(legal: readonly string[]): string[] {
  return legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8));
}

/** The next step of discarding ``chosen`` (lowest first), or null if it is not allowed now. */
export function nextDiscard(legal: readonly string[], chosen: readonly string[]): string | null {
  if (!chosen.length) return null;
  const first = sortCards(chosen)[0];
  const action = `discard ${first}`;
  return legal.includes(action) ? action : null;
}

/** How many cards a play to the trick needs now (null when leading: any combination). */
export function needed(view: Record<string, any>): number | null {
  const trick = view.trick;
  if (!trick) return null;
  return typeof trick.count === "number" ? trick.count : null;
}

/** The event kind of a Rats event (the engine names it "event" or "kind"). */
export function eventKind(e: Record<string, any>): string {
  return typeof e.event === "string" ? e.event : String(e.kind);
}
