"""The messages of the online protocol, as pydantic models, and the bodies of the REST API.

Every WebSocket message is one JSON object with a ``type`` (what it is) and ``v`` (the protocol
version, :data:`PROTOCOL_VERSION`).  Messages from clients are checked against
:data:`ClientMessage` (a union discriminated by ``type``); anything else gets an ``error``.
``docs/protocol.md`` explains each message with examples; :func:`json_schema` is the JSON Schema
of all of them (served at ``/api/protocol/schema`` and kept in ``docs/protocol.schema.json``).

Actions travel as the games' text notation (each game's ``parse_action`` reads it);
observations and spectator views travel as the engine makes them (the server does not look
inside them).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

PROTOCOL_VERSION: Literal[1] = 1
"""The version every message carries as ``v``."""

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send (bytes of UTF-8 JSON); larger ones are refused."""

TOKEN_HEADER = "X-Ratgames-Token"
"""The HTTP header that shows the REST API seat or host tokens (for private tables' games)."""

MAX_HEADER_TOKENS = 64
"""The most tokens one :data:`TOKEN_HEADER` may hold."""

MAX_NAME = 32
MAX_CHAT = 300
MAX_ACTION = 64

Version = Literal[1]


class Message(BaseModel):
    """Base of every message: unknown fields are refused, so typos show up at once.

    What the server sends always holds every field (the schema of a message as sent lists a
    field with a default as required, :func:`json_schema`), except where a model says
    otherwise (:data:`SOMETIMES_SENT`)."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, json_schema_serialization_defaults_required=True
    )


def _clean_name(value: str) -> str:
    """A display name: trimmed, 1 to 32 characters, no control characters."""
    name = " ".join(value.split())
    if not name:
        raise ValueError("a display name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise ValueError(f"a display name has at most {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("a display name may not hold control characters")
    return name


def header_tokens(value: str | None) -> list[str]:
    """The tokens of a :data:`TOKEN_HEADER` value: one or more, separated by commas (spaces
    around them ignored).  Raises :class:`ValueError` naming what is wrong."""
    if value is None:
        return []
    tokens = [t.strip() for t in value.split(",")]
    tokens = [t for t in tokens if t]
    if len(tokens) > MAX_HEADER_TOKENS:
        raise ValueError(
            f"{TOKEN_HEADER} holds {len(tokens)} tokens; it may hold at most {MAX_HEADER_TOKENS}"
        )
    for t in tokens:
        if len(t) > 128 or not t.isascii() or not t.isprintable():
            raise ValueError(
                f"{TOKEN_HEADER} holds something that is not a token: tokens are at most 128 "
                "printable ASCII characters, separated by commas"
            )
    return tokens


def name_key(name: str) -> str:
    """What two display names must not share at one table: the name casefolded and
    NFKC-normalised, so that "Ann", "ANN" and "Ａｎｎ" (full-width) are one name."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""The characters that reorder text around them (embeddings, overrides, isolates, marks)."""


def _clean_chat(value: str) -> str:
    """A chat line: runs of white space (new lines too) made one space; no control character
    (other than those), no lone surrogate and no bidirectional control, which could make a line
    read as something else."""
    text = " ".join(value.split())
    if not text:
        raise ValueError("a chat line needs at least one visible character")
    for ch in text:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(
                f"a chat line may not hold control or bidirectional-control characters "
                f"(U+{ord(ch):04X})"
            )
    return text


# --- client -> server --------------------------------------------------------------------------


class Hello(Message):
    """The first message on a connection: which table, and as whom.

    With ``token`` (from joining a seat) the connection plays that seat; without it, it
    watches as a spectator.  ``host_token`` (from creating the table) allows the host's
    messages (``start``, ``seat``, ``fill_bots``, ``rematch``)."""

    type: Literal["hello"]
    v: Version
    table: str = Field(min_length=1, max_length=16, description="The table's invite code.")
    token: str | None = Field(default=None, max_length=128, description="A seat token.")
    host_token: str | None = Field(default=None, max_length=128)
    delta_events: bool = Field(
        default=False,
        description="Send each state's events list as a change to the previous one (see "
        "StateMsg.events_kept): much less traffic on long games.",
    )


