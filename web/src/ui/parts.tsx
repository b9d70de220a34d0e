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
