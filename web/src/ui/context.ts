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

import { useEffect, useRef } from "preact/hooks";

/** Listen to key presses on the whole page with the handler of the latest render (so a key
 * pressed right after a click already sees what the click chose). */
export function useKeys(handler: (ev: KeyboardEvent) => void, active = true): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!active) return;
    const onKey = (ev: KeyboardEvent) => latest.current(ev);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active]);
}
