import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev` has no pmcd bridge of its own: /pmcd (the WebSocket and GET /pmcd/targets) and
// /pmproxy/… (serve's pmproxy proxy, with --pmproxy) are proxied to a running `pmdash serve`,
// PMDASH_DEV_BRIDGE (default http://localhost:8044).
// Host is passed on unchanged (no changeOrigin), so the bridge's Origin check sees the dev
// server's origin in both headers (README.md "Live pmcd: the bridge").
const devBridge = process.env.PMDASH_DEV_BRIDGE ?? 'http://localhost:8044';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '^/pmcd(/|\\?|$)': { target: devBridge, ws: true },
      '^/pmproxy(/|\\?|$)': { target: devBridge },
    },
  },
  build: { outDir: 'dist/app', emptyOutDir: true, sourcemap: true },
  worker: { format: 'es' },
});
