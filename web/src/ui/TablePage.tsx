// A table: the waiting room before the start (invite link, seats, host controls), the game
// while it is played, the result and the rematch after.  The page keeps one WebSocket open and
// gets it back by itself after a reload or a lost connection.
import type { JSX } from "preact";
import { useContext, useEffect, useReducer, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { withSuitSymbols } from "../cards";
import { initial, type Model, reduce, refusalText, sent } from "../model";
import { Connection, socketUrl, type Status } from "../net";
import type { ServerMsg, StateMsg, TableInfo } from "../protocol";
import { seatLink, seatLinkToken } from "../route";
import { Ctx, typing } from "./context";
import { GameView, type GameProps } from "./games";
import { NameField } from "./Lobby";
import { Outcome, seatWords, tableSeatNames } from "./parts";

type Action = { kind: "msg"; msg: ServerMsg } | { kind: "sent"; id: number; action: string };

function reducer(m: Model, a: Action): Model {
  return a.kind === "msg" ? reduce(m, a.msg) : sent(m, a.id, a.action);
}

const LEVELS = ["easy", "normal", "hard", "expert"];

/** A short soft tone (Web Audio; nothing if the browser has none or blocks it): a high one for
 * your turn, a low short thump for a slap that took the pile. */
function beep(frequency = 660, seconds = 0.35): void {
  try {
    const Audio = window.AudioContext;
    if (!Audio) return;
    const ctx = new Audio();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.12, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + seconds);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + seconds);
    osc.onended = () => void ctx.close();
  } catch {
    // no sound
  }
}

export function fallbackName(game: string, i: number): string {
  if (game === "caged-rats") return ["Red", "Black"][i] ?? `Seat ${i + 1}`;
  return `Seat ${i + 1}`;
}

