import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

const root = new URL('.', import.meta.url).pathname;

// Served by the API process under /studio (lib/studio/serve.ts); assets are content-hashed so the
// server can cache them for a year; each script and style also gets a brotli and a gzip copy.
export default defineConfig({
  root,
  base: '/studio/',
  plugins: [preact(), precompress()],
  build: {
    outDir: `${root}../dist/studio`,
    emptyOutDir: true,
    target: 'es2022',
    // The polyfill is only for browsers without module preload; it would be one more script.
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    chunkSizeWarningLimit: 700,
    // The timing report is for plugin authors; a build on a busy machine would print it every time.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
