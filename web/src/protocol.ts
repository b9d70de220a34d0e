// The messages of the server's protocol (docs/protocol.md) as TypeScript types, made by
// scripts/protocol.mjs from docs/protocol.schema.json (itself made from the server's models):
// do not edit; run `npm run protocol` after the schema changes.

export type ClientMessage =
  | Hello
  | ActionMsg
  | Pong
  | ChatMsg
  | Start
  | SeatChange
  | FillBots
  | Rematch
  | Leave
  | SampleRequest
  | Reissue;
export type ServerMessage =
  | Welcome
  | TableMsg
  | StateMsg
  | Ack
  | ErrorMsg
  | Ping
  | ChatOut
  | RematchOut
  | SampleOut
  | SeatLinkOut;

/**
 * The action with this ``id`` was accepted and stored: it is action number ``seq``.
 */
export interface Ack {
  id: number;
  seq: number;
  type: "ack";
  v: 1;
}
/**
 * Take an action, written in the game's notation.
 *
 * ``id`` is the client's own number for the action; the server answers ``ack`` with the same
 * ``id`` once the action is stored, or ``error`` with ``ref`` set to it.  In a real-time game
 * ``pressed_at`` (the client's clock, in ms, when the player acted) and ``seen_at`` (the
 * client's clock when it showed the state the player reacted to) let the server credit a race
 * action at the player's reaction (see ``docs/server.md``, "Fair races").
 */
export interface ActionMsg {
  action: string;
  id: number;
  pressed_at?: number | null;
  seen_at?: number | null;
  type: "action";
  v: 1;
}
/**
 * A bot a game can be played by: its spec name, a line on it and its parameters.
 */
export interface BotInfo {
  name: string;
  params: {
    [k: string]: BotParam;
  };
  summary: string;
}
/**
 * One parameter of a bot spec (``name:param=value``): its default and what it does.
 */
export interface BotParam {
  default: any;
  help: string;
}
/**
 * A line of chat to everyone at the table (seats and spectators).
 */
export interface ChatMsg {
  text: string;
  type: "chat";
  v: 1;
}
/**
 * A line of chat from ``seat`` (None: a spectator or the server) under ``name``.
 */
export interface ChatOut {
  name: string;
  seat: number | null;
  text: string;
  type: "chat";
  v: 1;
}
/**
 * The first message on a connection: which table, and as whom.
 *
 * With ``token`` (from joining a seat) the connection plays that seat; without it, it
 * watches as a spectator.  ``host_token`` (from creating the table) allows the host's
 * messages (``start``, ``seat``, ``fill_bots``, ``rematch``).
 */
export interface Hello {
  /**
   * Send each state's events list as a change to the previous one (see StateMsg.events_kept): much less traffic on long games.
   */
  delta_events?: boolean;
  host_token?: string | null;
  /**
   * The table's invite code.
   */
  table: string;
  /**
   * A seat token.
   */
  token?: string | null;
  type: "hello";
  v: 1;
}
/**
 * The answer to the server's ``ping``: the same ``id`` and the client's clock in ms.
 */
export interface Pong {
  client_time: number;
  id: number;
  type: "pong";
  v: 1;
}
/**
 * Host only: start the game (every seat must be taken by a person or a bot).
 */
export interface Start {
  type: "start";
  v: 1;
}
/**
 * Host only, before the start: make a seat ``open`` (for a person), a ``bot`` (``bot`` is a
 * bot spec or a level: easy, normal, hard, expert) or ``closed`` (left out of the game; the
 * seats after it move up by one).  A person in the seat loses it.
 */
export interface SeatChange {
  bot?: string | null;
  kind: "open" | "bot" | "closed";
  seat: number;
  type: "seat";
  v: 1;
}
/**
 * Host only, before the start: every open seat without a person gets a bot
 * (``bot``: a spec or a level; default ``normal``).
 */
export interface FillBots {
  bot?: string | null;
  type: "fill_bots";
  v: 1;
}
/**
 * Host only, after the end: a new table with the same seats; everyone is told its code and
 * the seat tokens of the old table work at the new one.
 */
export interface Rematch {
  type: "rematch";
  v: 1;
}
/**
 * Give up your seat (before the start only) or stop watching.
 */
export interface Leave {
  type: "leave";
  v: 1;
}
/**
 * Seats only, while the game is on: ask for an honest sample of the hidden cards (for a bot
 * that searches, such as ``ratgames bot CODE --bot ismcts``).  The server answers ``sample``
 * with the same ``id``.
 */
export interface SampleRequest {
  id: number;
  type: "sample";
  v: 1;
}
/**
 * Host only: a new seat token for the person in ``seat``, so a new seat link
 * (``/t/CODE#seat=TOKEN``) to hand them, for a player who lost theirs or whose link leaked.
 * The old token stops working at once (a connection holding it is told and closed); the
 * server answers ``seat_link`` to the host alone.
 */
