// Rats: your hand (choose cards, play them as a combination or discard them), the trick with
// the best play marked, hints of what beats it, everyone's hand and reserve sizes.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardsIn, cardShort, sortCards } from "../../cards";
import { discardable, hints, needed, nextDiscard, playsFor } from "../../games/rats";
import type { Obj } from "../../protocol";
import { Card } from "../Card";
import { typing, useKeys } from "../context";
import type { GameProps } from "../games";
import { flyAway } from "../motion";
import { ActButton } from "../parts";

const HINTS_SHOWN = 14;

export function RatsTable(p: GameProps): JSX.Element {
  const view: Obj = p.state.observation ?? p.state.view ?? {};
  const me: number | null = p.state.seat;
  const legal = p.live && !p.pending ? p.state.legal : [];
  const [chosen, setChosen] = useState<string[]>([]);
  const [hintAt, setHintAt] = useState(-1);
  const queue = useRef<string[]>([]);
  const hand: string[] = sortCards(view.hand ?? []);
  const trick: Obj | null = view.trick ?? null;
  const combination: string = trick ? String(trick.combination ?? trick.kind ?? "play") : "";
  const need = needed(view);
  const myTurn = me !== null && (view.to_act ?? []).includes(me);
  const beat = hints(legal);
  const plays = playsFor(legal, chosen);
  const discardStep = nextDiscard(legal, chosen);
  const discarding: string[] = trick?.discarding ?? [];
  const mayDiscard = discardStep !== null && (need === null || chosen.length === need - discarding.length);

  // A trick won flies to its winner's place (the cards as they were last drawn).
  const onTable: string[] = [
    ...((trick?.plays ?? []) as Obj[]).flatMap((pl) => pl.cards as string[]),
    ...discarding,
  ];
  const shownBefore = useRef<{ seq: number; cards: string[] }>({ seq: p.state.seq, cards: onTable });
  useLayoutEffect(() => {
    const before = shownBefore.current;
    shownBefore.current = { seq: p.state.seq, cards: onTable };
    if (p.state.seq <= before.seq) return;
    const events = p.state.events.map((e) => e.event);
    const won = events.find((e) => e.kind === "trick");
    if (!won) return;
    // The play that ended the trick was never drawn on it: its cards fly from where they were
    // (a hand) with the rest.
    const closing = events.filter((e) => e.kind === "play").flatMap((e) => (e.cards ?? []) as string[]);
    const gone = [...before.cards, ...closing].filter((c, i, all) => !onTable.includes(c) && all.indexOf(c) === i);
    flyAway(gone, `[data-testid="seat-${won.winner}"]`);
  }, [p.state.seq]);

  // Keep the choice to cards still in the hand.
  useEffect(() => {
    setChosen((c) => c.filter((x) => hand.includes(x)));
    setHintAt(-1);
  }, [hand.join(" ")]);

  // A discard goes on one card at a time: send the next step when it is allowed.
  useEffect(() => {
    if (!queue.current.length || !p.live || p.pending) return;
    const step = `discard ${queue.current[0]}`;
    if (legal.includes(step)) {
      queue.current = queue.current.slice(1);
      p.act(step);
    } else if (myTurn) {
      queue.current = [];
    }
  }, [p.state.seq, p.pending]);

  const toggle = (c: string) => {
    setHintAt(-1);
    setChosen(chosen.includes(c) ? chosen.filter((x) => x !== c) : [...chosen, c]);
  };
  const play = (a?: string) => {
    const action = a ?? plays[0];
    if (!action) return;
    setChosen([]);
    p.act(action);
  };
  const discard = () => {
    if (!mayDiscard || discardStep === null) return;
    queue.current = sortCards(chosen).slice(1);
    setChosen([]);
    p.act(discardStep);
  };
  const nextHint = () => {
    if (!beat.length) return;
    const i = (hintAt + 1) % beat.length;
    setHintAt(i);
    setChosen(cardsIn(beat[i]));
  };

  useKeys((ev: KeyboardEvent) => {
    if (typing(ev)) return;
    const key = ev.key.toLowerCase();
    if (key === "p" || (key === "enter" && plays.length && !(ev.target as HTMLElement)?.closest?.("button"))) {
      ev.preventDefault();
      play();
    } else if (key === "x") {
      ev.preventDefault();
      discard();
    } else if (key === "h") {
      ev.preventDefault();
      nextHint();
    } else if (key === "escape") {
      setChosen([]);
      setHintAt(-1);
    }
  }, p.live);

  const players: number = view.players ?? 0;
  const lastTrick: Obj | null = (view.round_tricks ?? []).slice(-1)[0] ?? null;
  const mayDiscardNow = discardable(legal);

  let promptText = "";
  if (myTurn && legal.length) {
    if (discarding.length) promptText = `Finish your discard: choose ${need! - discarding.length} more card(s) (X).`;
    else if (!trick) promptText = "Your lead: choose a single card, a pair or set of one rank, or a run of three or more of one suit, then play it (P).";
    else if (beat.length)
      promptText = `Beat the ${combination} with a higher one (P), or discard ${need} card${need === 1 ? "" : "s"} (X). Hints: H.`;
    else promptText = `Nothing in your hand beats it: choose ${need} card${need === 1 ? "" : "s"} to discard (X).`;
  }

  return (
    <div class="rats">
      <p class="status" data-testid="status">
        Round {view.round} · hands of {view.hand_size} · trick {view.trick_number}
        {view.over ? " · game over" : myTurn ? " · your turn" : (view.to_act ?? []).length ? ` · ${p.names[view.to_act[0]]} to play` : ""}
      </p>
      <ul class="seats-row">
        {Array.from({ length: players }, (_, s) => (
          <li key={s} class={(view.to_act ?? []).includes(s) ? "turn" : ""} data-testid={`seat-${s}`}>
            <strong>{p.names[s]}</strong>
            {s === me ? " (you)" : ""}
            <br />
            {view.out?.[s] ? (
              <span class="muted">out (round {view.out_round?.[s]})</span>
            ) : (
              <span>
                hand {view.hand_sizes?.[s]} · reserve {view.reserve_sizes?.[s]}
              </span>
            )}
          </li>
        ))}
      </ul>
      {view.stock ? <p class="muted">Stock: {view.stock} card{view.stock === 1 ? "" : "s"}, to the winner of this round's last trick.</p> : null}
      <section class="trick" aria-label="The trick" data-testid="trick">
        {!trick ? (
          <p>{view.over ? "" : `${p.names[view.leader]}${view.leader === me ? " (you)" : ""} leads the next trick.`}</p>
        ) : (
          <>
            <p class="muted">
              {/^[aeiou]/.test(combination) ? "An" : "A"} {combination} led by {p.names[view.leader]}
              {trick.suit_led ? `, ${({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" } as Obj)[trick.suit_led]} led` : ""}
            </p>
            <ul class="plays">
              {(trick.plays as Obj[]).map((pl, i) => (
                <li key={`${i}-${pl.play}`} class={pl.seat === trick.best_seat && !pl.discard ? "best" : pl.discard ? "discard" : ""}>
                  <span class="who">
                    {p.names[pl.seat]}
                    {pl.seat === trick.best_seat && !pl.discard ? " · best" : pl.discard ? " · discard" : ""}
                  </span>
                  <span class="cards">
                    {(pl.cards as string[]).map((c) => (
                      <Card key={c} card={c} size="sm" fourColour={p.fourColour} from={`seat-${pl.seat}`} />
                    ))}
                  </span>
                </li>
              ))}
              {discarding.length > 0 && (
                <li class="discard">
                  <span class="who">discarding</span>
                  <span class="cards">
                    {discarding.map((c) => (
                      <Card key={c} card={c} size="sm" fourColour={p.fourColour} from={`seat-${view.to_act?.[0] ?? 0}`} />
                    ))}
                  </span>
                </li>
              )}
            </ul>
          </>
        )}
      </section>
      {lastTrick && (
        <details class="last-trick">
          <summary>
            Last trick: won by {p.names[lastTrick.winner]}
            {lastTrick.winner === me ? " (you)" : ""}
          </summary>
          <p>{(lastTrick.plays as Obj[]).map((pl) => `${p.names[pl.seat]}: ${(pl.cards as string[]).map(cardShort).join(" ")}${pl.discard ? " (discard)" : ""}`).join("; ")}</p>
        </details>
      )}
      {me !== null && (
        <section class="hand-box" aria-labelledby="hand-h">
          <h2 id="hand-h">
            Your hand <span class="muted">({hand.length} cards; reserve {(view.reserve_known ?? []).length + (view.reserve_unknown ?? 0)})</span>
          </h2>
          <div class="hand" role="group" aria-label="Your hand: choose cards">
            {hand.map((c) => (
              <Card
                key={c}
                card={c}
                size="md"
                fourColour={p.fourColour}
                selected={chosen.includes(c)}
                onClick={myTurn && legal.length ? () => toggle(c) : undefined}
                testid={`hand-${c}`}
                animate={false}
                quiet
              />
            ))}
          </div>
          <div class="actions" role="group" aria-label="Your moves">
            <p class="prompt" data-testid="prompt">
              {myTurn ? promptText : view.over ? "" : "Wait for your turn."}
            </p>
            {plays.length > 1 ? (
              plays.map((a) => <ActButton key={a} label={`Play ${a}`} onClick={() => play(a)} primary testid="act-play" />)
            ) : (
              <ActButton label="Play" keyHint="P" onClick={() => play()} primary testid="act-play" disabled={!plays.length} />
            )}
            <ActButton label={discarding.length ? "Go on discarding" : "Discard"} keyHint="X" onClick={discard} testid="act-discard" disabled={!mayDiscard} />
            <ActButton label="Clear" keyHint="Esc" onClick={() => setChosen([])} disabled={!chosen.length} />
          </div>
          {myTurn && beat.length > 0 && (
            <div class="hints" data-testid="hints">
              <span class="muted">{trick ? "These beat the trick:" : "You may lead:"}</span>{" "}
              {beat.slice(0, HINTS_SHOWN).map((h, i) => (
                <button type="button" class={"chip" + (i === hintAt ? " on" : "")} key={h} onClick={() => (setHintAt(i), setChosen(cardsIn(h)))}>
                  {cardsIn(h).map(cardShort).join(" ")}
                  {/ (set|run)$/.test(h) ? ` (${h.split(" ").pop()})` : ""}
                </button>
              ))}
              {beat.length > HINTS_SHOWN ? <span class="muted"> and {beat.length - HINTS_SHOWN} more</span> : null}
            </div>
          )}
          {myTurn && !beat.length && mayDiscardNow.length > 0 && !discarding.length && (
            <p class="muted hints">No play beats the trick.</p>
          )}
        </section>
      )}
    </div>
  );
}
