// A playing card drawn with its rank and suit symbol (or face down).  Clickable cards are
// buttons; every card has an accessible name ("queen of spades", "face-down card").  A button's
// name is hidden text inside it rather than an aria-label, since the drawn face ("Q♠") is
// symbols, not the words of its name.
import type { JSX } from "preact";
import { cardName, parseCard, SUIT_SYMBOL, suitInk } from "../cards";

export interface CardProps {
  /** The card's text, or null for a face-down card. */
  card: string | null;
  label?: string;
  onClick?: () => void;
  selected?: boolean;
  disabled?: boolean;
  size?: "sm" | "md" | "lg";
  fourColour?: boolean;
  mark?: string;
  class?: string;
  testid?: string;
  animate?: boolean;
  /** A clickable card drawn without the ring of a card that may be played now. */
  quiet?: boolean;
}

export function Card(p: CardProps): JSX.Element {
  const c = p.card === null ? null : parseCard(p.card);
  const label = p.label ?? (p.card === null ? "face-down card" : cardName(p.card));
  let face: JSX.Element;
  let ink = "";
  if (c === null) {
    face = <span class="back" aria-hidden="true" />;
  } else if (c.kind === "standard") {
    ink = "ink-" + suitInk(c.suit, !!p.fourColour);
    const sym = SUIT_SYMBOL[c.suit];
    face = (
      <span class="face" aria-hidden="true">
        <span class="corner">
          {c.rank}
          <br />
          {sym}
        </span>
        <span class="pip">{sym}</span>
      </span>
    );
  } else if (c.kind === "joker") {
    ink = c.text === "RJ" ? "ink-red" : "ink-black";
    face = (
      <span class="face" aria-hidden="true">
        <span class="corner">J</span>
        <span class="pip joker">★</span>
        <span class="word">Joker</span>
      </span>
    );
  } else {
    const power = c.value === null;
    ink = power ? "ink-power" : c.value! <= 4 ? "ink-cat" : "ink-rat";
    face = (
      <span class="face" aria-hidden="true">
        {power ? (
          <span class="word power">{c.text === "DRAW2" ? "Draw 2" : c.text.toLowerCase()}</span>
        ) : (
          <>
            <span class="corner">{c.text}</span>
            <span class="pip num">{c.text}</span>
            <span class="word">{c.value! <= 4 ? "cat" : "rat"}</span>
          </>
        )}
      </span>
    );
  }
  const cls = [
    "card",
    p.size ?? "md",
    c === null ? "down" : "up",
    ink,
    p.selected ? "selected" : "",
    p.onClick && !p.disabled ? (p.quiet ? "live quiet" : "live") : "",
    p.animate === false ? "" : "anim",
    p.class ?? "",
  ]
    .filter(Boolean)
    .join(" ");
  const mark = p.mark ? (
    <span class="mark" aria-hidden="true">
      {p.mark}
    </span>
  ) : null;
  if (p.onClick) {
    return (
      <button
        type="button"
        class={cls}
        aria-pressed={p.selected === undefined ? undefined : p.selected}
        disabled={p.disabled}
        onClick={p.onClick}
        data-testid={p.testid}
        data-card={p.card ?? undefined}
      >
        {face}
        {mark}
        <span class="visually-hidden">{label}</span>
      </button>
    );
  }
  return (
    <span
      class={cls}
      role="img"
      aria-label={label}
      data-testid={p.testid}
      data-card={p.card ?? undefined}
    >
      {face}
      {mark}
    </span>
  );
}
