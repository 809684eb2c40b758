// Replay budgets (History → Replay), measured as the work the view does, in Node without a DOM:
//   - open: Replay pressed on an opened 2,000-turn hybrid discussion (3 agents, three frames around each turn):
//     the first moment's work before it can paint. Budget ≤ 300 ms. history_open is opening the discussion itself
//     (openedFrom: parse, fold, keep one feed per turn), which History did before the Replay button was shown.
//   - step: one Timeline step to a random turn: the moment's message ids, position story and the rows in view.
//     Budget: p95 ≤ 16.7 ms (one frame at 60 Hz).
// Figures only; nothing is asserted.
//
//   npm run bench -- replay        (REPLAY_TURNS / REPLAY_TRIALS to change)
import { performance } from 'node:perf_hooks';
import { openedFrom } from '../src/machines/kit/history';
import { selectItem, selectMessageIds } from '../src/model/feedSelectors';
import { selectPositionNow } from '../src/model/positionSelectors';
import type { StoredDiscussion } from '../src/schemas/history';
import type { Figures } from './run';

const TURNS = Number(process.env.REPLAY_TURNS ?? 2_000);
const TRIALS = Number(process.env.REPLAY_TRIALS ?? 7);
const AGENTS = ['Ada', 'Bo', 'Cy'];

function stored(): StoredDiscussion {
  const frames: StoredDiscussion['frames'] = [];
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const push = (data: Record<string, unknown>) => frames.push({ seq: frames.length, data, at: at(frames.length) });
  push({
    type: 'discussion_initialized',
    session_id: 'session_1',
    participants: AGENTS.map((n) => ({ id: n, name: n })),
    topic: 'Buses',
    max_rounds: 700,
  });
  const options = [
    { id: 'o1', label: 'Fare-free for residents' },
    { id: 'o2', label: 'Cheaper passes first' },
    { id: 'o3', label: 'Wait for a trial' },
  ];
  push({ type: 'positions', options });
  for (let t = 1; t <= TURNS; t++) {
    const agent = AGENTS[t % 3];
    if (t % 3 === 1) push({ type: 'round_start', round: Math.ceil(t / 3), max_rounds: Math.ceil(TURNS / 3) });
    push({ type: 'agent_status', agent_id: agent, agent_name: agent, status: 'thinking' });
    push({
      type: 'agent_message',
      id: `m${t}`,
      agent_id: agent,
      agent_name: agent,
      agent_role: 'Planner',
      message_type: 'hybrid',
      content: `Turn ${t}: ${agent} weighs the fares, the passes and the trial once more, and says why in two sentences.`,
      confidence: 0.5 + ((t * 7) % 50) / 100,
      reasoning_chain: ['because'],
      position: options[(t >> 4) % 3].label,
      option_id: options[(t >> 4) % 3].id,
      changed: t % 16 === 0 ? 'argument' : null,
      consensus_score: ((t * 13) % 100) / 100,
      leader_id: 'o1',
    });
    push({ type: 'agent_status', agent_id: agent, agent_name: agent, status: 'idle' });
  }
  push({ type: 'discussion_ended', reason: 'completed', session_id: 'session_1' });
  return {
    id: 'd1',
    session_id: 'session_1',
    endpoint: '/ws/hybrid',
    topic: 'Buses',
    status: 'ended',
    frame_count: frames.length,
    created_at: at(0),
    config: { panel: 'hybrid', agent_ids: AGENTS },
    frames,
    human_messages: [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const ms = (x: number) => Math.round(x * 100) / 100;

type Moments = ReturnType<typeof openedFrom>['moments'];

/** What ReplayView computes at a moment: its ids (a slice), the header's positions, the 20 rows in view. */
function momentWork(moments: Moments, turn: number) {
  const feed = moments[turn];
  const all = selectMessageIds(moments[moments.length - 1]);
  const ids = all.slice(0, feed.items.keys.length);
  selectPositionNow(feed);
  for (let i = Math.max(0, ids.length - 20); i < ids.length; i++) selectItem(feed, ids[i]);
  return ids.length;
}

export default async function run(): Promise<Figures> {
  const d = stored();
  const histories: number[] = [];
  const opens: number[] = [];
  let opened = openedFrom(d);
  for (let i = 0; i < TRIALS; i++) {
    const copy = structuredClone(d);
    const t0 = performance.now();
    opened = openedFrom(copy);
    const t1 = performance.now();
    momentWork(opened.moments, 0);
    opens.push(performance.now() - t1);
    histories.push(t1 - t0);
  }
  const steps: number[] = [];
  let seed = 7;
  for (let i = 0; i < 500; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const turn = seed % opened.moments.length;
    const t0 = performance.now();
    momentWork(opened.moments, turn);
    steps.push(performance.now() - t0);
  }
  return {
    turns: opened.moments.length - 1,
    frames: d.frames.length,
    history_open_ms_median: ms(median(histories)),
    open_ms_median: ms(median(opens)),
    open_budget_ms: 300,
    open_ratio: ms(median(opens) / 300),
    step_ms_p95: ms(p95(steps)),
    step_ms_median: ms(median(steps)),
    step_budget_ms: 16.7,
    step_ratio: ms(p95(steps) / 16.7),
  };
}
