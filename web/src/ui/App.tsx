import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { parseRoute } from "../route";
import { Memory } from "../storage";
import { Ctx } from "./context";
import { Lobby } from "./Lobby";
import { ReplayList, ReplayView } from "./Replays";
import { TablePage } from "./TablePage";

export function App(): JSX.Element {
  const memory = useMemo(() => new Memory(), []);
  const [loc, setLoc] = useState({ path: location.pathname, search: location.search });
  const [fourColour, setFourColour] = useState(memory.fourColour);

  useEffect(() => {
    const onPop = () => setLoc({ path: location.pathname, search: location.search });
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  const navigate = (to: string) => {
    history.pushState(null, "", to);
    const u = new URL(to, location.href);
    setLoc({ path: u.pathname, search: u.search });
    window.scrollTo(0, 0);
  };

  const route = parseRoute(loc.path, loc.search);
  const link = (to: string) => (ev: MouseEvent) => {
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    navigate(to);
  };

  let page: JSX.Element;
  switch (route.page) {
    case "lobby":
      page = <Lobby />;
      break;
    case "table":
      page = <TablePage key={route.code} code={route.code} />;
      break;
    case "replays":
      page = <ReplayList />;
      break;
    case "replay":
      page = <ReplayView key={`${route.id}`} id={route.id} seat={route.seat} />;
      break;
    default:
      page = (
        <main class="page">
          <h1>Not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <a href="/" onClick={link("/")}>Back to the lobby</a>
          </p>
        </main>
      );
  }

  return (
    <Ctx.Provider value={{ memory, fourColour, navigate }}>
      <header class="top">
        <a class="brand" href="/" onClick={link("/")}>
          <span aria-hidden="true">♥♠</span> ratgames
        </a>
        <nav aria-label="Main">
          <a href="/" onClick={link("/")} aria-current={route.page === "lobby" ? "page" : undefined}>
            Play
          </a>
          <a
            href="/replays"
            onClick={link("/replays")}
            aria-current={route.page === "replays" || route.page === "replay" ? "page" : undefined}
          >
            Replays
          </a>
          <label class="toggle">
            <input
              type="checkbox"
              checked={fourColour}
              onChange={(e) => {
                const on = (e.currentTarget as HTMLInputElement).checked;
                memory.fourColour = on;
                setFourColour(on);
              }}
            />
            4-colour deck
          </label>
        </nav>
      </header>
      {page}
    </Ctx.Provider>
  );
}
