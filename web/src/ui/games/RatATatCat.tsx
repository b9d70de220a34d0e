// Rat-a-Tat Cat: every row of four cards (yours large), the draw and discard piles, the card
// in hand, the legal moves as buttons and keys, the round's reveal and the totals.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { KEYS, lookingAt, parseSwap, prompt, slotAction, SLOTS, swapAction, visibleCard } from "../../games/ratatatcat";
import type { Obj } from "../../protocol";
import { cardName } from "../../cards";
import { Card } from "../Card";
import { typing, useKeys } from "../context";
import type { GameProps } from "../games";
import { flyAway, flyBetween } from "../motion";
import { ActButton } from "../parts";

const LABEL: Record<string, string> = {
  draw: "Draw",
  take: "Take the discard",
  discard: "Discard",
  noswap: "No swap",
  knock: "Knock",
  end: "End turn",
};

export function RatATatCatTable(p: GameProps): JSX.Element {
  const obs: Obj = p.state.observation ?? p.state.view ?? {};
  const me: number | null = p.state.seat;
  const legal = p.live && !p.pending ? p.state.legal : [];
  const [mine, setMine] = useState<number | null>(null);
  const [seenRound, setSeenRound] = useState(0);
  const looking = lookingAt(obs.events ?? [], me, !!obs.options?.swap_look);
  const swaps = legal.map(parseSwap).filter((s) => s !== null);
  const results: Obj[] = obs.results ?? [];

  useEffect(() => {
    if (!swaps.length) setMine(null);
  }, [swaps.length]);

  // Cards moving: what this message's events did decides where new cards come from (the
  // drawn card from the draw pile or the discard pile, a discard from the hand or a slot) and
  // which cards fly (the held card into its slot, two slots swapping).
  const moved: Obj[] = p.state.events.map((e) => e.event);
  const took = moved.some((e) => e.kind === "take");
  const replaced = moved.find((e) => e.kind === "replace");
  const heldFrom = took ? "discard-pile" : "draw-pile";
  const discardFrom = replaced ? `slot-${replaced.seat}-${replaced.slot}` : moved.some((e) => e.kind === "discard") ? "held" : undefined;
  const lastSeq = useRef(p.state.seq);
  useLayoutEffect(() => {
    const forward = p.state.seq > lastSeq.current;
    lastSeq.current = p.state.seq;
    if (!forward) return;
    for (const e of moved) {
      if (e.kind === "replace") flyAway(["held"], `[data-testid="slot-${e.seat}-${e.slot}"]`);
      if (e.kind === "swap") {
        flyBetween(`slot-${e.seat}-${e.slot}`, `[data-testid="slot-${e.other}-${e.other_slot}"]`);
        flyBetween(`slot-${e.other}-${e.other_slot}`, `[data-testid="slot-${e.seat}-${e.slot}"]`);
      }
    }
  }, [p.state.seq]);

  const act = (a: string) => {
    setMine(null);
    if (results.length > seenRound) setSeenRound(results.length);
    p.act(a);
  };

  const clickMine = (slot: number) => {
    const a = slotAction(legal, slot);
    if (a) return act(a);
    if (swaps.some((s) => s.mine === slot)) setMine(mine === slot ? null : slot);
  };

  useKeys((ev: KeyboardEvent) => {
    if (typing(ev)) return;
    const key = ev.key.toLowerCase();
    if (key in KEYS && legal.includes(KEYS[key])) {
      ev.preventDefault();
      act(KEYS[key]);
    } else if (/^[1-4]$/.test(key)) {
      ev.preventDefault();
      clickMine(Number(key) - 1);
    } else if (key === "escape") {
      setMine(null);
    }
  }, p.live);

  const players: number = obs.players ?? 0;
  const order = me === null ? [...Array(players).keys()] : [...Array(players).keys()].filter((s) => s !== me);
  const turn: number | null = obs.turn ?? null;
  const heldText =
    obs.held === null || obs.held === undefined
      ? null
      : obs.held === "hidden"
        ? null
        : (obs.held as string);

  const row = (owner: number, big: boolean) => {
    const out = obs.out?.[owner] && !obs.in_round?.[owner];
    return (
      <div class={"ratrow" + (turn === owner ? " turn" : "") + (owner === me ? " mine" : "")} data-testid={`row-${owner}`}>
        <div class="who">
          <strong>{p.names[owner]}</strong>
          {owner === me ? " (you)" : ""} <span class="muted">total {obs.totals?.[owner] ?? 0}</span>
          {obs.knocker === owner && <span class="badge">knocked</span>}
          {turn === owner && <span class="badge">to play</span>}
        </div>
        {out ? (
          <p class="muted">out of the game</p>
        ) : (
          <div class="cards">
            {Array.from({ length: SLOTS }, (_, slot) => {
              const card = visibleCard(obs, owner, slot, looking);
              const name = owner === me ? `Your slot ${slot + 1}` : `${p.names[owner]}'s slot ${slot + 1}`;
              let onClick: (() => void) | undefined;
              let hint = "";
              if (owner === me) {
                const a = slotAction(legal, slot);
                if (a) {
                  onClick = () => act(a);
                  hint = a.startsWith("peek") ? ": peek" : `: put the ${heldText ?? "card"} here`;
                } else if (swaps.some((s) => s.mine === slot)) {
                  onClick = () => clickMine(slot);
                  hint = ": swap this card";
                }
              } else if (mine !== null) {
                const s = swaps.find((x) => x.mine === mine && x.seat === owner && x.slot === slot);
                if (s) {
                  onClick = () => act(swapAction(s));
                  hint = `: swap with your slot ${mine + 1}`;
                }
              }
              const label = `${name}: ${card === null ? "face down" : cardName(card)}${hint}`;
              return (
                <Card
                  key={`${owner}-${slot}-${card ?? "x"}`}
                  card={card}
                  label={label}
                  size={big ? "lg" : "sm"}
                  onClick={onClick}
                  selected={owner === me && mine === slot ? true : undefined}
                  mark={String(slot + 1)}
                  fourColour={p.fourColour}
                  testid={`slot-${owner}-${slot + 1}`}
                />
              );
            })}
          </div>
        )}
      </div>
    );
  };

  const simple = ["draw", "take", "discard", "noswap", "knock", "end"].filter((a) => legal.includes(a));
  const keyOf = (a: string) => Object.keys(KEYS).find((k) => KEYS[k] === a)?.toUpperCase();
  const last = results[results.length - 1];
  const showResults = last && (results.length > seenRound || obs.over);

  return (
    <div class="ratatat">
      <p class="status" data-testid="status">
        Round {obs.round}
        {" · "}
        {obs.over
          ? "game over"
          : turn === me
            ? "your turn"
            : turn !== null
              ? `${p.names[turn]} to play`
              : ""}
        {obs.knocker !== null && obs.knocker !== undefined && !obs.over ? ` · ${p.names[obs.knocker]} knocked: last turns` : ""}
        {obs.options?.memory_aid ? " · memory aid on" : ""}
      </p>
      <div class="others">{order.map((s) => row(s, false))}</div>
      <div class="centre">
        <div class="pile">
          <Card
            card={null}
            label={`Draw pile, ${obs.draw_pile} cards${legal.includes("draw") ? ": draw a card" : ""}`}
            onClick={legal.includes("draw") ? () => act("draw") : undefined}
            testid="draw-pile"
            fourColour={p.fourColour}
            animate={false}
          />
          <span class="count">{obs.draw_pile} cards</span>
        </div>
        <div class="pile">
          {obs.discard_top ? (
            <Card
              key={`d${(obs.discard ?? []).length}-${obs.discard_top}`}
              card={obs.discard_top}
              label={`Discard pile: ${cardName(obs.discard_top)}${legal.includes("take") ? ": take it" : ""}`}
              onClick={legal.includes("take") ? () => act("take") : undefined}
              testid="discard-pile"
              fourColour={p.fourColour}
              from={discardFrom}
            />
          ) : (
            <span class="card md empty" role="img" aria-label="Discard pile: empty" />
          )}
          <span class="count">discard</span>
        </div>
        {obs.held !== null && obs.held !== undefined && (
          <div class="pile held">
            <Card
              key={`held-${obs.held}`}
              card={heldText}
              label={heldText ? `Card in hand: ${heldText}` : "A drawn card, face down"}
              testid="held"
              fourColour={p.fourColour}
              from={heldFrom}
            />
            <span class="count">{turn === me ? "in your hand" : `${turn !== null ? p.names[turn] : ""} holds`}</span>
          </div>
        )}
        {obs.draws_left ? <p class="muted">Draw 2: {obs.draws_left} left</p> : null}
      </div>
      {me !== null && row(me, true)}
      {me !== null && (
        <div class="actions" aria-label="Your moves" role="group">
          <p class="prompt" data-testid="prompt">
            {turn === me ? prompt(obs, legal) : obs.over ? "" : "Wait for your turn."}
            {mine !== null ? ` Now choose another player's card to swap with your slot ${mine + 1} (Esc cancels).` : ""}
          </p>
          {simple.map((a) => (
            <ActButton key={a} label={LABEL[a]} keyHint={keyOf(a)} onClick={() => act(a)} primary={a === "knock"} testid={`act-${a}`} />
          ))}
        </div>
      )}
      {showResults && (
        <section class="panel reveal" aria-labelledby="reveal-h" data-testid="round-result">
          <h2 id="reveal-h">Round {last.round}: everyone's cards</h2>
          <table class="results">
            <tbody>
              {(last.hands as (string[] | null)[]).map((hand, s) =>
                hand === null ? null : (
                  <tr key={s} class={last.winners.includes(s) ? "winner" : ""}>
                    <th scope="row">
                      {p.names[s]}
                      {s === me ? " (you)" : ""}
                    </th>
                    <td class="cards">
                      {hand.map((c, i) => (
                        <Card key={i} card={c} size="sm" fourColour={p.fourColour} animate={false} />
                      ))}
                    </td>
                    <td>sum {last.sums[s]}</td>
                    <td>total {last.totals?.[s] ?? obs.totals?.[s]}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
          {!obs.over && (
            <button type="button" onClick={() => setSeenRound(results.length)}>
              Continue
            </button>
          )}
        </section>
      )}
    </div>
  );
}
