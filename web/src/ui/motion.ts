// Cards that move: a card shown somewhere new slides there from where it was (FLIP: drawn at
// its new place, moved back to the old one with a transform, then let go), and a card that
// leaves the table (a trick or a pile collected) flies to whoever took it as a short-lived
// copy.  Nothing moves when the person asked for reduced motion.
//
// Where a card was is known from the last time it was drawn: every card records its place in
// page coordinates under its own key (a standard card's text is unique in its deck) and under
// its test id (its place on the table: "held", "discard-pile", "slot-2-3").

export const MOVE_MS = 260;
const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
/** Further than this (page pixels) is no move but a new layout (a resize, a new page). */
const FAR = 2400;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Seen extends Box {
  el: Element;
  /** When the element left the page (performance.now()), if it has. */
  gone?: number;
}

/** A card that left the page longer ago than this is no origin of a card shown now (the same
 * card may come back much later, from somewhere else). */
const RECENT_MS = 1000;

const seen = new Map<string, Seen>();

export function reducedMotion(): boolean {
  return typeof window !== "undefined" && !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function pageBox(el: Element): Box {
  const r = el.getBoundingClientRect();
  return { x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height };
}

function byTestId(id: string): Element | null {
  return document.querySelector(`[data-testid="${CSS.escape(id)}"]`);
}

/** Where the card or place `key` is now (a live element) or was last drawn. */
function whereIs(key: string, self: Element): Box | null {
  const mark = seen.get(key);
  if (mark && mark.el !== self && !mark.el.isConnected && recentlyGone(mark)) return mark;
  const el = byTestId(key);
  if (el && el !== self) return pageBox(el);
  return null;
}

function recentlyGone(mark: Seen): boolean {
  return mark.gone !== undefined && performance.now() - mark.gone < RECENT_MS;
}

/** A card's element leaves the page: where it was stays an origin for a moment. */
export function left(el: Element, keys: readonly (string | null)[]): void {
  const now = performance.now();
  for (const key of keys) {
    const mark = key ? seen.get(key) : undefined;
    if (mark && mark.el === el) mark.gone = now;
  }
}

/** Slide `el` (just drawn at its new place) from `from`. */
function slide(el: HTMLElement, from: Box): void {
  const to = pageBox(el);
  const dx = from.x + from.w / 2 - (to.x + to.w / 2);
  const dy = from.y + from.h / 2 - (to.y + to.h / 2);
  if ((Math.abs(dx) < 3 && Math.abs(dy) < 3) || Math.abs(dx) > FAR || Math.abs(dy) > FAR) return;
  const scale = to.w > 0 && from.w > 0 ? from.w / to.w : 1;
  el.style.animation = "none";
  el.style.transition = "none";
  el.style.zIndex = "5";
  el.style.transform = `translate(${dx}px, ${dy}px) scale(${scale})`;
  el.getBoundingClientRect(); // the start is laid out before the transition begins
  el.style.transition = `transform ${MOVE_MS}ms ${EASE}`;
  el.style.transform = "";
  // The card's entrance animation stays off: put back, it would play again afterwards.
  const done = () => {
    el.style.transition = el.style.zIndex = "";
    el.removeEventListener("transitionend", done);
  };
  el.addEventListener("transitionend", done);
  window.setTimeout(done, MOVE_MS + 80);
}

/** After each drawing of a card: on its first, slide it from where its `key` was last seen
 * (another element, now gone) or else from the place `from` (a test id); then record where
 * it is under `key` and `place`. */
export function placed(el: HTMLElement, first: boolean, key: string | null, place: string | null, from: string | null): void {
  if (first && !reducedMotion()) {
    const origin = (key && whereIs(key, el)) || (from && whereIs(from, el)) || null;
    if (origin) slide(el, origin);
  }
  if (key || place) {
    const box = { ...pageBox(el), el };
    if (key) seen.set(key, box);
    if (place) seen.set(place, box);
  }
}

/** Copies of cards that have left the table fly from where they were last drawn (their keys)
 * to the element `to` (a CSS selector), shrinking and fading. */
export function flyAway(keys: readonly string[], to: string, delayStep = 30): void {
  if (reducedMotion() || !keys.length) return;
  const target = document.querySelector(to);
  if (!target) return;
  const end = pageBox(target);
  keys.forEach((key, i) => {
    const mark = seen.get(key);
    if (!mark || mark.el.isConnected || !recentlyGone(mark)) return;
    fly(mark.el, mark, end, i * delayStep, true, key);
  });
}

/** A copy of the card at test id `fromId` (a live element) flies to the element `to`. */
export function flyBetween(fromId: string, to: string): void {
  if (reducedMotion()) return;
  const a = byTestId(fromId);
  const b = document.querySelector(to);
  if (!a || !b) return;
  fly(a, pageBox(a), pageBox(b), 0, false);
}

function fly(el: Element, from: Box, to: Box, delay: number, fade = true, key?: string): void {
  const dx = to.x + to.w / 2 - (from.x + from.w / 2);
  const dy = to.y + to.h / 2 - (from.y + from.h / 2);
  if (Math.abs(dx) > FAR || Math.abs(dy) > FAR) return;
  const ghost = document.createElement("span");
  const kept = (el.getAttribute("class") ?? "").split(/\s+/).filter((c) => /^(card|sm|md|lg|up|down|ink-.+)$/.test(c));
  ghost.className = ["card", ...kept, "ghost"].join(" ");
  ghost.setAttribute("aria-hidden", "true");
  if (key) ghost.dataset.flying = key;
  const art = el.querySelector("svg.art");
  if (art) ghost.appendChild(art.cloneNode(true));
  Object.assign(ghost.style, {
    position: "absolute",
    left: `${from.x}px`,
    top: `${from.y}px`,
    width: `${from.w}px`,
    height: `${from.h}px`,
    margin: "0",
    zIndex: "40",
    pointerEvents: "none",
    animation: "none",
    transition: `transform ${MOVE_MS}ms ${EASE} ${delay}ms, opacity ${MOVE_MS}ms ease-in ${delay}ms`,
  });
  document.body.appendChild(ghost);
  ghost.getBoundingClientRect();
  ghost.style.transform = `translate(${dx}px, ${dy}px) scale(${fade ? 0.6 : 1})`;
  if (fade) ghost.style.opacity = "0.2";
  window.setTimeout(() => ghost.remove(), MOVE_MS + delay + 40);
}