export function TablePage(p: { code: string }): JSX.Element {
  const { memory, navigate, fourColour } = useContext(Ctx);
  const [model, dispatch] = useReducer(reducer, undefined, initial);
  const [status, setStatus] = useState<{ s: Status; detail?: string }>({ s: "connecting" });
  const [rtt, setRtt] = useState<number | null>(null);
  const [missing, setMissing] = useState("");
  const [notice, setNotice] = useState("");
  const [issued, setIssued] = useState<{ seat: number; link: string } | null>(null);
  const conn = useRef<Connection | null>(null);
  // The log keeps its newest lines in sight unless the reader scrolled up to read older ones.
  const logRef = useRef<HTMLOListElement | null>(null);
  const logHeight = useRef(0);
  const lastLog = model.log.length ? model.log[model.log.length - 1].n : -1;
  useEffect(() => {
    const el = logRef.current;
    if (!el) return;
    // At the end before these lines came (the height they had then): follow them.
    if (el.scrollTop + el.clientHeight >= logHeight.current - 8) el.scrollTop = el.scrollHeight;
    logHeight.current = el.scrollHeight;
  }, [lastLog]);
  // The tab's title says when the person's turn has come (seen from another tab), with a
  // short sound if they chose one.
  const [sound, setSound] = useState(() => memory.turnSound);
  const myTurn = !!model.state && !model.state.outcome && model.state.legal.length > 0 && model.seat !== null;
  useEffect(() => {
    document.title = myTurn ? "● Your turn — ratgames" : "ratgames";
    if (myTurn && sound) beep();
  }, [myTurn]);
  useEffect(() => {
    if (model.slaps && sound) beep(140, 0.12);
  }, [model.slaps]);
  useEffect(() => () => void (document.title = "ratgames"), []);
  // A key that does nothing says why (as the terminal client does).  The games' own key
  // handlers run first and mark a key they used (preventDefault).
  const [keyNote, setKeyNote] = useState("");
  const keyState = useRef({ myTurn, seat: model.seat, over: !!model.state?.outcome, playing: !!model.state });
  keyState.current = { myTurn, seat: model.seat, over: !!model.state?.outcome, playing: !!model.state };
  useEffect(() => {
    let clear = 0;
    // Looked at once every listener has had the key (the game's may be added after this one).
    const onKey = (ev: KeyboardEvent) => void window.setTimeout(() => explain(ev), 0);
    const explain = (ev: KeyboardEvent) => {
      const k = keyState.current;
      if (ev.defaultPrevented || typing(ev) || !k.playing || k.over) return;
      if (ev.key.length !== 1 || ev.key === " ") return;
      const shown = ev.key.toUpperCase();
      let why: string;
      if (k.seat === null) why = `${shown} does nothing: you are watching this table.`;
      else if (!k.myTurn) why = `${shown} does nothing now: it is not your turn.`;
      else {
        const keys = Array.from(document.querySelectorAll(".board [aria-keyshortcuts]:not([disabled])"))
          .map((e) => e.getAttribute("aria-keyshortcuts") ?? "")
          .filter((x, i, all) => x && all.indexOf(x) === i);
        why = keys.length
          ? `${shown} does nothing here. Keys now: ${keys.join(", ")}.`
          : `${shown} does nothing here: choose a card first.`;
      }
      setKeyNote(why);
      window.clearTimeout(clear);
      clear = window.setTimeout(() => setKeyNote(""), 4000);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.clearTimeout(clear);
    };
  }, []);
  // The result (with Rematch and the replay) is scrolled into view when the game ends.
  const over = !!model.state?.outcome;
  useEffect(() => {
    if (!over) return;
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    document
      .querySelector("[data-testid=outcome]")
      ?.scrollIntoView({ block: "nearest", behavior: reduced ? "auto" : "smooth" });
  }, [over]);

  useEffect(() => {
    const fromLink = seatLinkToken(location.hash);
    if (fromLink !== null) {
      // A seat link (from another device, or after clearing this browser's storage): its token
      // is this browser's seat from now on, and it leaves the address bar at once.
      const old = memory.seat(p.code);
      memory.setSeat(p.code, { token: fromLink, host_token: old?.host_token ?? null, seat: null });
      history.replaceState(history.state, "", location.pathname + location.search);
    }
    const keys = memory.seat(p.code);
    const c = new Connection({
      url: socketUrl(location),
      table: p.code,
      token: keys?.token ?? null,
      hostToken: keys?.host_token ?? null,
      onMessage: (msg) => {
        if (msg.type === "error" && msg.code === "no_such_table") {
          setMissing(msg.message);
          c.stop();
        }
        if (msg.type === "error" && msg.code === "bad_token" && /does not belong/.test(msg.message)) {
          // A stale token (the host gave out a new seat link, or the table was made again):
          // watch instead, and say so.
          memory.setSeat(p.code, null);
          c.setTokens(null, null);
          setNotice(
            "This browser's seat link no longer works (the host may have given out a new one), so you are watching. Ask the host for your new seat link.",
          );
        }
        if (msg.type === "error" && msg.code === "bad_token" && /re-issued/.test(msg.message)) {
          setNotice("The host gave out a new link to your seat: this browser no longer plays it.");
        }
        if (msg.type === "seat_link") setIssued({ seat: msg.seat, link: seatLink(location.origin, p.code, msg.token) });
        if (msg.type === "ping") setRtt(msg.rtt_ms);
        dispatch({ kind: "msg", msg });
      },
      onStatus: (s, detail) => setStatus({ s, detail }),
    });
    conn.current = c;
    return () => c.stop();
  }, [p.code]);

  useEffect(() => {
    if (model.rematch) {
      memory.carryOver(p.code, model.rematch);
      navigate(`/t/${model.rematch}`);
    }
  }, [model.rematch]);

  const send = (msg: Record<string, unknown>) => conn.current?.send({ v: 1, ...msg });
  const act: GameProps["act"] = (action, times) => {
    const id = conn.current?.act(action, times);
    if (id !== null && id !== undefined) dispatch({ kind: "sent", id, action });
    return id ?? null;
  };

  if (missing) {
    return (
      <main class="page">
        <h1>No such table</h1>
        <p class="error" role="alert">
          {missing}
        </p>
        <p>
          <a href="/" onClick={(e) => (e.preventDefault(), navigate("/"))}>
            Back to the lobby
          </a>
        </p>
      </main>
    );
  }

  const table = model.table;
  const state = model.state;
  const connection = (
    <p class={"conn " + status.s} data-testid="connection" role="status">
      {status.s === "open"
        ? `Connected${rtt !== null ? ` · latency ${Math.round(rtt)} ms` : ""}`
        : status.s === "stopped"
          ? status.detail || "Disconnected."
          : "Connecting to the server..."}
    </p>
  );

  if (!table) {
    return (
      <main class="page">
        <h1>Table {p.code}</h1>
        {connection}
      </main>
    );
  }

  const names = tableSeatNames(table.seats, table.players, (i) => fallbackName(table.game, i));
  const playing = state !== null && table.status !== "lobby";
  const links = (
    <SeatLinks
      table={table}
      model={model}
      names={names}
      token={memory.seat(p.code)?.token ?? null}
      issued={issued}
      send={send}
    />
  );

  return (
    <main class={"page table-page game-" + table.game}>
      <div class="table-head">
        <h1>
          {table.title} <span class="muted">· table {table.code}</span>
        </h1>
        {connection}
      </div>
      {notice && (
        <p class="error" role="alert" data-testid="notice">
          {notice}
        </p>
      )}
      {playing && !state!.outcome && (
        <LateSeat
          table={table}
          model={model}
          send={send}
          onJoined={(token) => {
            const host = memory.seat(p.code)?.host_token ?? null;
            conn.current?.setTokens(token, host);
          }}
        />
      )}
      {model.seat === null && (
        <p class="panel watching" role="status" data-testid="watching">
          You are watching this table as a spectator: you see no one's hand and cannot play.
          {" "}Lost your seat? Open your seat link, or ask the host for a new one.
        </p>
      )}
      {!playing ? (
        <WaitingRoom
          table={table}
          model={model}
          code={p.code}
          send={send}
          onJoined={(token) => {
            const host = memory.seat(p.code)?.host_token ?? null;
            conn.current?.setTokens(token, host);
          }}
          links={links}
        />
      ) : (
        <div class="play">
          <section
            class="board"
            aria-label="Game table"
            data-testid="board"
            data-seq={state!.seq}
            data-seat={model.seat ?? ""}
            data-legal={state!.legal.length}
            data-over={state!.outcome ? "1" : "0"}
          >
            {(() => {
              const props = {
                game: table.game,
                state: state!,
                names,
                act,
                fourColour,
                rtt,
                refusal: model.refusal,
                pending: Object.keys(model.pending).length > 0,
                live: true,
              };
              // A game without a table of its own in games.tsx is drawn as its JSON (a <pre>):
              // the generic table adds a button for each legal action, so any game plays here.
              const generic = GameView(props).type === "pre";
              return (
                <>
                  <GameView {...props} />
                  {generic && state!.legal.length > 0 && (
                    <div class="row" role="group" aria-label="Your moves" data-testid="moves">
                      {state!.legal.map((a) => (
                        <button key={a} disabled={props.pending} onClick={() => act(a)}>
                          {a}
                        </button>
                      ))}
                    </div>
                  )}
                </>
              );
            })()}
            {keyNote && (
              <p class="error refusal key-note" role="status" data-testid="key-note">
                {keyNote}
              </p>
            )}
            {model.refusal && (
              <p class="error refusal" role="alert" data-testid="refusal">
                {refusalText(model.refusal)}
              </p>
            )}
            {state!.outcome && (
              <Outcome outcome={state!.outcome} names={names} me={model.seat}>
                <div class="row">
                  {model.host && table.next_table === null && (
                    <button class="primary" onClick={() => send({ type: "rematch" })}>
                      Rematch
                    </button>
                  )}
                  {!model.host && table.next_table === null && (
                    <span class="muted">The host may offer a rematch.</span>
                  )}
                  {table.next_table && (
                    <a href={`/t/${table.next_table}`} onClick={(e) => (e.preventDefault(), navigate(`/t/${table.next_table}`))}>
                      Go to the rematch
                    </a>
                  )}
                  {state!.record_id !== null && (
                    <a
                      href={`/replays/${state!.record_id}${model.seat !== null ? `?seat=${model.seat}` : ""}`}
                      onClick={(e) => (
                        e.preventDefault(),
                        navigate(`/replays/${state!.record_id}${model.seat !== null ? `?seat=${model.seat}` : ""}`)
                      )}
                    >
                      Watch the replay
                    </a>
                  )}
                </div>
              </Outcome>
            )}
          </section>
          <aside class="side">
            <Players table={table} names={names} toAct={whoActs(table.game, state!)} me={model.seat} />
            {model.seat !== null && (
              <label class="check sound">
                <input
                  type="checkbox"
                  checked={sound}
                  data-testid="turn-sound"
                  onChange={(e) => {
                    const on = (e.currentTarget as HTMLInputElement).checked;
                    memory.turnSound = on;
                    setSound(on);
                  }}
                />
                Sounds: your turn, slaps
              </label>
            )}
            <section aria-labelledby="log-h" class="log-box">
              <h2 id="log-h">What happened</h2>
              <ol
                class="log"
                aria-live="polite"
                aria-labelledby="log-h"
                tabIndex={0}
                data-testid="log"
                ref={logRef}
              >
                {model.log.slice(-40).map((l) => (
                  <li key={l.n} class={l.seat !== null && l.seat === model.seat ? "mine" : ""}>
                    {withSuitSymbols(seatWords(l.text, table.seats, names))}
                  </li>
                ))}
              </ol>
            </section>
            <Chat model={model} send={send} />
            {links}
          </aside>
        </div>
      )}
    </main>
  );
}

