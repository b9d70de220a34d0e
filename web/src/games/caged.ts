// Caged Rats: what a chosen card can do now (cage, offer, bid, top face up, throw face down).
import { cardsIn, sortCards } from "../cards";

export const COLOURS = ["Red", "Black"] as const;

/** The legal actions naming this one card, with a label for each button. */
export function actionsFor(legal: readonly string[], card: string): { action: string; label: string }[] {
  const out: { action: string; label: string }[] = [];
  for (const a of legal) {
    const [verb, ...rest] = a.split(" ");
    if (rest.length !== 1 || rest[0] !== card) continue;
    const label =
      verb === "offer"
        ? `Offer ${card}`
        : verb === "bid"
          ? `Bid ${card}`
          : verb === "top"
            ? `Top with ${card} (face up)`
            : verb === "throw"
              ? `Throw ${card} face down`
              : a;
    out.push({ action: a, label });
  }
  return out;
}

/** The cage action for two chosen cards ("cage 5H 9D", lower card first), if legal. */
export function cageFor(legal: readonly string[], chosen: readonly string[]): string | null {
  if (chosen.length !== 2) return null;
  const [a, b] = sortCagedPair(chosen);
  for (const x of [`cage ${a} ${b}`, `cage ${b} ${a}`]) if (legal.includes(x)) return x;
  return null;
}

function sortCagedPair(chosen: readonly string[]): string[] {
  return sortCards(chosen);
}

/** Cards named by cage actions (what may be caged). */
export function cageable(legal: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const a of legal) if (a.startsWith("cage ")) for (const c of cardsIn(a)) out.add(c);
  return out;
}

/** Cards that some legal action names on its own (offer, bid, top, throw). */
export function playable(legal: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const a of legal) {
    const parts = a.split(" ");
    if (parts.length === 2 && parts[0] !== "feed") out.add(parts[1].toUpperCase());
  }
  return out;
}

export function phasePrompt(view: Record<string, any>, legal: readonly string[]): string {
  if (view.phase === "over") return "The game is over.";
  if (!legal.length) return "";
  if (legal.some((a) => a.startsWith("cage ")))
    return "Cage two rats: choose two cards of your hand (the rats want captures of their suit).";
  if (legal.some((a) => a.startsWith("offer ")))
    return "Offer a capture: choose a card of your hand.";
  if (legal.some((a) => a.startsWith("bid "))) return "Bid for the capture: choose a card.";
  if (legal.some((a) => a.startsWith("top ") || a.startsWith("throw ")))
    return "Respond: top the bid with a higher card (face up), or throw any card face down.";
  if (legal.some((a) => a.startsWith("feed "))) return "Feed the capture to one of your rats.";
  return "Your move.";
}
