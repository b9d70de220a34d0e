// A playing card drawn with its rank and suit (SVG art, ./cardArt), or its back when face down.
// Clickable cards are buttons; every card has an accessible name ("queen of spades", "face-down
// card").  A button's name is hidden text inside it rather than an aria-label, since the drawn
// face is a picture, not the words of its name.  A card that shows up somewhere new moves
// there from where it was (./motion).
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { cardName, parseCard, suitInk } from "../cards";
import { CardBack, JokerFace, PowerFace, RatNumberFace, StandardFace } from "./cardArt";
import { left, placed } from "./motion";

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
  /** Where the card comes from when it first appears (a test id on the table: "draw-pile",
   * "stack-2"), unless the same card was just drawn elsewhere (then it moves from there). */
  from?: string;
}

export function Card(p: CardProps): JSX.Element {
  const c = p.card === null ? null : parseCard(p.card);
  const label = p.label ?? (p.card === null ? "face-down card" : cardName(p.card));
  // A standard card or a joker is one of a kind: where it was last drawn is where it moves
  // from when it shows up somewhere else.
  const key = c !== null && c.kind !== "rat" ? c.text : null;
  const ref = useRef<HTMLElement | null>(null);
  const first = useRef(true);
  // The element last drawn and its keys, for when the card leaves (a card that becomes
  // clickable is drawn anew, as a button).
  const last = useRef<{ el: HTMLElement | null; keys: (string | null)[] }>({ el: null, keys: [] });
  useLayoutEffect(() => {
    if (ref.current) placed(ref.current, first.current, key, p.testid ?? null, p.from ?? null);
    first.current = false;
    last.current = { el: ref.current ?? last.current.el, keys: [key, p.testid ?? null] };
  });
  useLayoutEffect(
    () => () => {
      if (last.current.el) left(last.current.el, last.current.keys);
    },
    [],
  );
  let face: JSX.Element;
  let ink = "";
  if (c === null) {
    face = <CardBack />;
  } else if (c.kind === "standard") {
    ink = "ink-" + suitInk(c.suit, !!p.fourColour);
    face = <StandardFace rank={c.rank} suit={c.suit} />;
  } else if (c.kind === "joker") {
    ink = c.text === "RJ" ? "ink-red" : "ink-black";
    face = <JokerFace />;
  } else if (c.value === null) {
    ink = "ink-power";
    face = <PowerFace power={c.text as "PEEK" | "SWAP" | "DRAW2"} />;
  } else {
    ink = c.value <= 4 ? "ink-cat" : "ink-rat";
    face = <RatNumberFace value={c.value} />;
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
        ref={(e) => void (ref.current = e)}
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
      ref={(e) => void (ref.current = e)}
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
