// The lobby: your name, joining by code, the public tables, and a new table (game, options,
// players and who sits where).
import type { JSX } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { changedOptions, controlFor, joinForm, optionValue, splitForm } from "../options";
import type { GameInfo, Json, OptionInfo, TableInfo } from "../protocol";
import { cleanCode } from "../route";
import { Ctx } from "./context";

const LEVELS = ["easy", "normal", "hard", "expert"];

export function NameField(p: { value: string; onInput: (v: string) => void; id?: string }): JSX.Element {
  return (
    <label class="field">
      Your name
      <input
        id={p.id ?? "name"}
        name="name"
        maxLength={32}
        autoComplete="nickname"
        placeholder="e.g. Ann"
        value={p.value}
        onInput={(e) => p.onInput((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}

export function Lobby(): JSX.Element {
  const { memory, navigate } = useContext(Ctx);
  const [name, setName] = useState(memory.name);
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [tables, setTables] = useState<TableInfo[]>([]);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    api.games().then(setGames, (e: ApiError) => setError(e.message));
    let alive = true;
    const load = () =>
      api.tables().then(
        (t) => alive && setTables(t),
        () => {},
      );
    load();
    const timer = setInterval(load, 4000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);

  const updateName = (v: string) => {
    setName(v);
    memory.name = v;
  };

  const go = (ev: Event) => {
    ev.preventDefault();
    const c = cleanCode(code);
    if (c === null) {
      setCodeError("A code has 6 letters and digits, like K7QX2M, or 12 for a private table (or paste the invite link).");
      return;
    }
    navigate(`/t/${c}`);
  };

  return (
    <main class="page lobby">
      <h1>Play the rat card games</h1>
      <section class="panel" aria-labelledby="you-h">
        <h2 id="you-h">You</h2>
        <NameField value={name} onInput={updateName} />
        <form class="row" onSubmit={go} aria-label="Join a table by code">
          <label class="field">
            Join a table by code or link
            <input
              name="code"
              value={code}
              placeholder="K7QX2M"
              autoCapitalize="characters"
              onInput={(e) => {
                setCode((e.currentTarget as HTMLInputElement).value);
                setCodeError("");
              }}
            />
          </label>
          <button type="submit">Go to table</button>
        </form>
        {codeError && (
          <p class="error" role="alert">
            {codeError}
          </p>
        )}
      </section>

      <section class="panel" aria-labelledby="public-h">
        <h2 id="public-h">Public tables</h2>
        {tables.length === 0 ? (
          <p class="muted">No public table is open now: create one below.</p>
        ) : (
          <ul class="tables" data-testid="public-tables">
            {tables.map((t) => {
              const open = t.seats.filter((s) => s.kind === "open").length;
              // A game under way may still have seats for late arrivals open (taken from its link).
              const late = t.seats.filter((s) => s.kind === "open" && s.late).length;
              const people = t.seats.filter((s) => s.kind === "person").map((s) => s.name).join(", ");
              return (
                <li key={t.code}>
                  <a href={`/t/${t.code}`} onClick={(e) => (e.preventDefault(), navigate(`/t/${t.code}`))}>
                    {t.title} <code>{t.code}</code>
                  </a>{" "}
                  <span class="muted">
                    {t.status === "lobby"
                      ? `${open} open seat${open === 1 ? "" : "s"}`
                      : late > 0
                        ? `playing · ${late} seat${late === 1 ? "" : "s"} for a late arrival`
                        : "playing (watch)"}
                    {people ? ` · ${people}` : ""}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {games && <NewTable games={games} name={name} />}
    </main>
  );
}

function NewTable(p: { games: GameInfo[]; name: string }): JSX.Element {
  const { memory, navigate } = useContext(Ctx);
  const [gameId, setGameId] = useState(p.games[0]?.id ?? "");
  const game = p.games.find((g) => g.id === gameId) ?? p.games[0];
  const [players, setPlayers] = useState(game.default_players);
  const [seats, setSeats] = useState<string[]>([]);
  const [values, setValues] = useState<Record<string, Json>>({});
  const [isPublic, setPublic] = useState(true);
  const [timeout, setTimeoutPolicy] = useState("bot");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const pick = (g: GameInfo) => {
    setGameId(g.id);
    setPlayers(g.default_players);
    setSeats([]);
    setValues({});
    setError("");
  };
  const [lo, hi] = [game.players[0], game.players[game.players.length - 1]];
  const seatKind = (i: number) => seats[i] ?? (i === 1 ? "open" : "bot:normal");

  const create = async (ev: Event) => {
    ev.preventDefault();
    if (!p.name.trim()) {
      setError("Write your name first (it is shown to the other players).");
      (document.getElementById("name") as HTMLInputElement | null)?.focus();
      return;
    }
    setBusy(true);
    setError("");
    const seatSpecs = Array.from({ length: players }, (_, i) => {
      if (i === 0) return { kind: "open" };
      const k = seatKind(i);
      return k === "open" ? { kind: "open" } : { kind: "bot", bot: k.slice(4) };
    });
    try {
      const created = await api.create({
        game: game.id,
        players,
        options: changedOptions(game.options, values),
        seats: seatSpecs,
        public: isPublic,
        timeout: timeout === "bot" ? { policy: "bot", seconds: 30, bot: "normal" } : { policy: "wait" },
        name: p.name.trim(),
        sit: true,
      });
      memory.setSeat(created.table.code, {
        token: created.token,
        host_token: created.host_token,
        seat: created.seat,
      });
      navigate(`/t/${created.table.code}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };

  // Safety caps (meant for simulations) are folded away under "Advanced".
  const entries = Object.entries(game.options);
  const main = entries.filter(([, info]) => !isCap(info));
  const advanced = entries.filter(([, info]) => isCap(info));
  const setOption = (name: string, info: OptionInfo) => (raw: string | boolean) =>
    setValues({ ...values, [name]: optionValue(info, raw) });

  return (
    <section class="panel" aria-labelledby="new-h">
      <h2 id="new-h">New table</h2>
      <form onSubmit={create}>
        <fieldset class="games">
          <legend>Game</legend>
          {p.games.map((g) => (
            <div class={"game-choice" + (g.id === game.id ? " chosen" : "")} key={g.id}>
              <label>
                <input
                  type="radio"
                  name="game"
                  value={g.id}
                  checked={g.id === game.id}
                  onChange={() => pick(g)}
                />
                <strong>{g.title}</strong>{" "}
                <span class="muted">
                  {g.players[0] === g.players[g.players.length - 1] ? g.players[0] : `${g.players[0]}-${g.players[g.players.length - 1]}`} players
                  {g.real_time ? ", real time" : ""}
                </span>
              </label>
              <p class="summary">{g.summary}</p>
              <details>
                <summary>Rules of {g.title}</summary>
                <pre class="rules">{g.rules}</pre>
              </details>
            </div>
          ))}
        </fieldset>

        <fieldset>
          <legend>Players and seats</legend>
          <label class="field">
            Players
            <select
              name="players"
              value={players}
              onChange={(e) => setPlayers(Number((e.currentTarget as HTMLSelectElement).value))}
            >
              {Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((n) => (
                <option value={n} key={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <ol class="seats-setup">
            <li>Seat 1: you{p.name.trim() ? ` (${p.name.trim()})` : ""}</li>
            {Array.from({ length: players - 1 }, (_, j) => j + 1).map((i) => (
              <li key={i}>
                <label>
                  Seat {i + 1}{" "}
                  <select
                    name={`seat${i + 1}`}
                    value={seatKind(i)}
                    onChange={(e) => {
                      const next = [...seats];
                      for (let k = 0; k < players; k++) next[k] = seatKind(k);
                      next[i] = (e.currentTarget as HTMLSelectElement).value;
                      setSeats(next);
                    }}
                  >
                    <option value="open">A friend (open seat)</option>
                    {LEVELS.filter((l) => l in game.levels || true).map((l) => (
                      <option value={`bot:${l}`} key={l}>
                        {l.charAt(0).toUpperCase() + l.slice(1)} bot
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
          </ol>
          <label class="check">
            <input
              type="checkbox"
              checked={isPublic}
              onChange={(e) => setPublic((e.currentTarget as HTMLInputElement).checked)}
            />
            List the table in the lobby (public)
          </label>
          <label class="field">
            If a player loses the connection
            <select value={timeout} onChange={(e) => setTimeoutPolicy((e.currentTarget as HTMLSelectElement).value)}>
              <option value="bot">a bot plays for them after 30 s</option>
              <option value="wait">wait for them</option>
            </select>
          </label>
        </fieldset>

        <fieldset>
          <legend>Options of {game.title}</legend>
          {main.map(([name, info]) => (
            <OptionField key={`${game.id}-${name}`} name={name} info={info} value={values[name] ?? info.default} set={setOption(name, info)} />
          ))}
          {advanced.length > 0 && (
            <details class="advanced">
              <summary>Advanced: safety caps for long games</summary>
              {advanced.map(([name, info]) => (
                <OptionField key={`${game.id}-${name}`} name={name} info={info} value={values[name] ?? info.default} set={setOption(name, info)} />
              ))}
            </details>
          )}
        </fieldset>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Create the table
        </button>
      </form>
    </section>
  );
}

function isCap(info: OptionInfo): boolean {
  return /^safety cap/i.test(info.help);
}

/** A choice as words: "shuffle_back" -> "shuffle back". */
function choiceWords(c: string): string {
  return c.replace(/_/g, " ");
}

/** A game option as a form control labelled by its help text (the option's name is for the
 * API and the terminal, not for players). */
function OptionField(p: { name: string; info: OptionInfo; value: Json; set: (raw: string | boolean) => void }): JSX.Element {
  const { name, info, value, set } = p;
  const control = controlFor(info);
  const id = `opt-${name}`;
  const label = info.help.replace(/^Safety cap( for simulations)?:\s*/i, "").replace(/_/g, " ");
  const shown = label.charAt(0).toUpperCase() + label.slice(1);
  if (control.kind === "bool") {
    return (
      <div class="option">
        <label class="check" for={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => set((e.currentTarget as HTMLInputElement).checked)} />
          <span>{shown}</span>
        </label>
      </div>
    );
  }
  if (control.kind === "forms") {
    // A structured value: which form (a select) and, for a form that takes one, its number.
    const { form, n } = splitForm(control.forms, value);
    const deflt = splitForm(control.forms, info.default);
    return (
      <fieldset class="option forms">
        <legend>{shown.split(":")[0]}</legend>
        <div class="form-row">
          <label class="field" for={id}>
            <span class="visually-hidden">{shown.split(":")[0]}: </span>
            <select
              id={id}
              value={form.word}
              aria-describedby={`${id}-help`}
              onChange={(e) => {
                const word = (e.currentTarget as HTMLSelectElement).value;
                const next = control.forms.find((f) => f.word === word) ?? form;
                set(joinForm(next, deflt.form === next ? deflt.n : next.start));
              }}
            >
              {control.forms.map((f) => (
                <option value={f.word} key={f.word}>
                  {f.help}
                </option>
              ))}
            </select>
          </label>
          {form.number ? (
            <label class="field number" for={`${id}-n`}>
              <span class="visually-hidden">{form.help}: </span>
              <input
                id={`${id}-n`}
                type="number"
                min={form.minimum}
                max={form.maximum}
                value={String(n)}
                onInput={(e) => set(joinForm(form, Number((e.currentTarget as HTMLInputElement).value)))}
              />
            </label>
          ) : null}
        </div>
        <small id={`${id}-help`} class="help">
          Default: {deflt.form.help.toLowerCase()}
          {deflt.form.number ? `: ${deflt.n}` : ""}.
        </small>
      </fieldset>
    );
  }
  const def = control.kind === "choice" ? choiceWords(String(info.default)) : String(info.default);
  return (
    <div class="option">
      <label class="field" for={id}>
        {shown}
        {control.kind === "choice" ? (
          <select id={id} value={String(value)} aria-describedby={`${id}-help`} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
            {control.choices.map((c) => (
              <option value={c} key={c}>
                {choiceWords(c)}
              </option>
            ))}
          </select>
        ) : control.kind === "int" ? (
          <input
            id={id}
            type="number"
            min={control.min !== null ? control.min : undefined}
            max={control.max !== null ? control.max : undefined}
            value={String(value)}
            aria-describedby={`${id}-help`}
            onInput={(e) => set((e.currentTarget as HTMLInputElement).value)}
          />
        ) : (
          <input id={id} type="text" value={String(value)} aria-describedby={`${id}-help`} onInput={(e) => set((e.currentTarget as HTMLInputElement).value)} />
        )}
      </label>
      <small id={`${id}-help`} class="help">
        {control.kind === "text" ? `Allowed: ${info.allowed}. ` : ""}Default: {def}.
      </small>
    </div>
  );
}
