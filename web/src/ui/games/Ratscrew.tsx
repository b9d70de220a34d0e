// Egyptian Ratscrew: the pile (slap it with the space bar, a click or a tap), every stack,
// the challenge, the latency, and your slap shown at once with the server's verdict after.
// A press is aimed at the pile that was on the screen at least 100 ms before it (nobody reacts
// faster): one that comes just after somebody took or covered a slappable pile is too late, not
// a bad slap at the new pile, exactly as the server and the rules judge it.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  aimedPile,
  challengeText,
  MIN_REACTION_MS,
  noteShown,
  pressSlap,
  type Shown,
  type Slap,
  slapAction,
  slapVerdict,
} from "../../games/ratscrew";
import { withSuitSymbols } from "../../cards";
import type { Obj } from "../../protocol";
import { Card } from "../Card";
import { typing, useKeys } from "../context";
import type { GameProps } from "../games";
import { flyAway } from "../motion";
import { ActButton } from "../parts";

const SHOWN = 5;

export function RatscrewTable(p: GameProps): JSX.Element {
  const view: Obj = p.state.observation ?? p.state.view ?? {};
  const me: number | null = p.state.seat;
  const legal = p.live ? p.state.legal : [];
  const version: number = view.pile_version ?? 0;
  const pile: string[] = view.pile ?? [];
  const history = useRef<Shown[]>([]);
  const [, setTick] = useState(0);
  const [slap, setSlap] = useState<Slap | null>(null);

  // The moment each pile was drawn on screen (a slap sends its pile's as seen_at); drawn again
  // when a press can no longer be aimed at the pile before (an empty pile stops taking them).
  useLayoutEffect(() => {
    history.current = noteShown(history.current, version, performance.now(), pile.length);
    const timer = setTimeout(() => setTick((n) => n + 1), MIN_REACTION_MS + 5);
    return () => clearTimeout(timer);
  }, [version]);

  // The server's verdict on your slap: an event about it, or a refusal of its id.
  useEffect(() => {
    if (!slap || slap.status !== "sent" || me === null) return;
    const verdict = slapVerdict(p.state.events, me);
    if (verdict) setSlap({ ...slap, ...verdict });
  }, [p.state.seq]);
  useEffect(() => {
    if (slap && slap.status === "sent" && p.refusal && p.refusal.ref === slap.id)
      setSlap({ ...slap, status: "refused", text: p.refusal.message });
  }, [p.refusal?.n]);

  const doSlap = () => {
    const offered = slapAction(legal);
    if (!offered || me === null) return;
    const now = performance.now();
    const press = pressSlap(history.current, now, offered, view.last_slap ?? -1);
    if ("held" in press) {
      setSlap({ id: null, version, at: now, status: "held", text: press.held });
      return;
    }
    const id = p.act(press.action, { pressed_at: now, seen_at: press.seenAt });
    setSlap({ id, version: press.version, at: now, status: "sent", text: "You slap!" });
  };
  const play = () => legal.includes("play") && p.act("play");
  const collect = () => legal.includes("collect") && p.act("collect");

  useKeys((ev: KeyboardEvent) => {
    if (typing(ev) || ev.repeat) return;
    const key = ev.key.toLowerCase();
    if (key === " " || key === "spacebar" || key === "s") {
      ev.preventDefault();
      doSlap();
    } else if (key === "enter" || key === "p") {
      if (legal.includes("play")) {
        ev.preventDefault();
        play();
      }
    } else if (key === "c") {
      ev.preventDefault();
      collect();
    }
  }, p.live);

  const shown = pile.slice(-SHOWN);
  // A card played comes from its player's stack; a pile collected flies to the collector's.
  const happened: Obj[] = p.state.events.map((e) => e.event);
  const playedBy = [...happened].reverse().find((e) => e.kind === "play")?.seat;
  const shownBefore = useRef<{ seq: number; cards: string[] }>({ seq: p.state.seq, cards: [] });
  useLayoutEffect(() => {
    const before = shownBefore.current;
    shownBefore.current = { seq: p.state.seq, cards: shown };
    if (p.state.seq <= before.seq) return;
    const taken = happened.find((e) => e.kind === "collect" || e.kind === "slap");
    if (taken && typeof taken.seat === "number" && !shown.length)
      flyAway(before.cards, `[data-testid="stack-${taken.seat}"]`);
  }, [p.state.seq]);
  // Drawn as slappable only with cards on it (an empty pile can only cost a card); a press
  // still counts just after the pile changed, aimed at the pile before.
  const offered = slapAction(legal) !== null;
  const aimed = offered ? aimedPile(history.current, performance.now()) : null;
  const canSlap = offered && (pile.length > 0 || (aimed !== null && aimed.cards > 0));
  const live = offered && pile.length > 0;
  const challenge = withSuitSymbols(challengeText(view, p.names));
  const stacks: Obj[] = view.stacks ?? [];
  const burned = (view.burned ?? []).length;
  // A late arrival (a newcomer's seat) waits with no cards until a valid slap brings it in.
  const waiting = me !== null && stacks[me]?.status === "waiting" && !view.result;
  const holders = stacks.filter((st) => st.size > 0).length;

  return (
    <div class="ratscrew">
      <p class="status" data-testid="status">
        {view.result
          ? "Game over"
          : view.phase === "play" && view.turn !== null
            ? view.turn === me
              ? "Your turn to play a card"
              : `${p.names[view.turn]} plays next`
            : challenge}
        {" · "}
        <span data-testid="latency">latency {p.rtt === null ? "..." : `${Math.round(p.rtt)} ms`}</span>
      </p>
      <ul class="stacks">
        {stacks.map((st, s) => (
          <li
            key={s}
            class={
              (view.turn === s && view.phase === "play" ? "turn " : "") +
              (st.status !== "in" ? "out" : "")
            }
            data-testid={`stack-${s}`}
          >
            <Card card={null} size="sm" label={`${p.names[s]}'s stack`} animate={false} />
            <span>
              <strong>{p.names[s]}</strong>
              {s === me ? " (you)" : ""}
              <br />
              {st.size} card{st.size === 1 ? "" : "s"}
              {st.status === "waiting" ? " · waiting to slap in" : st.status !== "in" ? ` · ${st.status}` : ""}
              {view.turn === s && view.phase === "play" ? " · to play" : ""}
              {view.collector === s && view.phase !== "play" ? " · won the pile" : ""}
            </span>
          </li>
        ))}
      </ul>
      <div class="slap-zone">
        <button
          type="button"
          class={"pile-button" + (live ? " live" : "") + (slap?.status === "sent" ? " slapped" : "")}
          aria-label={`The pile: ${pile.length} card${pile.length === 1 ? "" : "s"}${shown.length ? `, top card ${shown[shown.length - 1]}` : ""}${live ? ". Slap it (space bar)" : ""}`}
          aria-keyshortcuts="Space"
          data-testid="pile"
          data-version={version}
          disabled={!canSlap}
          onPointerDown={(e) => {
            if (canSlap) {
              e.preventDefault();
              doSlap();
            }
          }}
          onClick={(e) => {
            if ((e as MouseEvent).detail === 0) doSlap();
          }}
        >
          <span class="fan" aria-hidden="true">
            {shown.length === 0 && <span class="card md empty" />}
            {shown.map((c, i) => (
              <Card
                key={`${pile.length - shown.length + i}-${c}`}
                card={c}
                size="lg"
                fourColour={p.fourColour}
                class={i === shown.length - 1 ? "top" : ""}
                from={playedBy !== undefined ? `stack-${playedBy}` : undefined}
              />
            ))}
          </span>
          {slap?.status === "sent" && slap.version === version && (
            <span class="hand" aria-hidden="true">
              ✋
            </span>
          )}
        </button>
        <p class="muted">
          {pile.length} card{pile.length === 1 ? "" : "s"} in the pile
          {pile.length > SHOWN ? ` (top ${SHOWN} shown)` : ""}
          {burned ? ` · ${burned} burned under it` : ""}
        </p>
      </div>
      {challenge && <p class="challenge" data-testid="challenge">{challenge}</p>}
      {waiting && (
        <p class="panel slap-in" role="status" data-testid="slap-in">
          {holders >= 5
            ? "Five players hold cards: nobody comes in until one of them runs out. Watch until then."
            : "You have no cards yet: slap a pile that can be slapped to come in with it. A bad slap puts you out for good."}
        </p>
      )}
      {slap && (
        <p class={"slap-verdict " + slap.status} role="status" data-testid="slap-verdict">
          {slap.status === "sent"
            ? "You slap! Waiting for the verdict..."
            : slap.status === "refused"
              ? `Slap refused: ${slap.text}`
              : slap.text}
        </p>
      )}
      {me !== null && (
        <div class="actions" role="group" aria-label="Your moves">
          <ActButton label="Play a card" keyHint="Enter" onClick={play} primary testid="act-play" disabled={!legal.includes("play")} />
          {legal.includes("collect") && <ActButton label="Collect the pile" keyHint="C" onClick={collect} testid="act-collect" />}
          <ActButton label="Slap" keyHint="Space" onClick={doSlap} testid="act-slap" disabled={!canSlap} />
        </div>
      )}
    </div>
  );
}
