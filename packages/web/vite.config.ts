import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { reportInitialJs } from "./build/reportInitialJs.js";

// The API server loads this file in middleware mode from the repo root, so the root must not
// depend on the working directory.
const webRoot = fileURLToPath(new URL(".", import.meta.url));

/** Vendor groups that every screen needs; anything else (zod, screen code) splits per route. */
const vendorChunks = [
  { name: "react", test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: "router", test: /[\\/]node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/ },
  { name: "query", test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
  { name: "toast", test: /[\\/]node_modules[\\/](react-hot-toast|goober)[\\/]/ },
];

export default defineConfig({
  root: webRoot,
  plugins: [
    react(),
    tailwindcss(),
    // Prints the initial JS of the marketing routes after a build; /landing must stay <= 150 kB gzip.
    reportInitialJs({
      routes: [
        { path: "/landing", module: "src/routes/LandingPage.tsx", budgetKb: 150 },
        { path: "/", module: "src/routes/HomePage.tsx" },
      ],
    }),
  ],
  resolve: {
    // @tanstack/react-query is hoisted to the repo root, next to the React 18 that sst's CLI
    // pulls in; without dedupe the bundle would carry two Reacts and hooks would break.
    dedupe: ["react", "react-dom"],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: vendorChunks },
      },
    },
  },
});
