import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The Studio is served by the API at /studio (api/http/studio): its hashed files under
// /studio/bundle/ are cached for a year, index.html never. (/studio/assets is the media screen.)
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/studio/',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', '..', 'dist', 'studio'),
    emptyOutDir: true,
    assetsDir: 'bundle',
    // the CSP allows no inline script: the module preload helper stays in a file
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 800,
  },
});
