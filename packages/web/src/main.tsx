import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./styles.css";
// Imported for its side effect first: the stored theme is on <html> before the first paint of React.
import "./session/themeStore";
import { App } from "./App";

const container = document.getElementById("root");
if (!container) throw new Error('index.html must contain <div id="root">');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