export interface Reissue {
  seat: number;
  type: "reissue";
  v: 1;
}
/**
 * ``POST /api/tables``: a new table.
 *
 * ``players`` defaults to the game's count (or to the number of ``seats`` not closed).
 * ``seats`` defaults to all open.  Unless ``sit`` is false the creator takes the first open
 * seat under ``name``.  A table that is not ``public`` is not listed; its code is its key.
 */
export interface CreateTable {
  game: string;
  name?: string;
  options?: {
    [k: string]: any;
  };
  players?: number | null;
  public?: boolean;
  seats?: SeatSpec[] | null;
  sit?: boolean;
  timeout?: TimeoutPolicyInput;
}
/**
 * A seat of a new table: ``open`` for a person, a ``bot`` (spec or level), or ``closed``
 * (left out of the game).
 */
export interface SeatSpec {
  bot?: string | null;
  kind?: "open" | "bot" | "closed";
}
/**
 * What happens while a person's seat is disconnected: ``wait`` for them, or after
 * ``seconds`` a ``bot`` (spec or level) plays for them until they are back.
 */
export interface TimeoutPolicyInput {
  bot?: string;
  policy?: "wait" | "bot";
  seconds?: number;
}
/**
 * The new table, the host's token, and the creator's seat and seat token (if seated).
 * Tokens are shown once: the server keeps only their hashes.
 */
export interface CreatedTable {
  host_token: string;
  seat: number | null;
  table: TableInfo;
  token: string | null;
}
/**
 * A table's public description (never a token).
 */
export interface TableInfo {
  code: string;
  created: string;
  game: string;
  game_no: number;
  link: string;
  /**
   * The rematch's code, once made.
   */
  next_table: string | null;
  options: {
    [k: string]: any;
  };
  players: number;
  public: boolean;
  /**
   * The stored record, once finished.
   */
  record_id: number | null;
  seats: SeatInfo[];
  spectators: number;
  status: "lobby" | "playing" | "finished";
  timeout: TimeoutPolicyOutput;
  title: string;
}
/**
 * A seat as everyone at the table sees it (no token, ever).
 */
export interface SeatInfo {
  /**
   * When the seat was taken during play (seconds of play).
   */
  arrived: number | null;
  /**
   * A bot plays for the absent person.
   */
  away_bot: boolean;
  /**
   * The bot spec of a bot seat.
   */
  bot: string | null;
  connected: boolean;
  host: boolean;
  kind: "open" | "person" | "bot";
  /**
   * A seat for a late arrival: the game may start with it open, and a person (joining) or a bot (the host's fill_bots or seat change) may take it during play.
   */
  late: boolean;
  name: string | null;
  seat: number;
}
/**
 * What happens while a person's seat is disconnected: ``wait`` for them, or after
 * ``seconds`` a ``bot`` (spec or level) plays for them until they are back.
 */
export interface TimeoutPolicyOutput {
  bot: string;
  policy: "wait" | "bot";
  seconds: number;
}
/**
 * Something this client sent was refused; nothing else changed.  ``ref`` is the ``id`` of
 * the refused action, if it was one.
 */
export interface ErrorMsg {
  code:
    | "bad_json"
    | "unknown_type"
    | "invalid_message"
    | "too_large"
    | "rate_limited"
    | "need_hello"
    | "no_such_table"
    | "bad_token"
    | "not_a_seat"
    | "not_host"
    | "illegal_action"
    | "invalid_notation"
    | "wrong_status"
    | "server_error";
  message: string;
  ref: number | null;
  type: "error";
  v: 1;
}
/**
 * One new event: its JSON (``{"kind": ...}``, as the game made it) and a sentence for the
 * viewer (None where the game could not say it).
 */
export interface EventItem {
  event: {
    [k: string]: any;
  };
  text: string | null;
}
/**
 * A game for the lobby: its description, options, bots, and the levels (level name: the
 * bot spec it stands for).
 */
export interface GameInfo {
  bots: BotInfo[];
  default_players: number;
  id: string;
  levels: {
    [k: string]: string;
  };
  options: {
    [k: string]: OptionInfo;
  };
  /**
   * The fewest and the most players.
   */
  players: number[];
  real_time: boolean;
  rules: string;
  rules_version: number;
  summary: string;
  title: string;
}
/**
 * One option of a game: its default, the values allowed (in words) and what it does;
 * ``forms``, for a structured option, the shapes its value takes (``rounds=3``).
 */
export interface OptionInfo {
  allowed: string;
  default: any;
  forms: OptionForm[] | null;
  help: string;
}
/**
 * One shape a structured option's value takes: ``word`` alone, or ``word=N`` when
 * ``number`` (N from ``minimum`` to ``maximum``, ``start`` offered first); ``help`` says it
 * in words.
 */
