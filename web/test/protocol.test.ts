// src/protocol.ts is what scripts/protocol.mjs makes from docs/protocol.schema.json now.
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain JavaScript module of the build scripts, without types
import { protocolFile } from "../scripts/protocol.mjs";

describe("the protocol's types", () => {
  it("are generated from the server's published schema (npm run protocol)", async () => {
    const { now, made } = (await protocolFile()) as { now: string; made: string };
    expect(now).toBe(made);
  });
});
