// A game's options as form controls, from the lobby's description of each option
// (its default, the allowed values in words, and a help text).
import type { Json, OptionInfo } from "./protocol";

export type Control =
  | { kind: "bool" }
  | { kind: "choice"; choices: string[] }
  | { kind: "int"; min: number | null; max: number | null }
  | { kind: "text" };

export function controlFor(info: OptionInfo): Control {
  const allowed = info.allowed;
  if (typeof info.default === "boolean") return { kind: "bool" };
  const one = /^one of (.*)$/.exec(allowed);
  if (one) {
    const choices = one[1]
      .split(",")
      .map((s) => s.trim().replace(/^'|'$/g, ""))
      .filter(Boolean);
    if (choices.length) return { kind: "choice", choices };
  }
  if (typeof info.default === "number") {
    const range = /from (-?\d+) to (-?\d+)/.exec(allowed);
    const least = /at least (-?\d+)/.exec(allowed);
    return {
      kind: "int",
      min: range ? Number(range[1]) : least ? Number(least[1]) : null,
      max: range ? Number(range[2]) : null,
    };
  }
  return { kind: "text" };
}

/** The value of a control as the API takes it (numbers as numbers for numeric defaults). */
export function optionValue(info: OptionInfo, raw: string | boolean): Json {
  if (typeof raw === "boolean") return raw;
  if (typeof info.default === "number" && /^-?\d+$/.test(raw.trim())) return Number(raw.trim());
  return raw;
}

/** Only the options that differ from their defaults. */
export function changedOptions(
  infos: Record<string, OptionInfo>,
  values: Record<string, Json>,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, value] of Object.entries(values)) {
    const info = infos[name];
    if (info && value !== info.default) out[name] = value;
  }
  return out;
}
