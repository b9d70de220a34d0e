import { describe, expect, it } from "vitest";
import { actionsFor, cageable, cageFor, phasePrompt, playable } from "../src/games/caged";
import { lookingAt, parseSwap, prompt, slotAction, swapAction, visibleCard } from "../src/games/ratatatcat";
import { discardable, hints, nextDiscard, playsFor } from "../src/games/rats";
import { aimedPile, challengeText, noteShown, pressSlap, type Shown, slapAction, slapVerdict } from "../src/games/ratscrew";

describe("Rat-a-Tat Cat", () => {
  const deal = { kind: "deal", round: 1, dealer: 2, first_discard: "7" };

  it("shows the outer cards after the deal until your own next move", () => {
    expect([...lookingAt([deal], 0, true)]).toEqual([0, 3]);
    expect([...lookingAt([deal, { kind: "draw", seat: 1 }], 0, true)]).toEqual([0, 3]);
    expect([...lookingAt([deal, { kind: "draw", seat: 0 }], 0, true)]).toEqual([]);
  });

  it("shows a peeked card, and the card a swap brings you only with swap_look", () => {
    const peek = [deal, { kind: "power", seat: 0, card: "PEEK" }, { kind: "peek", seat: 0, slot: 3 }];
    expect([...lookingAt(peek, 0, true)]).toEqual([2]);
    const swap = [deal, { kind: "swap", seat: 1, slot: 2, other: 0, other_slot: 4 }];
    expect([...lookingAt(swap, 0, true)]).toEqual([3]);
    expect([...lookingAt(swap, 0, false)]).toEqual([0, 3]);
    expect([...lookingAt(peek, null, true)]).toEqual([]);
  });

  it("hides a known card unless you look at it, it lies face up, the memory aid is on or the game is over", () => {
    const obs = {
      seat: 0,
      over: false,
      options: { memory_aid: false },
      slots: [["3", "5", null, "9"], [null, "2", null, null]],
      face_up: [[false, false, false, false], [false, true, false, false]],
    };
    const looking = new Set([0]);
    expect(visibleCard(obs, 0, 0, looking)).toBe("3");
    expect(visibleCard(obs, 0, 1, looking)).toBeNull();
    expect(visibleCard(obs, 0, 2, looking)).toBeNull();
    expect(visibleCard(obs, 1, 1, looking)).toBe("2");
    expect(visibleCard({ ...obs, options: { memory_aid: true } }, 0, 1, looking)).toBe("5");
    expect(visibleCard({ ...obs, over: true }, 0, 3, new Set())).toBe("9");
  });

  it("reads the slot and swap actions", () => {
    expect(parseSwap("swap 2 3:4")).toEqual({ mine: 1, seat: 2, slot: 3 });
    expect(swapAction({ mine: 1, seat: 2, slot: 3 })).toBe("swap 2 3:4");
    expect(parseSwap("noswap")).toBeNull();
    expect(slotAction(["replace 1", "discard"], 0)).toBe("replace 1");
    expect(slotAction(["peek 3"], 2)).toBe("peek 3");
    expect(slotAction(["draw"], 0)).toBeNull();
    expect(prompt({ phase: "start", discard_top: "4" }, ["draw", "take"])).toContain("take the 4");
  });
});

describe("Rats", () => {
  const legal = ["5H 6H 7H", "7H 7S", "5H BJ RJ set", "5H BJ RJ run", "discard 2C", "discard 5H", "discard BJ"];

  it("matches chosen cards to legal plays in any order, with both readings of two jokers", () => {
    expect(playsFor(legal, ["7S", "7H"])).toEqual(["7H 7S"]);
    expect(playsFor(legal, ["RJ", "5H", "BJ"])).toEqual(["5H BJ RJ set", "5H BJ RJ run"]);
    expect(playsFor(legal, ["7H"])).toEqual([]);
    expect(playsFor(legal, [])).toEqual([]);
  });

  it("discards the lowest chosen card first", () => {
    expect(nextDiscard(legal, ["BJ", "5H", "2C"])).toBe("discard 2C");
    expect(nextDiscard(legal, ["AS"])).toBeNull();
    expect(discardable(legal)).toEqual(["2C", "5H", "BJ"]);
  });

  it("lists the plays that beat the trick, smallest first", () => {
    expect(hints(legal)).toEqual(["7H 7S", "5H 6H 7H", "5H BJ RJ set", "5H BJ RJ run"]);
  });
});

