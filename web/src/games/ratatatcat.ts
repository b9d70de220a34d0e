// Rat-a-Tat Cat: which of your cards you are looking at now, and what the legal actions mean
// for the table (which slots can be clicked, which swaps are open).
import type { Obj } from "../protocol";

export const SLOTS = 4;

/**
 * The slots (0-based) of the viewer's own row that the viewer is looking at now.  As at a
 * real table, a card is seen only for a moment: the two outer cards after the deal, a card
 * peeked at, the card a Swap brings you (when the swap_look option is on).  The look lasts
 * until the viewer's own next move.  Derived from the events alone, so a reload shows the same.
 */
export function lookingAt(events: readonly Obj[], me: number | null, swapLook: boolean): Set<number> {
  let looking = new Set<number>();
  if (me === null) return looking;
  for (const e of events) {
    const kind = e.kind;
    if (kind === "deal") {
      looking = new Set([0, SLOTS - 1]);
    } else if (kind === "peek" && e.seat === me) {
      looking = new Set([e.slot - 1]);
    } else if (kind === "swap" && swapLook && e.seat === me) {
      looking = new Set([e.slot - 1]);
    } else if (kind === "swap" && swapLook && e.other === me) {
      looking = new Set([e.other_slot - 1]);
    } else if (e.seat === me && kind !== "fix" && kind !== "out" && kind !== "cap") {
      looking = new Set();
    }
  }
  return looking;
}

/** What the viewer may see of a slot now: the card, or null (face down). */
export function visibleCard(
  obs: Obj,
  owner: number,
  slot: number,
  looking: Set<number>,
): string | null {
  const card: string | null = obs.slots?.[owner]?.[slot] ?? null;
  if (card === null) return null;
  const faceUp = !!obs.face_up?.[owner]?.[slot];
  if (faceUp || obs.over || obs.options?.memory_aid) return card;
  if (owner === obs.seat && looking.has(slot)) return card;
  return null;
}

export interface Swap {
  mine: number;
  seat: number;
  slot: number;
}

/** "swap N P:M" as numbers (0-based slots and seat). */
export function parseSwap(action: string): Swap | null {
  const m = /^swap (\d) (\d+):(\d)$/.exec(action);
  if (!m) return null;
  return { mine: Number(m[1]) - 1, seat: Number(m[2]) - 1, slot: Number(m[3]) - 1 };
}

export function swapAction(s: Swap): string {
  return `swap ${s.mine + 1} ${s.seat + 1}:${s.slot + 1}`;
}

/** The action a click on one of your own slots takes now ("replace 2", "peek 3"), if any. */
export function slotAction(legal: readonly string[], slot: number): string | null {
  for (const verb of ["replace", "peek"]) {
    const a = `${verb} ${slot + 1}`;
    if (legal.includes(a)) return a;
  }
  return null;
}

/** The sentence telling the viewer what to do now. */
export function prompt(obs: Obj, legal: readonly string[]): string {
  if (obs.over) return "The game is over.";
  if (!legal.length) return "";
  const top = obs.discard_top;
  switch (obs.phase) {
    case "start":
      return legal.includes("take")
        ? `Your turn: draw a card (D) or take the ${top} from the discard pile (T).`
        : "Your turn: draw a card (D).";
    case "holding":
      return `You drew the ${obs.held}: put it in one of your slots (1-4) or discard it (X).`;
    case "taken":
      return `Put the ${obs.held} in one of your slots (1-4).`;
    case "peek":
      return "Peek: choose one of your cards to look at (1-4).";
    case "swap":
      return "Swap: choose one of your cards (1-4), then a card of another player; or no swap (N).";
    case "draw2":
      return legal.includes("draw") ? "Draw 2: draw again (D)." : "Draw 2: choose what to do.";
    case "knock":
      return "Knock (K) to end the round after one more turn each, or end your turn (E).";
    default:
      return "Your move.";
  }
}

/** Keys of the simple actions. */
export const KEYS: Record<string, string> = {
  d: "draw",
  t: "take",
  x: "discard",
  n: "noswap",
  k: "knock",
  e: "end",
};
