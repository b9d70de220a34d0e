// Cards as the games write them: standard cards ("10H", "QS", "AC"), jokers ("BJ", "RJ") and
// Rat-a-Tat Cat's cards ("0".."9", "PEEK", "SWAP", "DRAW2").  Everything here is pure, so the
// unit tests can check it without a browser.

export type Suit = "C" | "D" | "H" | "S";

export const SUITS: readonly Suit[] = ["C", "D", "H", "S"];
export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] as const;

export const SUIT_SYMBOL: Record<Suit, string> = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAME: Record<Suit, string> = {
  C: "clubs",
  D: "diamonds",
  H: "hearts",
  S: "spades",
};
const RANK_NAME: Record<string, string> = {
  J: "jack",
  Q: "queen",
  K: "king",
  A: "ace",
};

/** The colour a suit is drawn in: two colours (red, black) or a four-colour deck. */
export type Ink = "red" | "black" | "blue" | "green";

export function suitInk(suit: Suit, fourColour: boolean): Ink {
  if (fourColour) return ({ C: "green", D: "blue", H: "red", S: "black" } as const)[suit];
  return suit === "H" || suit === "D" ? "red" : "black";
}

export interface Standard {
  kind: "standard";
  text: string;
  rank: string;
  suit: Suit;
  /** Order in the game engine: rank index * 4 + suit index (2C = 0 ... AS = 51). */
  order: number;
}
export interface Joker {
  kind: "joker";
  text: "BJ" | "RJ";
  order: number;
}
export interface RatCard {
  kind: "rat";
  text: string;
  /** 0..9 for a number card, null for a power card. */
  value: number | null;
}
export type Card = Standard | Joker | RatCard;

/** A card from its text, or null if the text is no card. */
export function parseCard(text: string): Card | null {
  const t = text.trim().toUpperCase();
  if (t === "BJ" || t === "RJ") return { kind: "joker", text: t, order: t === "BJ" ? 52 : 53 };
  if (/^[0-9]$/.test(t)) return { kind: "rat", text: t, value: Number(t) };
  if (t === "PEEK" || t === "SWAP" || t === "DRAW2") return { kind: "rat", text: t, value: null };
  const m = /^(10|[2-9JQKA])([CDHS])$/.exec(t);
  if (!m) return null;
  const rank = m[1];
  const suit = m[2] as Suit;
  const order = RANKS.indexOf(rank as (typeof RANKS)[number]) * 4 + SUITS.indexOf(suit);
  return { kind: "standard", text: t, rank, suit, order };
}

/** The engine's order of standard cards and jokers (low to high, jokers last). */
export function cardOrder(text: string): number {
  const c = parseCard(text);
  if (c === null || c.kind === "rat") return 99;
  return c.order;
}

export function sortCards(cards: readonly string[]): string[] {
  return [...cards].sort((a, b) => cardOrder(a) - cardOrder(b));
}

/** The card's name for screen readers: "7 of hearts", "queen of spades", "black joker",
 * "Rat-a-Tat Cat 5", "Peek power card". */
export function cardName(text: string): string {
  const c = parseCard(text);
  if (c === null) return text;
  if (c.kind === "joker") return c.text === "BJ" ? "black joker" : "red joker";
  if (c.kind === "rat") {
    if (c.value !== null) return `${c.value}`;
    return { PEEK: "Peek power card", SWAP: "Swap power card", DRAW2: "Draw 2 power card" }[
      c.text as "PEEK" | "SWAP" | "DRAW2"
    ];
  }
  return `${RANK_NAME[c.rank] ?? c.rank} of ${SUIT_NAME[c.suit]}`;
}

/** A short label with the suit symbol: "10♥", "Q♠", "Joker". */
export function cardShort(text: string): string {
  const c = parseCard(text);
  if (c === null) return text;
  if (c.kind === "joker") return "Joker";
  if (c.kind === "rat") return c.text;
  return c.rank + SUIT_SYMBOL[c.suit];
}

/** Every card written in a text ("play 7H 7S" -> ["7H", "7S"]). */
export function cardsIn(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((w) => {
      const c = parseCard(w);
      return c !== null && c.kind !== "rat";
    })
    .map((w) => w.toUpperCase());
}

/** A text with its standard cards written with suit symbols, as the cards are drawn:
 * "Seat 2 leads AH AS" -> "Seat 2 leads A♥ A♠", "cages 10D and BJ" -> "cages 10♦ and Joker". */
export function withSuitSymbols(text: string): string {
  return text.replace(/\b(?:(10|[2-9JQKA])([CDHS])|BJ|RJ)\b/g, (whole) => cardShort(whole));
}
