// Stored games: a list, and a viewer stepping through one game from a seat's view or the
// spectator's, drawn with the same table as live play.
import type { JSX } from "preact";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, type ListedReplay } from "../api";
import { withSuitSymbols } from "../cards";
import type { Replay, StateMsg } from "../protocol";
import { Ctx, typing } from "./context";
import { GameView } from "./games";
import { botName, distinct, Outcome, seatWords, tableSeatNames } from "./parts";
import { fallbackName } from "./TablePage";

const TITLES: Record<string, string> = {
  "rat-a-tat-cat": "Rat-a-Tat Cat",
  "egyptian-ratscrew": "Egyptian Ratscrew",
  rats: "Rats",
  "caged-rats": "Caged Rats",
};
/** A seat of a stored game as players read it: a person's name, "Expert bot" for a bot. */
export function replaySeatName(seat: { name: string; player: string }, game: string, i: number): string {
  const name = seat.name || fallbackName(game, i);
  if (!seat.player || seat.player === "human") return name;
  return botName(name);
}

/** Who won a listed game, by name ("won by Ann", "won by Ann and Normal bot"). */
export function wonBy(r: ListedReplay): string {
  const seats = (r.seats ?? []).map((s) => (s.kind === "open" ? { kind: "person", name: null } : s));
  const names = tableSeatNames(seats, r.players, (i) => fallbackName(r.game, i));
  const winners = (r.outcome?.winners ?? []).map((w) => names[w] ?? fallbackName(r.game, w));
  return winners.length ? `won by ${winners.join(" and ")}` : "nobody won";
}

export function ReplayList(): JSX.Element {
  const { navigate } = useContext(Ctx);
  const [records, setRecords] = useState<ListedReplay[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    api.records().then(setRecords, (e: ApiError) => setError(e.message));
  }, []);
  return (
    <main class="page">
      <h1>Replays</h1>
      {error && <p class="error">{error}</p>}
      {records === null ? (
        <p>Loading...</p>
      ) : records.length === 0 ? (
        <p class="muted">No game has been finished on this server yet.</p>
      ) : (
        <ul class="tables" data-testid="records">
          {records.map((r) => (
            <li key={r.id}>
              <a href={`/replays/${r.id}`} onClick={(e) => (e.preventDefault(), navigate(`/replays/${r.id}`))}>
                {TITLES[r.game] ?? r.game}, {r.created.replace("T", " ").slice(0, 16)}
              </a>{" "}
              <span class="muted">
                {r.players} players · table {r.table}
                {r.outcome ? ` · ${wonBy(r)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ReplayView(p: { id: number; seat: number | null }): JSX.Element {
  const { navigate, fourColour } = useContext(Ctx);
  const [replay, setReplay] = useState<Replay | null>(null);
  const [error, setError] = useState("");
  const [step, setStep] = useState(0);
  const [seat, setSeat] = useState<number | null>(p.seat);

  useEffect(() => {
    setReplay(null);
    api.replay(p.id, seat).then(
      (r) => {
        setReplay(r);
        setStep((s) => Math.min(s, r.steps.length - 1));
      },
      (e: ApiError) => setError(e.message),
    );
  }, [p.id, seat]);

  const last = replay ? replay.steps.length - 1 : 0;
  // Read at the key press, not when the listener was made: a key pressed just after the
  // replay appears (before effects run) still sees how many moves there are.
  const lastRef = useRef(last);
  lastRef.current = last;
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (typing(ev)) return;
      const end = lastRef.current;
      if (ev.key === "ArrowRight") setStep((s) => Math.min(end, s + 1));
      else if (ev.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
      else if (ev.key === "Home") setStep(0);
      else if (ev.key === "End") setStep(end);
      else return;
      ev.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (error) return <main class="page"><h1>Replay #{p.id}</h1><p class="error" role="alert">{error}</p></main>;
  if (!replay) return <main class="page"><h1>Replay #{p.id}</h1><p>Loading...</p></main>;
  const s = replay.steps[Math.min(step, last)];
  const names = distinct(replay.seats.map((x, i) => replaySeatName(x, replay.game, i)));
  const kinds = replay.seats.map((x) => ({ kind: x.player && x.player !== "human" ? "bot" : "person" }));
  const state: StateMsg = {
    type: "state",
    v: 1,
    seq: s.seq,
    seat: replay.viewer,
    observation: replay.viewer === null ? null : s.view,
    view: replay.viewer === null ? s.view : null,
    legal: [],
    to_act: s.to_act,
    events: s.events,
    time: 0,
    outcome: step === last ? replay.outcome : null,
    record_id: replay.id,
    race_version: null,
  };
  const changeSeat = (v: string) => {
    const n = v === "" ? null : Number(v);
    setSeat(n);
    history.replaceState(null, "", `/replays/${p.id}${n === null ? "" : `?seat=${n}`}`);
  };
  return (
    <main class={"page table-page game-" + replay.game}>
      <div class="table-head">
        <h1>
          {replay.title} <span class="muted">· replay</span>
        </h1>
        <p>
          <a href="/replays" onClick={(e) => (e.preventDefault(), navigate("/replays"))}>
            All replays
          </a>
        </p>
      </div>
      <div class="replay-bar row" role="group" aria-label="Replay controls">
        <label>
          View as{" "}
          <select value={seat === null ? "" : String(seat)} onChange={(e) => changeSeat((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">spectator</option>
            {names.map((n, i) => (
              <option value={i} key={i}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setStep(0)} aria-label="First move" aria-keyshortcuts="Home">|◀</button>
        <button type="button" onClick={() => setStep(Math.max(0, step - 1))} aria-label="Previous move" aria-keyshortcuts="ArrowLeft">◀</button>
        <input
          type="range"
          min={0}
          max={last}
          value={step}
          aria-label="Move"
          onInput={(e) => setStep(Number((e.currentTarget as HTMLInputElement).value))}
        />
        <button type="button" onClick={() => setStep(Math.min(last, step + 1))} aria-label="Next move" aria-keyshortcuts="ArrowRight">▶</button>
        <button type="button" onClick={() => setStep(last)} aria-label="Last move" aria-keyshortcuts="End">▶|</button>
        <span data-testid="replay-step">
          move {step} of {last}
          {s.action ? ` · ${names[s.seat ?? 0]}: ${s.action}` : ""}
        </span>
      </div>
      <div class="play">
        <section class="board" aria-label="Game table">
          <GameView game={replay.game} state={state} names={names} act={() => null} fourColour={fourColour} rtt={null} refusal={null} pending={false} live={false} />
          {step === last && replay.outcome && <Outcome outcome={replay.outcome} names={names} me={replay.viewer} />}
        </section>
        <aside class="side">
          <section aria-labelledby="log-h" class="log-box">
            <h2 id="log-h">This move</h2>
            <ol class="log" aria-labelledby="log-h" tabIndex={0}>
              {s.events.map((e, i) => (
                <li key={i}>{withSuitSymbols(seatWords(e.text ?? String(e.event.kind ?? ""), kinds, names))}</li>
              ))}
            </ol>
          </section>
        </aside>
      </div>
    </main>
  );
}
