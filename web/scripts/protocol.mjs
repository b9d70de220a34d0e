// Writes src/protocol.ts, the TypeScript types of the server's protocol, from its JSON Schema
// (docs/protocol.schema.json, made from the server's pydantic models):
//   npm run protocol           write src/protocol.ts
//   npm run protocol -- --check   fail if src/protocol.ts is not what it would write
// Every definition of the schema becomes an exported type of the same name ("-Input" and
// "-Output" run together: TimeoutPolicyInput); a few aliases keep the client's shorter names.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compile } from "json-schema-to-typescript";

const web = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const schemaPath = resolve(web, "../docs/protocol.schema.json");
const outPath = resolve(web, "src/protocol.ts");

const HEADER = `// The messages of the server's protocol (docs/protocol.md) as TypeScript types, made by
// scripts/protocol.mjs from docs/protocol.schema.json (itself made from the server's models):
// do not edit; run \`npm run protocol\` after the schema changes.
`;

const ALIASES = `
/** Every message the server sends. */
export type ServerMsg = ServerMessage;
export type WelcomeMsg = Welcome;

/** Types of the browser client's own endpoints and helpers, not in the server's schema. */
export type { Json, Obj, Replay, ReplayStep } from "./client-types";
`;

/** A copy of a schema node without the titles pydantic gives each field (which would each
 * become a type of their own) and without defaults (a default beside a $ref makes a copy of
 * the type), each definition titled by its name. */
function clean(node, name) {
  if (Array.isArray(node)) return node.map((n) => clean(n));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "title" || key === "discriminator" || key === "default") continue;
    if (key === "$defs" || key === "properties") {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, clean(v, key === "$defs" ? k : undefined)]),
      );
    } else {
      out[key] = clean(value);
    }
  }
  if (name !== undefined) out.title = name.replace(/-/g, "");
  return out;
}

export async function protocolTypes() {
  const schema = clean(JSON.parse(readFileSync(schemaPath, "utf8")));
  const names = Object.keys(schema.$defs).sort();
  // A root that names every definition, so that each is written (the root itself is dropped).
  const root = {
    $schema: schema.$schema,
    title: "ProtocolRoot",
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { $ref: `#/$defs/${n}` }])),
    required: names,
    additionalProperties: false,
    $defs: schema.$defs,
  };
  const made = await compile(root, "ProtocolRoot", {
    bannerComment: "",
    unknownAny: false,
    additionalProperties: false,
    strictIndexSignatures: false,
    format: true,
    style: { printWidth: 100, singleQuote: false, trailingComma: "all" },
  });
  const body = made.replace(/export interface ProtocolRoot \{[^}]*\}\n*/s, "");
  return HEADER + "\n" + body.trim() + "\n" + ALIASES;
}

/** The text of src/protocol.ts now, and what it should be. */
export async function protocolFile() {
  return { now: readFileSync(outPath, "utf8"), made: await protocolTypes() };
}

async function main() {
  const text = await protocolTypes();
  if (process.argv.includes("--check")) {
    if (readFileSync(outPath, "utf8") !== text) {
      console.error(
        "src/protocol.ts is not what docs/protocol.schema.json makes: run npm run protocol",
      );
      process.exit(1);
    }
    console.log("src/protocol.ts is up to date");
  } else {
    writeFileSync(outPath, text);
    console.log(`wrote ${outPath}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
