// The banners each panel shows when its socket closes (docs/product.md#discussions-errors), row by row: the close code,
// whether the reconnects ran out, and what was already wrong (a socket error or time-out remembered before the close,
// the banner shown).
import { describe, expect, it } from 'vitest';
import {
  hybridCloseBanner,
  isHybridFailedClose,
  isQuietStandardClose,
  standardCloseBanner,
  type BannerState,
} from '../../src/model/connectionProblems';
import { DISCUSSION_MESSAGES as M } from '../../src/schemas/messages';

const clear: BannerState = { error: null, pendingProblem: null };
const shown: BannerState = { error: 'Invalid token', pendingProblem: null };
const pending: BannerState = {
  error: null,
  pendingProblem: 'Connection error. Please check your network and try again.',
};
const close = (code: number, gaveUp = false, reason = '') => ({ code, reason, gaveUp, endpointName: 'Enhanced' });

describe('standard panel', () => {
  const rows: [string, ReturnType<typeof close>, BannerState, string | null, boolean][] = [
    ['1000 with nothing wrong ends quietly', close(1000), clear, null, true],
    ['1001 keeps the banner shown', close(1001), shown, 'Invalid token', true],
    ['1008 is an auth failure, whatever came before', close(1008), pending, M.authFailed, false],
    ['1002 is an auth failure', close(1002), clear, M.authFailed, false],
    [
      '1006 after the reconnects ran out: connection lost',
      close(1006, true),
      pending,
      M.connectionLost('Enhanced'),
      false,
    ],
    ['1006 on the first connect keeps the socket error', close(1006), pending, pending.pendingProblem, false],
    ['1011 with its reason', close(1011, false, 'boom'), clear, M.closedUnexpectedly(1011, 'boom'), false],
    ['1000 after a socket error is a failure', close(1000), pending, pending.pendingProblem, false],
    [
      "1013 (a limit) shows the server's sentence as it is",
      close(1013, false, 'At most 12 agents may take part.'),
      clear,
      'At most 12 agents may take part.',
      false,
    ],
    ['1013 without a sentence says to try again later', close(1013), clear, M.tryAgainLater, false],
    [
      '1012 after the re-attaches ran out: connection lost',
      close(1012, true),
      clear,
      M.connectionLost('Enhanced'),
      false,
    ],
    [
      '1001 after the re-attaches ran out: connection lost',
      close(1001, true),
      clear,
      M.connectionLost('Enhanced'),
      false,
    ],
  ];
  for (const [name, facts, state, banner, quiet] of rows) {
    it(name, () => {
      expect(standardCloseBanner(facts, state)).toBe(banner);
      expect(isQuietStandardClose(facts, state)).toBe(quiet);
    });
  }
});

describe('hybrid panel', () => {
  const rows: [string, ReturnType<typeof close>, BannerState, string | null, boolean][] = [
    ['1000 ends with the banner as it was', close(1000), shown, 'Invalid token', false],
    ['1001 ends', close(1001), clear, null, false],
    [
      'reconnects ran out: connection lost to the hybrid endpoint',
      close(1006, true),
      pending,
      M.connectionLost('Hybrid NLP/ACL'),
      true,
    ],
    ['a socket error before the close is what shows', close(1006), pending, pending.pendingProblem, true],
    ['1008 is an auth failure', close(1008), clear, M.authFailed, true],
    ['1011 with its reason', close(1011, false, 'boom'), clear, M.closedUnexpectedly(1011, 'boom'), true],
    [
      "1013 (a limit) shows the server's sentence as it is",
      close(1013, false, 'You already have 5 discussions running.'),
      clear,
      'You already have 5 discussions running.',
      true,
    ],
  ];
  for (const [name, facts, state, banner, failed] of rows) {
    it(name, () => {
      expect(hybridCloseBanner(facts, state)).toBe(banner);
      expect(isHybridFailedClose(facts.code, state)).toBe(failed);
    });
  }
});
