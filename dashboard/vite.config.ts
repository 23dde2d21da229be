import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** Where `npm run dashboard:dev` sends every API call (the service started by `npm start`). */
const api = process.env.DASHBOARD_API_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  base: "/dashboard/",
  plugins: [react()],
  // The SDK's source, not its build: the dashboard builds (and type-checks) without building the SDK first.
  resolve: {
    alias: { "@payments-backend/sdk": fileURLToPath(new URL("../sdk/src/index.ts", import.meta.url)) },
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: {
    host: "127.0.0.1",
    port: 5173,
    // Everything outside /dashboard/ is the API (and the service's own settings file under it).
    proxy: {
      "^/(?!dashboard/)": { target: api, changeOrigin: false },
      "/dashboard/service.json": { target: api, changeOrigin: false },
    },
  },
});
