import { createContext } from "preact";
import { Memory } from "../storage";

export interface AppContext {
  memory: Memory;
  fourColour: boolean;
  navigate: (path: string) => void;
}

export const Ctx = createContext<AppContext>({
  memory: new Memory(null),
  fourColour: false,
  navigate: () => {},
});

/** Is this key press meant for a text field (so game keys must leave it alone)? */
export function typing(ev: KeyboardEvent): boolean {
  const t = ev.target as HTMLElement | null;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return true;
  if (!t || !t.tagName) return false;
  return t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable;
}
