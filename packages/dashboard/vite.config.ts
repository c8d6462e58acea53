// dashboard: the Vite build. Preact through esbuild's automatic JSX runtime (no plugin needed); every byte bundled
// into dist/ (hashed files under assets/), nothing fetched from a CDN. `npm run dev -w @rivals/dashboard` serves it
// with hot reload and sends /api to a running `npm start` (RIVALS_URL, default http://127.0.0.1:3000).
import { defineConfig } from 'vite';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No data: URIs and no inline code: the Content-Security-Policy allows scripts from the origin only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: { host: '127.0.0.1', proxy: { '/api': process.env.RIVALS_URL ?? 'http://127.0.0.1:3000' } },
});
