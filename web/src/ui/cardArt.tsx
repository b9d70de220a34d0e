// The faces and the back of the cards, drawn as SVG in a 100 x 140 box that fills the card, so
// they stay sharp at any size and pixel density.  Inks are `currentColor` (the card's colour
// class picks red, black or the four-colour deck's blue and green); nothing here has an id, so
// any number of cards can share a page.  Every drawing is aria-hidden: the card element
// carries the accessible name.
import type { JSX } from "preact";
import type { Suit } from "../cards";

const BOX = "0 0 100 140";

/** The suits' outlines in a 100 x 100 box. */
const SUIT_PATH: Record<Suit, string> = {
  H: "M50 92C31 76 4 57 4 31 4 15 16 4 30 4c9 0 16 5 20 13C54 9 61 4 70 4c14 0 26 11 26 27 0 26-27 45-46 61z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 3C61 21 94 37 94 61c0 13-10 22-22 22-9 0-15-4-19-10 1 11 5 19 13 25H34c8-6 12-14 13-25-4 6-10 10-19 10C16 83 6 74 6 61 6 37 39 21 50 3z",
  C: "M50 4a21 21 0 0 1 17 33 21 21 0 1 1-12 33c1 11 5 20 13 27H32c8-7 12-16 13-27a21 21 0 1 1-12-33A21 21 0 0 1 50 4z",
};

function Pip(p: { suit: Suit; x: number; y: number; size: number; flip?: boolean }): JSX.Element {
  const t = p.flip ? `rotate(180 ${p.x + p.size / 2} ${p.y + p.size / 2})` : undefined;
  return (
    <svg x={p.x} y={p.y} width={p.size} height={p.size} viewBox="0 0 100 100" overflow="visible">
      <path d={SUIT_PATH[p.suit]} fill="currentColor" transform={t} />
    </svg>
  );
}

/** A crown (king), a tiara (queen) or a feathered cap (jack), in gold with an ink outline. */
function Headwear(p: { rank: "J" | "Q" | "K" }): JSX.Element {
  const d =
    p.rank === "K"
      ? "M44 80 42 58 53 68 62 52 71 68 82 58 80 80z"
      : p.rank === "Q"
        ? "M45 80c-2-8-2-15 0-22 5 6 8 8 11 3 2-4 4-8 6-11 2 3 4 7 6 11 3 5 6 3 11-3 2 7 2 14 0 22z"
        : "M44 80c0-10 6-18 18-18s18 8 18 18zM66 62c4-8 11-12 18-11-5 3-9 8-12 13z";
  return (
    <g>
      <path d={d} fill="#e7b416" stroke="currentColor" stroke-width="2.2" stroke-linejoin="round" />
      {p.rank === "K" && <circle cx="62" cy="50" r="3.4" fill="currentColor" />}
      {p.rank === "Q" && <circle cx="62" cy="47" r="3" fill="currentColor" />}
    </g>
  );
}

/** A French-suited card: a large index (rank over suit) at the top left, the same turned at
 * the bottom right, and the suit large in the middle (a framed crowned figure for J, Q, K). */
export function StandardFace(p: { rank: string; suit: Suit }): JSX.Element {
  const ten = p.rank === "10";
  const court = p.rank === "J" || p.rank === "Q" || p.rank === "K";
  const index = (
    <>
      <text
        x="15"
        y="33"
        text-anchor="middle"
        font-size={ten ? 27 : 32}
        font-weight="800"
        letter-spacing={ten ? -2.5 : 0}
        fill="currentColor"
      >
        {p.rank}
      </text>
      <Pip suit={p.suit} x={5} y={39} size={20} />
    </>
  );
  return (
    <svg class="art" viewBox={BOX} aria-hidden="true" focusable="false">
      {index}
      <g transform="rotate(180 50 70)">{index}</g>
      {court ? (
        <>
          <rect x="30" y="34" width="40" height="72" rx="6" fill="#fff6dc" stroke="currentColor" stroke-width="2" />
          <g transform="translate(50 42) scale(0.7) translate(-62 -50)">
            <Headwear rank={p.rank as "J" | "Q" | "K"} />
          </g>
          <Pip suit={p.suit} x={36} y={72} size={28} />
        </>
      ) : (
        <Pip suit={p.suit} x={p.rank === "A" ? 26 : 28} y={p.rank === "A" ? 46 : 48} size={p.rank === "A" ? 48 : 44} />
      )}
    </svg>
  );
}

const STAR = "M50 6l12 30 32 2-25 20 9 31-28-18-28 18 9-31L6 38l32-2z";

export function JokerFace(): JSX.Element {
  return (
    <svg class="art" viewBox={BOX} aria-hidden="true" focusable="false">
      <svg x="8" y="8" width="22" height="22" viewBox="0 0 100 100">
        <path d={STAR} fill="currentColor" />
      </svg>
      <svg x="22" y="34" width="56" height="56" viewBox="0 0 100 100">
        <path d={STAR} fill="#e7b416" stroke="currentColor" stroke-width="5" stroke-linejoin="round" />
      </svg>
      <text x="50" y="116" text-anchor="middle" font-size="17" font-weight="800" letter-spacing="1" fill="currentColor">
        JOKER
      </text>
    </svg>
  );
}