export interface OptionForm {
  help: string;
  maximum: number;
  minimum: number;
  number: boolean;
  start: number;
  word: string;
}
/**
 * ``POST /api/tables/{code}/join``: take ``seat`` (default: the first open one).
 */
export interface JoinTable {
  name: string;
  seat?: number | null;
}
/**
 * Your seat and its token (keep it: it gets the seat back after a disconnect).
 */
export interface Joined {
  seat: number;
  table: TableInfo;
  token: string;
}
/**
 * How a finished game ended (the engine's ``Outcome.to_json()``): the winning seats, each
 * seat's points in the game's own scoring, its place (1 the best, ties share one), why it
 * ended, whether a safety cap ended it, and game-specific figures.
 */
export interface Outcome {
  capped: boolean;
  details: {
    [k: string]: any;
  };
  places: number[];
  points: number[];
  reason: string;
  winners: number[];
}
/**
 * The server measures the connection: answer ``pong`` with this ``id`` at once.
 * ``rtt_ms`` is the round trip last measured (None at first).
 */
export interface Ping {
  id: number;
  rtt_ms: number | null;
  server_time: number;
  type: "ping";
  v: 1;
}
/**
 * A stored game, for listings.
 */
export interface RecordSummary {
  created: string;
  game: string;
  id: number;
  outcome: Outcome | null;
  players: number;
  /**
   * False for a private table's game: listed and readable only with a seat token or the host token of its table (header X-Ratgames-Token).
   */
  public: boolean;
  table: string;
}
/**
 * The host made a rematch: the new table's code (your seat token works there).
 */
export interface RematchOut {
  table: string;
  type: "rematch";
  v: 1;
}
/**
 * The answer to ``sample``: a full position of the game after ``seq`` actions that agrees
 * with everything ``seat`` knows, with the cards it cannot see dealt at random among the places
 * they could be (the engine's ``sample_consistent``).  ``state`` is the position's snapshot
 * (the engine's ``State.snapshot()``, cards in the game's notation), which
 * ``Game.restore(state, rng)`` turns back into a state to search from.  It tells the seat
 * nothing its observation does not: it depends only on what the seat knows and on chance.
 */
export interface SampleOut {
  id: number;
  seat: number;
  seq: number;
  state: {
    [k: string]: any;
  };
  type: "sample";
  v: 1;
}
/**
 * To the host, the answer to ``reissue``: the seat's new token (its seat link is
 * ``/t/CODE#seat=TOKEN``).  The server keeps only its hash; it is shown this once.
 */
export interface SeatLinkOut {
  seat: number;
  token: string;
  type: "seat_link";
  v: 1;
}
/**
 * The answer to ``hello``: the table, and the seat this connection plays (None for a
 * spectator).
 */
export interface Welcome {
  host: boolean;
  max_message_bytes: number;
  seat: number | null;
  /**
   * The server's clock in ms (for display only).
   */
  server_time: number;
  table: TableInfo;
  type: "welcome";
  v: 1;
}
/**
 * The table changed (a seat taken or left, connected, the game started or ended).
 */
export interface TableMsg {
  table: TableInfo;
  type: "table";
  v: 1;
}
/**
 * The game as this connection may see it, after ``seq`` actions.
 *
 * A seat gets its ``observation``, its ``legal`` actions (notation) and the seats ``to_act``;
 * a spectator gets the spectator ``view`` instead.  ``events`` are the events new since the
 * connection's last ``state`` (all of them in the first one after ``hello``), each with a
 * sentence.  ``outcome`` is set once the game is over, and ``record_id`` once it is stored.
 *
 * On a connection that said ``hello`` with ``delta_events``, ``events_kept`` is set when the
 * ``"events"`` list of the observation (or view) is abbreviated: the whole list is the last
 * ``events_kept`` entries of the previous state's whole list followed by the entries sent.
 */
export interface StateMsg {
  events: EventItem[];
  /**
   * Set when the observation's (or view's) events list holds only what is new: keep this many entries from the end of the previous whole list, then add them.
   */
  events_kept?: number | null;
  legal: string[];
  observation: {
    [k: string]: any;
  } | null;
  outcome: Outcome | null;
  /**
   * In a real-time game, the version of the position race actions answer (the engine's State.race_version: counted up each time it changes); None otherwise. A client sends, as seen_at, when it first showed the version its race action names.
   */
  race_version: number | null;
  record_id: number | null;
  seat: number | null;
  seq: number;
  /**
   * Seconds of play since the game started.
   */
  time: number;
  to_act: number[];
  type: "state";
  v: 1;
  view: {
    [k: string]: any;
  } | null;
}

/** Every message the server sends. */
export type ServerMsg = ServerMessage;
export type WelcomeMsg = Welcome;

/** Types of the browser client's own endpoints and helpers, not in the server's schema. */
export type { Json, Obj, Replay, ReplayStep } from "./client-types";
