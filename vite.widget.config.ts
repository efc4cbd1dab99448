// The storefront age-gate widget: one classic script (IIFE), no CSS file (its styles live in its
// Shadow DOM), built to out/widget/age-gate.js and served by the service at /widget/age-gate.js
// (src-main/service/http/static.ts serveWidget). Run by `npm run build` and by scripts/serve.mjs.
// It imports only types from the contract (src-shared/contracts/age-gate.ts): zod would make the
// script several times larger, so the few fields it reads are checked by hand (widget/rules.ts).
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: resolve(import.meta.dirname, 'out/widget'),
    emptyOutDir: true,
    minify: true,
    target: 'es2020',
    cssCodeSplit: false,
    lib: {
      entry: resolve(import.meta.dirname, 'src-renderer/widget/age-gate.ts'),
      formats: ['iife'],
      name: 'ComplianceConsoleAgeGate',
      fileName: () => 'age-gate.js',
    },
  },
});