class ActionMsg(Message):
    """Take an action, written in the game's notation.

    ``id`` is the client's own number for the action; the server answers ``ack`` with the same
    ``id`` once the action is stored, or ``error`` with ``ref`` set to it.  In a real-time game
    ``pressed_at`` (the client's clock, in ms, when the player acted) and ``seen_at`` (the
    client's clock when it showed the state the player reacted to) let the server credit a race
    action at the player's reaction (see ``docs/server.md``, "Fair races")."""

    type: Literal["action"]
    v: Version
    id: int = Field(ge=0, le=2**53)
    action: str = Field(min_length=1, max_length=MAX_ACTION)
    pressed_at: float | None = Field(default=None, allow_inf_nan=False)
    seen_at: float | None = Field(default=None, allow_inf_nan=False)


class Pong(Message):
    """The answer to the server's ``ping``: the same ``id`` and the client's clock in ms."""

    type: Literal["pong"]
    v: Version
    id: int = Field(ge=0, le=2**53)
    client_time: float = Field(allow_inf_nan=False)


class ChatMsg(Message):
    """A line of chat to everyone at the table (seats and spectators)."""

    type: Literal["chat"]
    v: Version
    text: str = Field(min_length=1, max_length=MAX_CHAT)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return _clean_chat(value)


class Start(Message):
    """Host only: start the game (every seat must be taken by a person or a bot)."""

    type: Literal["start"]
    v: Version


class SeatChange(Message):
    """Host only, before the start: make a seat ``open`` (for a person), a ``bot`` (``bot`` is a
    bot spec or a level: easy, normal, hard, expert) or ``closed`` (left out of the game; the
    seats after it move up by one).  A person in the seat loses it."""

    type: Literal["seat"]
    v: Version
    seat: int = Field(ge=0, le=63)
    kind: Literal["open", "bot", "closed"]
    bot: str | None = Field(default=None, max_length=200)


class Reissue(Message):
    """Host only: a new seat token for the person in ``seat``, so a new seat link
    (``/t/CODE#seat=TOKEN``) to hand them, for a player who lost theirs or whose link leaked.
    The old token stops working at once (a connection holding it is told and closed); the
    server answers ``seat_link`` to the host alone."""

    type: Literal["reissue"]
    v: Version
    seat: int = Field(ge=0, le=63)


class FillBots(Message):
    """Host only, before the start: every open seat without a person gets a bot
    (``bot``: a spec or a level; default ``normal``)."""

    type: Literal["fill_bots"]
    v: Version
    bot: str | None = Field(default=None, max_length=200)


class Rematch(Message):
    """Host only, after the end: a new table with the same seats; everyone is told its code and
    the seat tokens of the old table work at the new one."""

    type: Literal["rematch"]
    v: Version


class SampleRequest(Message):
    """Seats only, while the game is on: ask for an honest sample of the hidden cards (for a bot
    that searches, such as ``ratgames bot CODE --bot ismcts``).  The server answers ``sample``
    with the same ``id``."""

    type: Literal["sample"]
    v: Version
    id: int = Field(ge=0, le=2**53)


class Leave(Message):
    """Give up your seat (before the start only) or stop watching."""

    type: Literal["leave"]
    v: Version


ClientMessage = Annotated[
    Hello
    | ActionMsg
    | Pong
    | ChatMsg
    | Start
    | SeatChange
    | FillBots
    | Rematch
    | Leave
    | SampleRequest
    | Reissue,
    Field(discriminator="type"),
]
"""Every message a client may send."""

CLIENT_TYPES = (
    "hello",
    "action",
    "pong",
    "chat",
    "start",
    "seat",
    "fill_bots",
    "rematch",
    "leave",
    "sample",
    "reissue",
)

client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)

# --- shared pieces -----------------------------------------------------------------------------


class TimeoutPolicy(Message):
    """What happens while a person's seat is disconnected: ``wait`` for them, or after
    ``seconds`` a ``bot`` (spec or level) plays for them until they are back."""

    policy: Literal["wait", "bot"] = "wait"
    seconds: float = Field(default=30.0, ge=0.0, le=3600.0)
    bot: str = Field(default="normal", max_length=200)


