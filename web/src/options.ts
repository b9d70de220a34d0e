// A game's options as form controls, from the lobby's description of each option
// (its default, the allowed values in words, and a help text).
import type { Json, OptionForm, OptionInfo } from "./protocol";

export type Control =
  | { kind: "bool" }
  | { kind: "choice"; choices: string[] }
  | { kind: "int"; min: number | null; max: number | null }
  | { kind: "forms"; forms: OptionForm[] }
  | { kind: "text" };

export function controlFor(info: OptionInfo): Control {
  const allowed = info.allowed;
  if (typeof info.default === "boolean") return { kind: "bool" };
  if (info.forms?.length) return { kind: "forms", forms: info.forms };
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

/** A structured value ("rounds=3", "round") split into its form and number; a value that fits
 * no form is read as the first form (with the number it starts at). */
export function splitForm(forms: OptionForm[], value: Json): { form: OptionForm; n: number } {
  const [word, number] = String(value).split("=");
  const form = forms.find((f) => f.word === word && f.number === (number !== undefined)) ?? forms[0];
  const n = form.number && number !== undefined && /^\d+$/.test(number) ? Number(number) : form.start;
  return { form, n };
}

/** A form and its number as the option's value: "rounds=3", or the word alone. */
export function joinForm(form: OptionForm, n: number): string {
  if (!form.number) return form.word;
  const kept = Number.isFinite(n) ? Math.min(form.maximum, Math.max(form.minimum, Math.round(n))) : form.minimum;
  return `${form.word}=${kept}`;
}