/** A cat's head (centre cx, cy), drawn in the card's ink over a light fill. */
function CatHead(p: { cx: number; cy: number; fill: string }): JSX.Element {
  const { cx, cy } = p;
  return (
    <g stroke="currentColor" stroke-width="2.6" stroke-linejoin="round" stroke-linecap="round">
      <path
        d={`M${cx - 20} ${cy - 4}l-2-22 15 11h14l15-11-2 22c3 4 4 8 4 12 0 14-12 22-29 22s-29-8-29-22c0-4 1-8 4-12z`}
        fill={p.fill}
      />
      <ellipse cx={cx - 9} cy={cy + 2} rx="3" ry="4.4" fill="currentColor" stroke="none" />
      <ellipse cx={cx + 9} cy={cy + 2} rx="3" ry="4.4" fill="currentColor" stroke="none" />
      <path d={`M${cx - 3} ${cy + 10}h6l-3 3.5z`} fill="currentColor" />
      <path
        d={`M${cx - 8} ${cy + 12}l-16-2M${cx - 8} ${cy + 15}l-16 4M${cx + 8} ${cy + 12}l16-2M${cx + 8} ${cy + 15}l16 4`}
        fill="none"
        stroke-width="1.6"
      />
    </g>
  );
}

/** A rat's head seen from the front: round ears, a pointed snout, whiskers. */
function RatHead(p: { cx: number; cy: number; fill: string }): JSX.Element {
  const { cx, cy } = p;
  return (
    <g stroke="currentColor" stroke-width="2.6" stroke-linejoin="round" stroke-linecap="round">
      <circle cx={cx - 17} cy={cy - 12} r="11" fill={p.fill} />
      <circle cx={cx + 17} cy={cy - 12} r="11" fill={p.fill} />
      <path d={`M${cx - 19} ${cy - 4}c0-12 38-12 38 0 0 10-10 18-19 28-9-10-19-18-19-28z`} fill={p.fill} />
      <circle cx={cx - 7} cy={cy - 1} r="2.8" fill="currentColor" stroke="none" />
      <circle cx={cx + 7} cy={cy - 1} r="2.8" fill="currentColor" stroke="none" />
      <circle cx={cx} cy={cy + 21} r="3" fill="currentColor" />
      <path
        d={`M${cx - 4} ${cy + 17}l-17-3M${cx - 4} ${cy + 19}l-16 4M${cx + 4} ${cy + 17}l17-3M${cx + 4} ${cy + 19}l16 4`}
        fill="none"
        stroke-width="1.6"
      />
    </g>
  );
}

/** A Rat-a-Tat Cat number card: the number large, a cat (0-4) or a rat (5-9) under it. */
export function RatNumberFace(p: { value: number }): JSX.Element {
  const cat = p.value <= 4;
  return (
    <svg class="art" viewBox={BOX} aria-hidden="true" focusable="false">
      <text x="50" y="64" text-anchor="middle" font-size="58" font-weight="800" fill="currentColor">
        {p.value}
      </text>
      {cat ? <CatHead cx={50} cy={100} fill="#ffffff" /> : <RatHead cx={50} cy={98} fill="#ffffff" />}
    </svg>
  );
}

/** The power cards: an eye (Peek), two arrows crossing (Swap), two cards and +2 (Draw 2). */
export function PowerFace(p: { power: "PEEK" | "SWAP" | "DRAW2" }): JSX.Element {
  let icon: JSX.Element;
  if (p.power === "PEEK") {
    icon = (
      <g stroke="currentColor" stroke-width="3.5" stroke-linejoin="round">
        <path d="M12 60c20-28 56-28 76 0-20 28-56 28-76 0z" fill="#ffffff" />
        <circle cx="50" cy="60" r="13" fill="currentColor" />
        <circle cx="45" cy="55" r="3.5" fill="#ffffff" stroke="none" />
      </g>
    );
  } else if (p.power === "SWAP") {
    icon = (
      <g fill="none" stroke="currentColor" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">
        <path d="M18 46h58M64 34l13 12-13 12" />
        <path d="M82 76H24M36 64 23 76l13 12" />
      </g>
    );
  } else {
    icon = (
      <g stroke="currentColor" stroke-width="3" stroke-linejoin="round">
        <rect x="20" y="30" width="36" height="50" rx="5" fill="#ffffff" transform="rotate(-12 38 55)" />
        <rect x="42" y="36" width="36" height="50" rx="5" fill="#ffffff" transform="rotate(8 60 61)" />
        <text x="61" y="72" text-anchor="middle" font-size="24" font-weight="800" fill="currentColor" stroke="none">
          +2
        </text>
      </g>
    );
  }
  const word = p.power === "DRAW2" ? "DRAW 2" : p.power;
  return (
    <svg class="art" viewBox={BOX} aria-hidden="true" focusable="false">
      {icon}
      <text
        x="50"
        y="122"
        text-anchor="middle"
        font-size={p.power === "DRAW2" ? 19 : 22}
        font-weight="800"
        letter-spacing="0.5"
        fill="currentColor"
      >
        {word}
      </text>
    </svg>
  );
}

/** The back: a white frame and a medallion with a rat's head over the lattice (the lattice is
 * the card's CSS background, so that it stays fine-grained at every size). */
export function CardBack(): JSX.Element {
  return (
    <svg class="art" viewBox={BOX} aria-hidden="true" focusable="false">
      <rect x="7" y="7" width="86" height="126" rx="6" fill="none" stroke="#ffffffb0" stroke-width="3" />
      <ellipse cx="50" cy="70" rx="27" ry="31" fill="#1d3478" stroke="#ffffffd0" stroke-width="3" />
      <g style={{ color: "#ffffffe6" }}>
        <RatHead cx={50} cy={68} fill="#1d3478" />
      </g>
    </svg>
  );
}