class SeatInfo(Message):
    """A seat as everyone at the table sees it (no token, ever)."""

    seat: int
    kind: Literal["open", "person", "bot"]
    name: str | None = None
    bot: str | None = Field(default=None, description="The bot spec of a bot seat.")
    connected: bool = False
    away_bot: bool = Field(default=False, description="A bot plays for the absent person.")
    host: bool = False
    late: bool = Field(
        default=False,
        description="A seat for a late arrival: the game may start with it open, and a person "
        "(joining) or a bot (the host's fill_bots or seat change) may take it during play.",
    )
    arrived: float | None = Field(
        default=None, description="When the seat was taken during play (seconds of play)."
    )


class TableInfo(Message):
    """A table's public description (never a token)."""

    code: str
    link: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    public: bool
    status: Literal["lobby", "playing", "finished"]
    seats: list[SeatInfo]
    timeout: TimeoutPolicy
    spectators: int = 0
    game_no: int = 1
    next_table: str | None = Field(default=None, description="The rematch's code, once made.")
    record_id: int | None = Field(default=None, description="The stored record, once finished.")
    created: str


class Outcome(Message):
    """How a finished game ended (the engine's ``Outcome.to_json()``): the winning seats, each
    seat's points in the game's own scoring, its place (1 the best, ties share one), why it
    ended, whether a safety cap ended it, and game-specific figures."""

    winners: list[int]
    points: list[float]
    places: list[int]
    reason: str
    capped: bool
    details: dict[str, Any]


class EventItem(Message):
    """One new event: its JSON (``{"kind": ...}``, as the game made it) and a sentence for the
    viewer (None where the game could not say it)."""

    event: dict[str, Any]
    text: str | None = None


# --- server -> client --------------------------------------------------------------------------


class Welcome(Message):
    """The answer to ``hello``: the table, and the seat this connection plays (None for a
    spectator)."""

    type: Literal["welcome"] = "welcome"
    v: Version = PROTOCOL_VERSION
    table: TableInfo
    seat: int | None
    host: bool = False
    server_time: float = Field(description="The server's clock in ms (for display only).")
    max_message_bytes: int = MAX_MESSAGE_BYTES


class TableMsg(Message):
    """The table changed (a seat taken or left, connected, the game started or ended)."""

    type: Literal["table"] = "table"
    v: Version = PROTOCOL_VERSION
    table: TableInfo


class StateMsg(Message):
    """The game as this connection may see it, after ``seq`` actions.

    A seat gets its ``observation``, its ``legal`` actions (notation) and the seats ``to_act``;
    a spectator gets the spectator ``view`` instead.  ``events`` are the events new since the
    connection's last ``state`` (all of them in the first one after ``hello``), each with a
    sentence.  ``outcome`` is set once the game is over, and ``record_id`` once it is stored.

    On a connection that said ``hello`` with ``delta_events``, ``events_kept`` is set when the
    ``"events"`` list of the observation (or view) is abbreviated: the whole list is the last
    ``events_kept`` entries of the previous state's whole list followed by the entries sent."""

    type: Literal["state"] = "state"
    v: Version = PROTOCOL_VERSION
    seq: int
    seat: int | None
    observation: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    legal: list[str] = []
    to_act: list[int] = []
    events: list[EventItem] = []
    time: float = Field(description="Seconds of play since the game started.")
    outcome: Outcome | None = None
    record_id: int | None = None
    events_kept: int | None = Field(
        default=None,
        description="Set when the observation's (or view's) events list holds only what is new: "
        "keep this many entries from the end of the previous whole list, then add them.",
    )
    race_version: int | None = Field(
        default=None,
        description="In a real-time game, the version of the position race actions answer "
        "(the engine's State.race_version: counted up each time it changes); None otherwise. "
        "A client sends, as seen_at, when it first showed the version its race action names.",
    )


class Ack(Message):
    """The action with this ``id`` was accepted and stored: it is action number ``seq``."""

    type: Literal["ack"] = "ack"
    v: Version = PROTOCOL_VERSION
    id: int
    seq: int


