import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { parseDemoAccounts } from './src/services/demoAccountsConfig.ts';

// The API and every socket live on the companion server (port 8000); the dev server proxies them
// so the SPA always talks to its own origin, exactly as in production.
const API_TARGET = process.env.AGORA_API ?? 'http://127.0.0.1:8000';
const httpPrefixes = [
  '/auth',
  '/agents',
  '/models',
  '/connections',
  '/monitor',
  '/health',
  '/debug',
  '/api',
  '/research',
  '/discussion',
  '/media',
  '/hybrid-discussion',
  '/system',
  '/model-connections',
  '/model-jobs',
];

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  // VITE_DEMO_ACCOUNTS checked with its schema here, once, so the browser needs no zod for it.
  define: {
    __AGORA_DEMO_ACCOUNTS__: JSON.stringify(
      parseDemoAccounts(loadEnv(mode, process.cwd(), 'VITE_').VITE_DEMO_ACCOUNTS, mode),
    ),
  },
  server: {
    port: 5173,
    proxy: {
      ...Object.fromEntries(httpPrefixes.map((p) => [p, { target: API_TARGET, changeOrigin: true, ws: true }])),
      '/ws': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    // Time-outs catch a hang, not slowness: on two busy cores (issue 21's runs under a CPU hog) starting a real
    // server (PGlite and its migrations) in a hook or a test took over 30 s.
    testTimeout: 60000,
    hookTimeout: 120000,
    pool: 'forks',
  },
}));