/** The seats whose move it is (in Egyptian Ratscrew everyone may slap: the seat to play or
 * to collect). */
function whoActs(game: string, state: StateMsg): number[] {
  if (game !== "egyptian-ratscrew") return state.to_act;
  const v = state.observation ?? state.view ?? {};
  if (v.result) return [];
  const seat = v.phase === "play" ? v.turn : v.collector;
  return typeof seat === "number" ? [seat] : [];
}

function Players(p: { table: TableInfo; names: string[]; toAct: number[]; me: number | null }): JSX.Element {
  return (
    <section aria-labelledby="players-h">
      <h2 id="players-h">Players</h2>
      <ul class="players">
        {p.table.seats.map((s, i) => (
          <li key={i} class={p.toAct.includes(i) ? "to-act" : ""}>
            <span class={"dot " + (s.connected ? "on" : "off")} aria-hidden="true" />
            {p.names[i]}
            {i === p.me ? " (you)" : ""}
            <span class="visually-hidden">{s.connected ? ", connected" : ", disconnected"}</span>
            {s.away_bot ? <span class="muted"> · a bot plays for now</span> : null}
            {s.late ? (
              <span class="muted" data-testid={`late-${i}`}>
                {s.kind === "open" ? " · seat for a late arrival, open" : s.arrived !== null ? ` · came late (${lateWhen(s.arrived)})` : " · late seat"}
              </span>
            ) : null}
            {p.toAct.includes(i) ? <span class="badge">to play</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** When a late seat was taken, in minutes and seconds of play. */
function lateWhen(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `at ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The name a person joins a table under, and the join by it (the seat's token kept in this
 * browser's memory of the table); an error in words. */
function useJoin(code: string, onJoined: (token: string) => void) {
  const { memory } = useContext(Ctx);
  const [name, setName] = useState(memory.name);
  const [error, setError] = useState("");
  const join = async (ev: Event) => {
    ev.preventDefault();
    if (!name.trim()) {
      setError("Write your name first.");
      return;
    }
    memory.name = name;
    try {
      const joined = await api.join(code, name.trim());
      const old = memory.seat(code);
      memory.setSeat(code, { token: joined.token, host_token: old?.host_token ?? null, seat: joined.seat });
      onJoined(joined.token);
      setError("");
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return { name, setName, error, join };
}

/** A running table's open seats for late arrivals (the game names them; the host allowed them by
 * making the table so): a spectator takes one and watches from it until the rules let them in
 * (in Egyptian Ratscrew, a valid slap); the host may seat a bot there instead. */
function LateSeat(p: {
  table: TableInfo;
  model: Model;
  send: (m: Record<string, unknown>) => void;
  onJoined: (token: string) => void;
}): JSX.Element | null {
  const { name, setName, error, join } = useJoin(p.table.code, p.onJoined);
  const t = p.table;
  const open = t.seats.filter((s) => s.kind === "open" && s.late);
  if (open.length === 0) return null;
  const watching = p.model.seat === null;
  if (!watching && !p.model.host) return null;
  return (
    <section class="panel late-seat" aria-labelledby="late-h" data-testid="late-seat">
      <h2 id="late-h">
        {open.length === 1 ? "A seat for a late arrival is open" : `${open.length} seats for late arrivals are open`}
      </h2>
      {watching && (
        <>
          <p>
            The game has started, and this table lets late arrivals in. Take the seat: you watch from it with no
            cards, and your first valid slap brings you in with the pile. A bad slap before that puts you out for
            good, and nobody comes in while five players hold cards.
          </p>
          <form class="row" onSubmit={join} aria-label="Take the late seat">
            <NameField id="late-name" value={name} onInput={setName} />
            <button type="submit" class="primary" data-testid="take-late-seat">
              Take the late seat
            </button>
          </form>
        </>
      )}
      {p.model.host && (
        <div class="row">
          <button type="button" data-testid="late-bots" onClick={() => p.send({ type: "fill_bots", bot: "normal" })}>
            {open.length === 1 ? "Seat a bot there" : "Seat bots there"}
          </button>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Chat(p: { model: Model; send: (m: Record<string, unknown>) => void }): JSX.Element {
  const [text, setText] = useState("");
  return (
    <section aria-labelledby="chat-h" class="chat">
      <h2 id="chat-h">Chat</h2>
      <ol class="log" aria-labelledby="chat-h" tabIndex={0}>
        {p.model.chat.slice(-20).map((c) => (
          <li key={c.n}>
            <strong>{c.name}:</strong> {c.text}
          </li>
        ))}
      </ol>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) p.send({ type: "chat", text: text.trim().slice(0, 300) });
          setText("");
        }}
      >
        <input
          aria-label="Chat message"
          maxLength={300}
          onKeyDown={(e) => {
            // Escape leaves the chat: keys go to the game again.
            if (e.key === "Escape") (e.currentTarget as HTMLInputElement).blur();
          }}
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit">Send</button>
      </form>
    </section>
  );
}

function WaitingRoom(p: {
  table: TableInfo;
  model: Model;
  code: string;
  send: (m: Record<string, unknown>) => void;
  onJoined: (token: string) => void;
  links: JSX.Element;
}): JSX.Element {
  const { name, setName, error, join } = useJoin(p.table.code, p.onJoined);
  const [copied, setCopied] = useState(false);
  const t = p.table;
  const link = `${location.origin}/t/${t.code}`;
  const open = t.seats.filter((s) => s.kind === "open").length;
  // Seats for late arrivals may stay open at the start: they are taken during play.
  const needed = t.seats.filter((s) => s.kind === "open" && !s.late).length;
  const late = t.seats.filter((s) => s.late).length;
  const seated = p.model.seat !== null;
  const names = tableSeatNames(t.seats, t.players, (i) => fallbackName(t.game, i));


  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      const input = document.getElementById("invite") as HTMLInputElement | null;
      input?.select();
    }
  };

  return (
    <div class="waiting">
      <section class="panel" aria-labelledby="invite-h">
        <h2 id="invite-h">Invite your friends</h2>
        <div class="row">
          <input id="invite" readOnly value={link} aria-label="Invite link" onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
          <button type="button" onClick={copy}>
            {copied ? "Copied" : "Copy link"}
          </button>
        </div>
        <p>
          Code: <strong class="code" data-testid="code">{t.code}</strong>
          {t.public ? " · listed in the lobby" : " · private: only people with the link or code can join"}
        </p>
      </section>
      <section class="panel" aria-labelledby="seats-h">
        <h2 id="seats-h">Seats</h2>
        <ol class="seat-list" data-testid="seats">
          {t.seats.map((s, i) => (
            <li key={i}>
              <span class={"dot " + (s.connected ? "on" : "off")} aria-hidden="true" />
              <span>
                {s.kind === "open" ? (s.late ? "Open seat for a late arrival" : "Open seat") : names[i]}
                {i === p.model.seat ? " (you)" : ""}
                {s.kind === "person" && !s.connected ? " (not connected)" : ""}
              </span>
              {p.model.host && i !== p.model.seat && (
                <select
                  aria-label={`Seat ${i + 1}`}
                  value={s.kind === "bot" ? `bot:${s.name}` : s.kind === "open" ? "open" : "person"}
                  onChange={(e) => {
                    const v = (e.currentTarget as HTMLSelectElement).value;
                    if (v === "open") p.send({ type: "seat", seat: i, kind: "open" });
                    else if (v.startsWith("bot:")) p.send({ type: "seat", seat: i, kind: "bot", bot: v.slice(4) });
                  }}
                >
                  {s.kind === "person" && <option value="person">{s.name}</option>}
                  <option value="open">open seat</option>
                  {LEVELS.map((l) => (
                    <option value={`bot:${l}`} key={l}>
                      bot, {l}
                    </option>
                  ))}
                  {s.kind === "bot" && !LEVELS.includes(s.name ?? "") && <option value={`bot:${s.name}`}>bot {s.name}</option>}
                </select>
              )}
            </li>
          ))}
        </ol>
        {!seated && open > 0 && (
          <form class="row" onSubmit={join} aria-label="Take a seat">
            <NameField id="join-name" value={name} onInput={setName} />
            <button type="submit" class="primary">
              Take a seat
            </button>
          </form>
        )}
        {!seated && open === 0 && <p class="muted">Every seat is taken: you are watching.</p>}
        {late > 0 && (
          <p class="muted" data-testid="late-note">
            {late === 1 ? "The last seat is" : `The last ${late} seats are`} for late arrivals: the game may start
            without {late === 1 ? "it" : "them"}, and whoever opens the invite link later takes{" "}
            {late === 1 ? "it" : "one"} and slaps in.
          </p>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {p.model.host ? (
          <div class="row">
            <button type="button" disabled={open === 0} onClick={() => p.send({ type: "fill_bots", bot: "normal" })}>
              Fill open seats with bots
            </button>
            <button type="button" class="primary" disabled={needed > 0} onClick={() => p.send({ type: "start" })}>
              Start the game
            </button>
          </div>
        ) : (
          <p class="muted">{seated ? "Waiting for the host to start the game." : ""}</p>
        )}
        {p.model.refusal && (
          <p class="error" role="alert">
            {refusalText(p.model.refusal)}
          </p>
        )}
      </section>
      {p.links}
    </div>
  );
}

/** Your seat link (to play your seat from another device or browser) and, for the host, a new
 * link for any person's seat: re-issuing makes the old link stop working at once. */
function SeatLinks(p: {
  table: TableInfo;
  model: Model;
  names: string[];
  token: string | null;
  issued: { seat: number; link: string } | null;
  send: (m: Record<string, unknown>) => void;
}): JSX.Element | null {
  const mine = p.model.seat !== null && p.token !== null ? seatLink(location.origin, p.table.code, p.token) : null;
  const others = p.model.host
    ? p.table.seats.filter((s, i) => s.kind === "person" && i !== p.model.seat)
    : [];
  if (mine === null && others.length === 0) return null;
  return (
    <section class="panel seat-links" aria-labelledby="seat-links-h">
      <h2 id="seat-links-h">Seat links</h2>
      {mine !== null && (
        <div>
          <p>
            Your seat link plays your seat from another device or browser. Keep it secret: whoever opens it plays
            for you.
          </p>
          <CopyField label="Your seat link" value={mine} testid="my-seat-link" />
        </div>
      )}
      {others.length > 0 && (
        <div>
          <p>
            Someone lost their seat (a new device, cleared storage)? Give them a new link; their old one stops
            working.
          </p>
          <ul class="seat-list">
            {others.map((s) => (
              <li key={s.seat}>
                <button type="button" onClick={() => p.send({ type: "reissue", seat: s.seat })}>
                  New seat link for {p.names[s.seat]}
                </button>
              </li>
            ))}
          </ul>
          {p.issued && (
            <CopyField
              label={`New seat link for ${p.names[p.issued.seat] ?? `seat ${p.issued.seat + 1}`}`}
              value={p.issued.link}
              testid="issued-seat-link"
            />
          )}
        </div>
      )}
    </section>
  );
}

function CopyField(p: { label: string; value: string; testid: string }): JSX.Element {
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLInputElement | null>(null);
  useEffect(() => setCopied(false), [p.value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.value);
      setCopied(true);
    } catch {
      ref.current?.select();
    }
  };
  return (
    <div class="row">
      <input
        ref={ref}
        readOnly
        value={p.value}
        aria-label={p.label}
        data-testid={p.testid}
        onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
      />
      <button type="button" onClick={copy}>
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}
