// One build for the three rooms: the Electron main process (shell + the service it forks),
// the sandboxed preload, and the console renderer. `npm run serve` serves out/renderer too.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { BUNDLED_DEPS } from './scripts/bundled-deps.mjs';

// Ties the screening snapshot to the code that made it: the service restores only a snapshot
// whose id is the one compiled into its own bundle (src-main/service/core/screening/snapshot.ts).
const SCREENING_BUILD_ID = randomUUID();

/** After the main bundle is written, runs its snapshot-build entry to write the snapshot beside it. */
function screeningSnapshot(): Plugin {
  return {
    name: 'screening-snapshot',
    apply: 'build',
    closeBundle() {
      const r = spawnSync(process.execPath, [resolve(__dirname, 'out/main/snapshot-build.js')], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error('writing the screening snapshot failed');
    },
  };
}

export default defineConfig({
  main: {
    define: { __SCREENING_BUILD_ID__: JSON.stringify(SCREENING_BUILD_ID) },
    plugins: [screeningSnapshot()],
    build: {
      outDir: 'out/main',
      // Dependencies stay in node_modules (native ones must), except the pure-JS libraries every
      // start loads (scripts/bundled-deps.mjs).
      externalizeDeps: { exclude: BUNDLED_DEPS },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          service: resolve(__dirname, 'src-main/service/main.ts'),
          'screening-worker': resolve(__dirname, 'src-main/service/workers/screening-worker.ts'),
          'faces-worker': resolve(__dirname, 'src-main/service/workers/faces-worker.ts'),
          'document-reader': resolve(__dirname, 'src-main/service/workers/document-reader.ts'),
          'export-worker': resolve(__dirname, 'src-main/service/workers/export-worker.ts'),
          'snapshot-build': resolve(__dirname, 'src-main/service/snapshot-build.ts'),
          // The admin CLI, built once: tests and scripts run it with node, not through tsx per call.
          cli: resolve(__dirname, 'src-main/service/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: {
          preload: resolve(__dirname, 'src-main/shell/preload.ts'),
          // The connect page's own preload: `window.connect`, four channels (connect-window.ts).
          'connect-preload': resolve(__dirname, 'src-main/shell/connect-preload.ts'),
        },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer/console'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      // The console loads from this disk (or the team server's LAN), not over the internet: its
      // ~1 MB entry and the API reference's ~1.4 MB Swagger UI chunk (already split off, loaded
      // on that page only) are not worth a warning in every build's output.
      chunkSizeWarningLimit: 1600,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-renderer/console/index.html'),
          // The desktop app's "run here or connect" page, served by the shell before any service runs.
          connect: resolve(__dirname, 'src-renderer/console/connect.html'),
        },
      },
    },
  },
});
