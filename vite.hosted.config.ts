// The hosted verification page: its own small bundle (React, zod and the hosted contract), built
// to out/hosted and served by the service at /hosted/v/:token with its assets under
// /hosted/assets/ (src-main/service/http/static.ts serveHosted). Run by `npm run build` and by
// scripts/serve.mjs after electron-vite, which builds the console unchanged.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: resolve(import.meta.dirname, 'src-renderer/hosted'),
  base: '/hosted/',
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/hosted'),
    assetsDir: 'assets',
    emptyOutDir: true,
    minify: true,
    // No inline module-preload polyfill script: the page's CSP allows scripts from its origin only.
    modulePreload: { polyfill: false },
    rollupOptions: { input: resolve(import.meta.dirname, 'src-renderer/hosted/index.html') },
  },
});