ErrorCode = Literal[
    "bad_json",
    "unknown_type",
    "invalid_message",
    "too_large",
    "rate_limited",
    "need_hello",
    "no_such_table",
    "bad_token",
    "not_a_seat",
    "not_host",
    "illegal_action",
    "invalid_notation",
    "wrong_status",
    "server_error",
]


class ErrorMsg(Message):
    """Something this client sent was refused; nothing else changed.  ``ref`` is the ``id`` of
    the refused action, if it was one."""

    type: Literal["error"] = "error"
    v: Version = PROTOCOL_VERSION
    code: ErrorCode
    message: str
    ref: int | None = None


class Ping(Message):
    """The server measures the connection: answer ``pong`` with this ``id`` at once.
    ``rtt_ms`` is the round trip last measured (None at first)."""

    type: Literal["ping"] = "ping"
    v: Version = PROTOCOL_VERSION
    id: int
    server_time: float
    rtt_ms: float | None = None


class ChatOut(Message):
    """A line of chat from ``seat`` (None: a spectator or the server) under ``name``."""

    type: Literal["chat"] = "chat"
    v: Version = PROTOCOL_VERSION
    seat: int | None
    name: str
    text: str


class RematchOut(Message):
    """The host made a rematch: the new table's code (your seat token works there)."""

    type: Literal["rematch"] = "rematch"
    v: Version = PROTOCOL_VERSION
    table: str


class SeatLinkOut(Message):
    """To the host, the answer to ``reissue``: the seat's new token (its seat link is
    ``/t/CODE#seat=TOKEN``).  The server keeps only its hash; it is shown this once."""

    type: Literal["seat_link"] = "seat_link"
    v: Version = PROTOCOL_VERSION
    seat: int
    token: str


class SampleOut(Message):
    """The answer to ``sample``: a full position of the game after ``seq`` actions that agrees
    with everything ``seat`` knows, with the cards it cannot see dealt at random among the places
    they could be (the engine's ``sample_consistent``).  ``state`` is the position's snapshot
    (the engine's ``State.snapshot()``, cards in the game's notation), which
    ``Game.restore(state, rng)`` turns back into a state to search from.  It tells the seat
    nothing its observation does not: it depends only on what the seat knows and on chance."""

    type: Literal["sample"] = "sample"
    v: Version = PROTOCOL_VERSION
    id: int
    seq: int
    seat: int
    state: dict[str, Any]


ServerMessage = Annotated[
    Welcome
    | TableMsg
    | StateMsg
    | Ack
    | ErrorMsg
    | Ping
    | ChatOut
    | RematchOut
    | SampleOut
    | SeatLinkOut,
    Field(discriminator="type"),
]
"""Every message the server sends."""

server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)

# --- REST bodies -------------------------------------------------------------------------------


class SeatSpec(Message):
    """A seat of a new table: ``open`` for a person, a ``bot`` (spec or level), or ``closed``
    (left out of the game)."""

    kind: Literal["open", "bot", "closed"] = "open"
    bot: str | None = Field(default=None, max_length=200)


class CreateTable(Message):
    """``POST /api/tables``: a new table.

    ``players`` defaults to the game's count (or to the number of ``seats`` not closed).
    ``seats`` defaults to all open.  Unless ``sit`` is false the creator takes the first open
    seat under ``name``.  A table that is not ``public`` is not listed; its code is its key."""

    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=64)
    options: dict[str, Any] = {}
    seats: list[SeatSpec] | None = Field(default=None, max_length=64)
    public: bool = True
    timeout: TimeoutPolicy = TimeoutPolicy()
    name: str = "Host"
    sit: bool = True

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class CreatedTable(Message):
    """The new table, the host's token, and the creator's seat and seat token (if seated).
    Tokens are shown once: the server keeps only their hashes."""

    table: TableInfo
    host_token: str
    seat: int | None
    token: str | None


class JoinTable(Message):
    """``POST /api/tables/{code}/join``: take ``seat`` (default: the first open one)."""

    name: str
    seat: int | None = Field(default=None, ge=0, le=63)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class Joined(Message):
    """Your seat and its token (keep it: it gets the seat back after a disconnect)."""

    table: TableInfo
    seat: int
    token: str


