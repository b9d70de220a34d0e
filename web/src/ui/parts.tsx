import type { ComponentChildren, JSX } from "preact";
import type { Outcome as OutcomeT } from "../protocol";

export function ordinal(n: number): string {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

export function Outcome(p: {
  outcome: OutcomeT;
  names: string[];
  me: number | null;
  children?: ComponentChildren;
}): JSX.Element {
  const o = p.outcome;
  const won = p.me !== null && o.winners.includes(p.me);
  const who = o.winners.map((w) => (w === p.me ? "you" : p.names[w])).join(" and ");
  const order = o.places.map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place);
  return (
    <section class="panel outcome" aria-labelledby="outcome-h" data-testid="outcome">
      <h2 id="outcome-h">{p.me === null ? `Game over: ${who} won` : won ? "You won!" : `Game over: ${who} won`}</h2>
      <p class="muted">
        {o.reason}
        {o.capped ? " (stopped by a safety cap)" : ""}
      </p>
      <table class="results">
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Player</th>
            <th scope="col">Points</th>
          </tr>
        </thead>
        <tbody>
          {order.map(({ place, seat }) => (
            <tr key={seat} class={seat === p.me ? "mine" : ""}>
              <td>{ordinal(place)}</td>
              <td>
                {p.names[seat]}
                {seat === p.me ? " (you)" : ""}
              </td>
              <td>{Math.round((o.points[seat] ?? 0) * 100) / 100}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.children}
    </section>
  );
}

/** A button for an action, with its key shown. */
export function ActButton(p: {
  label: string;
  keyHint?: string;
  onClick: () => void;
  primary?: boolean;
  testid?: string;
  disabled?: boolean;
}): JSX.Element {
  return (
    <button
      type="button"
      class={p.primary ? "primary" : ""}
      disabled={p.disabled}
      onClick={p.onClick}
      aria-keyshortcuts={p.keyHint}
      data-testid={p.testid}
    >
      {p.label}
      {p.keyHint ? <kbd aria-hidden="true">{p.keyHint}</kbd> : null}
    </button>
  );
}

const LEVELS = ["easy", "normal", "hard", "expert"];

/** A bot as players read it: "Easy bot" for a level; for a bot spec in lower case
 * ("heuristic:play_ms=3000") its kind ("Heuristic bot"), not its settings; a name of its own
 * otherwise ("Ratbot (bot)"), or just "Bot". */
export function botName(name: string | null | undefined): string {
  const text = (name ?? "").trim();
  const spec = /^([a-z][a-z0-9_-]*)(:.*)?$/.exec(text);
  if (spec) {
    const kind = spec[1].replace(/[_-]/g, " ");
    return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} bot`;
  }
  const level = text.toLowerCase();
  if (LEVELS.includes(level)) return `${level.charAt(0).toUpperCase()}${level.slice(1)} bot`;
  return text ? `${text} (bot)` : "Bot";
}

/** Names told apart: a name that several seats share gets each seat's number
 * ("Normal bot (seat 2)", "Normal bot (seat 3)"). */
export function distinct(names: readonly string[]): string[] {
  return names.map((n, i) => (names.filter((x) => x === n).length > 1 ? `${n} (seat ${i + 1})` : n));
}

/** Every seat of a live table as players read it: people by their names, bots by their level
 * or name ("Normal bot"), open seats as such; the seat's own name (from `fallback`) when the
 * server gives none. */
export function tableSeatNames(
  seats: readonly { kind: string; name: string | null }[],
  players: number,
  fallback: (i: number) => string,
): string[] {
  return distinct(
    Array.from({ length: players }, (_, i) => {
      const s = seats[i];
      if (!s) return fallback(i);
      if (s.kind === "person") return s.name ?? fallback(i);
      if (s.kind === "bot") return botName(s.name);
      return "Open seat";
    }),
  );
}

/** A sentence of the game with the seats' names ("Seat 2 plays 7♥." -> "Normal bot plays
 * 7♥."); a seat nobody has (an open one) keeps its number. */
export function seatWords(text: string, seats: readonly { kind: string }[], names: readonly string[]): string {
  return text.replace(/\bSeat (\d+)\b/g, (whole, n: string) => {
    const i = Number(n) - 1;
    return seats[i] && seats[i].kind !== "open" && names[i] ? names[i] : whole;
  });
}
