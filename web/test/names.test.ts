import { describe, expect, it } from "vitest";
import { botName, distinct, seatWords, tableSeatNames } from "../src/ui/parts";

describe("seat names", () => {
  it("names bots by level, or by the name the server gives", () => {
    expect(botName("normal")).toBe("Normal bot");
    expect(botName("Expert")).toBe("Expert bot");
    expect(botName("Ratbot")).toBe("Ratbot (bot)");
    // a bot spec reads as its kind, not its settings
    expect(botName("heuristic:play_ms=3000,slap_ms=400")).toBe("Heuristic bot");
    expect(botName("normal:seed=3")).toBe("Normal bot");
    expect(botName("pimc:seconds=1.5,score=estimate")).toBe("Pimc bot");
    expect(botName("random")).toBe("Random bot");
    expect(botName(null)).toBe("Bot");
  });

  it("tells apart seats that share a name by their numbers", () => {
    const seats = [
      { kind: "person", name: "Ann" },
      { kind: "bot", name: "normal" },
      { kind: "bot", name: "normal" },
      { kind: "bot", name: "hard" },
      { kind: "open", name: null },
    ];
    const names = tableSeatNames(seats, 5, (i) => `Seat ${i + 1}`);
    expect(names).toEqual(["Ann", "Normal bot (seat 2)", "Normal bot (seat 3)", "Hard bot", "Open seat"]);
    expect(distinct(["Red", "Black"])).toEqual(["Red", "Black"]);
  });

  it("writes the seats' names into the game's sentences", () => {
    const seats = [{ kind: "person" }, { kind: "bot" }, { kind: "open" }];
    const names = ["Ann", "Easy bot", "Open seat"];
    expect(seatWords("Seat 1 leads 4♦; Seat 2 beats it; Seat 3 waits", seats, names)).toBe(
      "Ann leads 4♦; Easy bot beats it; Seat 3 waits",
    );
  });
});

describe("replay list", () => {
  it("says who won by name", async () => {
    const { wonBy } = await import("../src/ui/Replays");
    const listed = {
      id: 1,
      table: "K7QX2M",
      game: "rats",
      players: 3,
      created: "2026-01-01T10:00:00",
      public: true,
      outcome: { winners: [2], points: [0, 0, 1], places: [2, 2, 1], reason: "", capped: false, details: {} },
      seats: [
        { kind: "person", name: "Ann" },
        { kind: "bot", name: "easy" },
        { kind: "bot", name: "hard" },
      ],
    };
    expect(wonBy(listed)).toBe("won by Hard bot");
    expect(wonBy({ ...listed, seats: [], outcome: { ...listed.outcome, winners: [0, 1] } })).toBe("won by Seat 1 and Seat 2");
    expect(wonBy({ ...listed, game: "caged-rats", players: 2, seats: [], outcome: { ...listed.outcome, winners: [1] } })).toBe(
      "won by Black",
    );
  });
});
