/**
 * The console is a static bundle the broker serves at /console/. `npm run dev` serves it with hot
 * reload and forwards the API to a broker on 127.0.0.1:8080 (start one with `npm start`).
 */
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const broker = "http://127.0.0.1:8080";

export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The broker's CSP allows no inline script or style: keep every asset a file.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    proxy: { "/v1": broker, "/health": broker },
  },
});
