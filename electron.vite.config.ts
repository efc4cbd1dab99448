// One build for the three rooms: the Electron main process (shell + the service it forks),
// the sandboxed preload, and the console renderer. `npm run serve` serves out/renderer too.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          service: resolve(__dirname, 'src-main/service/main.ts'),
          'screening-worker': resolve(__dirname, 'src-main/service/workers/screening-worker.ts'),
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
        input: { preload: resolve(__dirname, 'src-main/shell/preload.ts') },
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
      rollupOptions: { input: resolve(__dirname, 'src-renderer/console/index.html') },
    },
  },
});
