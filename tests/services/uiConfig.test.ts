import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_ACCOUNTS, parseDemoAccounts } from '../../src/services/demoAccountsConfig';
import { readUiConfig, socketBase } from '../../src/services/uiConfig';

describe('UI configuration, read at the edge', () => {
  it('takes VITE_DEMO_ACCOUNTS when it is a valid JSON list', () => {
    const accounts = [{ label: 'Mine', email: 'me@example.com', password: 'secret12' }];
    expect(parseDemoAccounts(JSON.stringify(accounts))).toEqual(accounts);
  });

  it('falls back to the defaults when it is missing, not JSON, or the wrong shape', () => {
    expect(parseDemoAccounts(undefined)).toBe(DEFAULT_DEMO_ACCOUNTS);
    expect(parseDemoAccounts('')).toBe(DEFAULT_DEMO_ACCOUNTS);
    expect(parseDemoAccounts('[{label:')).toBe(DEFAULT_DEMO_ACCOUNTS);
    expect(parseDemoAccounts(JSON.stringify([{ label: 'No password', email: 'a@b.c' }]))).toBe(DEFAULT_DEMO_ACCOUNTS);
  });

  it('offers no demo account in a production build unless the operator lists some', () => {
    const accounts = [{ label: 'Mine', email: 'me@example.com', password: 'secret12' }];
    expect(parseDemoAccounts(undefined, 'production')).toEqual([]);
    expect(parseDemoAccounts('[{label:', 'production')).toEqual([]);
    expect(parseDemoAccounts(JSON.stringify(accounts), 'production')).toEqual(accounts);
    expect(parseDemoAccounts(undefined, 'development')).toBe(DEFAULT_DEMO_ACCOUNTS);
  });

  it('derives the addresses from the page location', () => {
    expect(socketBase({ protocol: 'https:', host: 'agora.example' })).toBe('wss://agora.example');
    const config = readUiConfig({ DEV: true, MODE: 'development' } as ImportMetaEnv, {
      protocol: 'http:',
      host: 'localhost:5173',
      origin: 'http://localhost:5173',
    });
    expect(config).toEqual({
      isDev: true,
      environment: 'development',
      apiUrl: 'http://localhost:5173',
      socketUrl: 'ws://localhost:5173',
      host: 'localhost:5173',
      demoAccounts: DEFAULT_DEMO_ACCOUNTS,
    });
  });
});
