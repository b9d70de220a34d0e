// The client is built into the Python package (src/ratgames/webclient/static) with fixed file
// names, so that a rebuild of the same sources gives the same bytes and CI can compare them.
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "../src/ratgames/webclient/static",
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        entryFileNames: "assets/app.js",
        chunkFileNames: "assets/[name].js",
        assetFileNames: "assets/[name][extname]",
      },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