describe("Caged Rats", () => {
  it("offers the actions of a chosen card, face up or face down", () => {
    expect(actionsFor(["top QS", "throw QS", "throw 2C"], "QS")).toEqual([
      { action: "top QS", label: "Top with QS (face up)" },
      { action: "throw QS", label: "Throw QS face down" },
    ]);
    expect(playable(["offer 4C", "bid 9S", "feed 1"])).toEqual(new Set(["4C", "9S"]));
  });

  it("cages two chosen cards written lower card first", () => {
    const legal = ["cage 5H 9D", "cage 5H KH"];
    expect(cageFor(legal, ["9D", "5H"])).toBe("cage 5H 9D");
    expect(cageFor(legal, ["9D"])).toBeNull();
    expect(cageable(legal)).toEqual(new Set(["5H", "9D", "KH"]));
    expect(phasePrompt({ phase: "cage" }, legal)).toContain("Cage two rats");
  });
});

describe("Egyptian Ratscrew", () => {
  it("finds the slap and the verdict on your own slap", () => {
    expect(slapAction(["play", "slap@17"])).toBe("slap@17");
    expect(slapAction(["play"])).toBeNull();
    const events = [
      { event: { kind: "play", seat: 1, card: "4D" }, text: "Bob plays 4D." },
      { event: { kind: "late_slap", seat: 0 }, text: "You slap too late (no penalty)." },
    ];
    expect(slapVerdict(events, 0)).toEqual({ status: "late", text: "You slap too late (no penalty)." });
    expect(slapVerdict(events, 1)).toBeNull();
    expect(slapVerdict([{ event: { kind: "bad_slap", seat: 1, burned: 1 }, text: null }], 1)?.status).toBe("bad");
  });

  it("aims a press at the pile that was on the screen 100 ms before it", () => {
    // pile 6 (a double, 3 cards) drawn at 1000 ms; somebody takes it: pile 7 (empty) at 1500 ms
    let history: Shown[] = [];
    history = noteShown(history, 6, 1000, 3);
    history = noteShown(history, 6, 1200, 3); // the same pile drawn again keeps its first moment
    history = noteShown(history, 7, 1500, 0);
    expect(history).toEqual([
      { version: 6, at: 1000, cards: 3 },
      { version: 7, at: 1500, cards: 0 },
    ]);
    for (const after of [0, 20, 50, 90]) {
      expect(aimedPile(history, 1500 + after)?.version).toBe(6);
      // the loser of the race slaps the pile they saw, with the moment they saw it: too late
      expect(pressSlap(history, 1500 + after, "slap@7", -1)).toEqual({ action: "slap@6", version: 6, seenAt: 1000 });
    }
    expect(aimedPile(history, 1600)?.version).toBe(7);
    // long enough to see the empty pile: the press is held back (it could only cost a card)
    expect(pressSlap(history, 1650, "slap@7", -1)).toEqual({ held: "The pile is empty: nothing to slap." });
    // pile 6 already slapped: no second slap at it
    expect(pressSlap(history, 1520, "slap@7", 6)).toEqual({ held: "You already slapped this pile." });
    // a pile with cards seen long enough: slapped as it is
    history = noteShown(history, 8, 2000, 1);
    expect(pressSlap(history, 2150, "slap@8", 6)).toEqual({ action: "slap@8", version: 8, seenAt: 2000 });
    expect(aimedPile([], 5)).toBeNull();
    // a pile drawn less than 100 ms before the first press the page knows of: the first one
    expect(aimedPile([{ version: 3, at: 100, cards: 2 }], 150)?.version).toBe(3);
    expect(noteShown(Array.from({ length: 40 }, (_, i) => ({ version: i, at: i, cards: 1 })), 40, 40, 1)).toHaveLength(32);
  });

  it("says who must answer a challenge", () => {
    const view = { seat: 0, phase: "play", challenge: { by: 1, card: "KC", chances_left: 2, answering: 0 } };
    expect(challengeText(view, ["Ann", "Bob"])).toBe("Challenge: KC by Bob; Ann (you) has 2 chances to play a face card.");
    expect(challengeText({ ...view, phase: "collect", collector: 1 }, ["Ann", "Bob"])).toContain("Bob has won the pile");
  });
});
