import { describe, expect, it } from "vitest";
import { cardName, cardOrder, cardShort, cardsIn, parseCard, sortCards, suitInk, withSuitSymbols } from "../src/cards";

describe("cards", () => {
  it("writes the cards in a log line with suit symbols", () => {
    expect(withSuitSymbols("You play 4H")).toBe("You play 4♥");
    expect(withSuitSymbols("Seat 2 leads AH AS; Black cages 10D and RJ")).toBe("Seat 2 leads A♥ A♠; Black cages 10♦ and Joker");
    expect(withSuitSymbols("the discard pile starts with 6; ASK 4HX")).toBe("the discard pile starts with 6; ASK 4HX");
  });

  it("parses standard cards, jokers and Rat-a-Tat Cat cards", () => {
    expect(parseCard("10H")).toMatchObject({ kind: "standard", rank: "10", suit: "H" });
    expect(parseCard("qs")).toMatchObject({ kind: "standard", rank: "Q", suit: "S" });
    expect(parseCard("BJ")).toMatchObject({ kind: "joker", order: 52 });
    expect(parseCard("7")).toMatchObject({ kind: "rat", value: 7 });
    expect(parseCard("DRAW2")).toMatchObject({ kind: "rat", value: null });
    expect(parseCard("1H")).toBeNull();
    expect(parseCard("XX")).toBeNull();
  });

  it("orders cards as the engine does: rank first, then clubs < diamonds < hearts < spades, jokers last", () => {
    expect(cardOrder("2C")).toBe(0);
    expect(cardOrder("AS")).toBe(51);
    expect(sortCards(["RJ", "AS", "2D", "2C", "10H", "BJ"])).toEqual(["2C", "2D", "10H", "AS", "BJ", "RJ"]);
  });

  it("names cards for screen readers and shows suit symbols", () => {
    expect(cardName("QS")).toBe("queen of spades");
    expect(cardName("10H")).toBe("10 of hearts");
    expect(cardName("RJ")).toBe("red joker");
    expect(cardName("PEEK")).toBe("Peek power card");
    expect(cardShort("10H")).toBe("10♥");
  });

  it("draws suits in two colours, or four with the four-colour deck", () => {
    expect(["C", "D", "H", "S"].map((s) => suitInk(s as any, false))).toEqual(["black", "red", "red", "black"]);
    expect(["C", "D", "H", "S"].map((s) => suitInk(s as any, true))).toEqual(["green", "blue", "red", "black"]);
  });

  it("finds the cards of an action's notation", () => {
    expect(cardsIn("5H BJ RJ run")).toEqual(["5H", "BJ", "RJ"]);
    expect(cardsIn("discard 2c")).toEqual(["2C"]);
    expect(cardsIn("swap 1 2:3")).toEqual([]);
  });
});
