// Caged Rats: both cages (each rat with its captures), the capture on offer and the bid, your
// hand (cage two rats, offer, bid, top face up or throw face down), feeding, and the scores.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardName, cardShort, sortCards } from "../../cards";
import { actionsFor, cageable, cageFor, phasePrompt, playable } from "../../games/caged";
import type { Obj } from "../../protocol";
import { Card } from "../Card";
import { typing, useKeys } from "../context";
import type { GameProps } from "../games";
import { flyAway } from "../motion";
import { ActButton } from "../parts";

export function CagedRatsTable(p: GameProps): JSX.Element {
  const view: Obj = p.state.observation ?? p.state.view ?? {};
  const me: number | null = p.state.seat;
  const legal = p.live && !p.pending ? p.state.legal : [];
  const [chosen, setChosen] = useState<string[]>([]);
  const hand: string[] = sortCards(view.hand ?? []);
  const caging = legal.some((a) => a.startsWith("cage "));
  const cageOk = cageable(legal);
  const single = playable(legal);
  const feeds = legal.filter((a) => a.startsWith("feed "));

  useEffect(() => setChosen([]), [p.state.seq]);

  // A capture fed to a rat flies to it (the card as it was last drawn on offer).
  const lastSeq = useRef(p.state.seq);
  useLayoutEffect(() => {
    const forward = p.state.seq > lastSeq.current;
    lastSeq.current = p.state.seq;
    if (!forward) return;
    for (const e of p.state.events.map((x) => x.event)) {
      if (e.kind === "feed" && typeof e.card === "string")
        flyAway([e.card], `[data-testid="cage-${e.seat}"] .rat:nth-child(${e.rat})`);
    }
  }, [p.state.seq]);

  const click = (c: string) => {
    if (caging) setChosen(chosen.includes(c) ? chosen.filter((x) => x !== c) : [...chosen, c].slice(-2));
    else setChosen(chosen[0] === c ? [] : [c]);
  };
  const act = (a: string) => {
    setChosen([]);
    p.act(a);
  };
  const cage = cageFor(legal, chosen);
  const forCard = chosen.length === 1 && !caging ? actionsFor(legal, chosen[0]) : [];

  useKeys((ev: KeyboardEvent) => {
    if (typing(ev)) return;
    const key = ev.key.toLowerCase();
    if (key === "escape") setChosen([]);
    else if (key === "1" || key === "2") {
      const a = `feed ${key}`;
      if (legal.includes(a)) {
        ev.preventDefault();
        act(a);
      }
    } else if (key === "c" && cage) {
      ev.preventDefault();
      act(cage);
    } else if ((key === "u" || key === "o" || key === "b") && forCard.length) {
      const a = forCard.find((f) => !f.action.startsWith("throw"));
      if (a) {
        ev.preventDefault();
        act(a.action);
      }
    } else if (key === "d" && forCard.length) {
      const a = forCard.find((f) => f.action.startsWith("throw"));
      if (a) {
        ev.preventDefault();
        act(a.action);
      }
    }
  }, p.live);

  const colour = (s: number) => ["Red", "Black"][s];
  const seatLine = (s: number) => `${colour(s)}: ${p.names[s]}${s === me ? " (you)" : ""}`;
  const cageView = (s: number) => (
    <div class={"cage" + ((view.to_act ?? []).includes(s) ? " turn" : "")} data-testid={`cage-${s}`}>
      <p class="who">
        <strong>{seatLine(s)}</strong>{" "}
        <span class="muted">
          hand {view.hand_sizes?.[s]} · stock {view.stock_sizes?.[s]} · this deal {view.deal_points?.[s]} pts
        </span>
        {(view.to_act ?? []).includes(s) && <span class="badge">to act</span>}
      </p>
      <div class="rats-row">
        {(view.cages?.[s] ?? []).length === 0 && <span class="muted">no rats caged yet</span>}
        {(view.cages?.[s] ?? []).map((r: Obj, i: number) => (
          <div class={"rat " + r.state} key={i}>
            <Card card={r.rat} size="md" fourColour={p.fourColour} label={`${colour(s)}'s rat ${i + 1}: ${cardName(r.rat)}, ${r.captures} of ${r.needs} captures, ${r.state}`} />
            <span class="meter" aria-hidden="true">
              <span style={{ width: `${Math.min(100, (100 * r.captures) / Math.max(1, r.needs))}%` }} />
            </span>
            <span class="small">
              rat {i + 1}: {r.captures}/{r.needs} {r.state}
            </span>
          </div>
        ))}
      </div>
    </div>
  );

  const other = me === null ? 0 : 1 - me;
  const mine = me === null ? 1 : me;
  return (
    <div class="caged">
      <p class="status" data-testid="status">
        {view.single_deal ? "Single deal" : `Score Red ${view.scores?.[0]} · Black ${view.scores?.[1]} (rubber to ${view.target})`}
        {" · "}deal {view.deal} · lead {view.lead}/{view.leads_per_deal}
        {view.match ? ` · rubbers Red ${view.rubbers_won?.[0]}, Black ${view.rubbers_won?.[1]}` : ""}
      </p>
      {cageView(other)}
      <div class="offer-zone" data-testid="offer">
        <div class="pile">
          {view.offer ? (
            <Card key={`o-${view.offer}`} card={view.offer} fourColour={p.fourColour} label={`Capture on offer: ${cardName(view.offer)}`} from={view.offer_from_stock ? undefined : `cage-${view.leader}`} />
          ) : (
            <span class="card md empty" role="img" aria-label="No capture on offer" />
          )}
          <span class="count">capture{view.offer_from_stock ? " (from the stock)" : ""}</span>
        </div>
        <div class="pile">
          {view.bid ? (
            <Card key={`b-${view.bid}`} card={view.bid} fourColour={p.fourColour} label={`Bid: ${cardName(view.bid)}`} from={`cage-${view.leader}`} />
          ) : (
            <span class="card md empty" role="img" aria-label="No bid yet" />
          )}
          <span class="count">bid{view.bid && view.leader !== null && view.leader !== undefined ? ` by ${colour(view.leader)}` : ""}</span>
        </div>
      </div>
      {cageView(mine)}
      {me !== null && (
        <section class="hand-box" aria-labelledby="hand-h">
          <h2 id="hand-h">Your hand ({colour(me)})</h2>
          <div class="hand" role="group" aria-label="Your hand">
            {hand.map((c) => {
              const live = caging ? cageOk.has(c) : single.has(c);
              return (
                <Card
                  key={c}
                  card={c}
                  fourColour={p.fourColour}
                  selected={chosen.includes(c)}
                  onClick={live ? () => click(c) : undefined}
                  testid={`hand-${c}`}
                  animate={false}
                />
              );
            })}
          </div>
          <div class="actions" role="group" aria-label="Your moves">
            <p class="prompt" data-testid="prompt">
              {legal.length ? phasePrompt(view, legal) : view.phase === "over" ? "" : "Wait for your turn."}
            </p>
            {caging && <ActButton label={cage ? `Cage ${cage.slice(5)}` : "Cage two cards"} keyHint="C" onClick={() => cage && act(cage)} primary disabled={!cage} testid="act-cage" />}
            {forCard.map((f) => (
              <ActButton key={f.action} label={f.label} keyHint={f.action.startsWith("throw") ? "D" : "U"} onClick={() => act(f.action)} primary={!f.action.startsWith("throw")} testid={`act-${f.action.split(" ")[0]}`} />
            ))}
            {feeds.map((f) => {
              const n = Number(f.split(" ")[1]);
              const rat = view.cages?.[me]?.[n - 1];
              return <ActButton key={f} label={`Feed rat ${n}${rat ? ` (${rat.rat})` : ""}`} keyHint={String(n)} onClick={() => act(f)} primary testid={`act-feed-${n}`} />;
            })}
          </div>
          {(view.your_throws ?? []).length > 0 && <p class="muted">You threw face down: {(view.your_throws as string[]).map(cardShort).join(" ")}</p>}
        </section>
      )}
      {view.last_deal && (
        <section class="panel" aria-label="Last deal">
          <p>
            Last deal: Red {view.last_deal.points?.[0]}, Black {view.last_deal.points?.[1]}
          </p>
        </section>
      )}
    </div>
  );
}
