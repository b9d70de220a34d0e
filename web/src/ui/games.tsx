import type { JSX } from "preact";
import type { Refusal } from "../model";
import type { StateMsg } from "../protocol";
import { CagedRatsTable } from "./games/CagedRats";
import { RatATatCatTable } from "./games/RatATatCat";
import { RatsTable } from "./games/Rats";
import { RatscrewTable } from "./games/Ratscrew";

export interface GameProps {
  state: StateMsg;
  names: string[];
  /** Send an action; its id, or null if it could not be sent. */
  act: (action: string, times?: { pressed_at: number; seen_at: number | null }) => number | null;
  fourColour: boolean;
  rtt: number | null;
  refusal: Refusal | null;
  pending: boolean;
  /** False in a replay: nothing can be clicked. */
  live: boolean;
}

export function GameView(p: GameProps & { game: string }): JSX.Element {
  switch (p.game) {
    case "rat-a-tat-cat":
      return <RatATatCatTable {...p} />;
    case "egyptian-ratscrew":
      return <RatscrewTable {...p} />;
    case "rats":
      return <RatsTable {...p} />;
    case "caged-rats":
      return <CagedRatsTable {...p} />;
    default:
      return <pre>{JSON.stringify(p.state.observation ?? p.state.view, null, 1)}</pre>;
  }
}