class OptionForm(Message):
    """One shape a structured option's value takes: ``word`` alone, or ``word=N`` when
    ``number`` (N from ``minimum`` to ``maximum``, ``start`` offered first); ``help`` says it
    in words."""

    word: str
    help: str
    number: bool
    minimum: int
    maximum: int
    start: int


class OptionInfo(Message):
    """One option of a game: its default, the values allowed (in words) and what it does;
    ``forms``, for a structured option, the shapes its value takes (``rounds=3``)."""

    default: Any
    allowed: str
    help: str
    forms: list[OptionForm] | None = None


class BotParam(Message):
    """One parameter of a bot spec (``name:param=value``): its default and what it does."""

    default: Any
    help: str


class BotInfo(Message):
    """A bot a game can be played by: its spec name, a line on it and its parameters."""

    name: str
    summary: str
    params: dict[str, BotParam]


class GameInfo(Message):
    """A game for the lobby: its description, options, bots, and the levels (level name: the
    bot spec it stands for)."""

    id: str
    title: str
    summary: str
    players: list[int] = Field(description="The fewest and the most players.")
    default_players: int
    real_time: bool
    rules_version: int
    options: dict[str, OptionInfo]
    bots: list[BotInfo]
    levels: dict[str, str]
    rules: str


class RecordSummary(Message):
    """A stored game, for listings."""

    id: int
    table: str
    game: str
    players: int
    created: str
    outcome: Outcome | None
    public: bool = Field(
        default=True,
        description="False for a private table's game: listed and readable only with a seat "
        "token or the host token of its table (header X-Ratgames-Token).",
    )


class ProblemDetail(Message):
    """The body of every REST error: what was wrong, in a sentence."""

    detail: str


SOMETIMES_SENT: dict[str, tuple[str, ...]] = {"StateMsg": ("events_kept",)}
"""Fields of server messages that the server leaves out when they do not apply (the others
are always sent)."""

INCOMING: tuple[type[Message], ...] = (
    Hello,
    ActionMsg,
    Pong,
    ChatMsg,
    Start,
    SeatChange,
    FillBots,
    Rematch,
    Leave,
    SampleRequest,
    Reissue,
    CreateTable,
    JoinTable,
)
"""What clients send: the schema says what they may leave out (its defaults)."""

OUTGOING: tuple[type[Message], ...] = (
    Welcome,
    TableMsg,
    StateMsg,
    Ack,
    ErrorMsg,
    Ping,
    ChatOut,
    RematchOut,
    SampleOut,
    SeatLinkOut,
    CreatedTable,
    Joined,
    GameInfo,
    RecordSummary,
)
"""What the server sends: the schema says what every one of them holds."""


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, client and server, and the lobby's bodies.

    A part used both ways (``TimeoutPolicy``: a request may leave out a field that every
    answer holds) has two definitions, ``-Input`` and ``-Output``."""
    adapters: list[tuple[str, Any, TypeAdapter[Any]]] = [
        ("ClientMessage", "validation", client_message),
        ("ServerMessage", "serialization", server_message),
    ]
    adapters += [(m.__name__, "validation", TypeAdapter(m)) for m in INCOMING]
    adapters += [(m.__name__, "serialization", TypeAdapter(m)) for m in OUTGOING]
    tops, defs = TypeAdapter.json_schemas(adapters, ref_template="#/$defs/{model}")
    definitions: dict[str, Any] = dict(defs["$defs"])
    for (name, _), top in tops.items():
        if name in ("ClientMessage", "ServerMessage"):
            definitions[name] = top
    for name, fields in SOMETIMES_SENT.items():
        model = definitions[name]
        model["required"] = [f for f in model["required"] if f not in fields]
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ratgames online protocol",
        "description": (
            f"Protocol version {PROTOCOL_VERSION}. 'ClientMessage' is every message a client may "
            "send on the WebSocket, 'ServerMessage' every message the server sends; the other "
            "definitions are their parts and the REST bodies. A message the server sends holds "
            "every field its definition lists as required."
        ),
        "$defs": definitions,
    }
    return schema
