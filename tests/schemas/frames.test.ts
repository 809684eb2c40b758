// Every socket message type, both ways, through the one parse path (parseFrame): a valid example becomes a
// frame, a malformed one becomes 'malformed' (one protocol error upstream), an unknown type is 'unknown'.
// The fixture tables are typed by each union's `type`, so a message type added to a schema without
// examples here fails to compile.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { knownTypes, parseFrame } from '../../src/schemas/frames';
import { liveClientFrame, liveServerFrame } from '../../src/schemas/liveUpdates';
import { standardClientFrame, standardServerFrame } from '../../src/schemas/standardSocket';
import { hybridClientFrame, hybridServerFrame } from '../../src/schemas/hybridSocket';

type Union = Parameters<typeof knownTypes>[0];
/** `malformed: null` marks a type that has no fields to get wrong (extra keys are ignored by design). */
type Table<S extends Union> = {
  [K in z.input<S>['type'] & string]: {
    valid: Extract<z.input<S>, { type: K }>;
    malformed: Record<string, unknown> | null;
  };
};

const ts = '2025-01-01T10:00:00Z';
const agent = { id: 'a1', name: 'Ada', role: 'Analyst', prompt: 'Think.', model: 'offline', x: 10, y: 20 };
const consensus = { solution: 'Ship it', confidence: 0.8, support_level: 0.75, dissenting_opinions: [] };
const argument = { id: 'arg1', agent_id: 'a1', type: 'proposal' as const, content: 'We should', confidence: 0.6 };

const live: Table<typeof liveServerFrame> = {
  agent_created: { valid: { type: 'agent_created', agent }, malformed: { type: 'agent_created', agent: { id: 'a1' } } },
  agent_updated: { valid: { type: 'agent_updated', agent }, malformed: { type: 'agent_updated' } },
  agent_deleted: {
    valid: { type: 'agent_deleted', agent_id: 'a1' },
    malformed: { type: 'agent_deleted', agent_id: 5 },
  },
  connection_created: {
    valid: { type: 'connection_created', connection: { id: 'c1', from_agent_id: 'a1', to_agent_id: 'a2' } },
    malformed: { type: 'connection_created', connection: { id: 'c1', source: 'a1' } },
  },
  connection_deleted: {
    valid: { type: 'connection_deleted', connection_id: 'c1' },
    malformed: { type: 'connection_deleted', connection_id: 7 },
  },
  agent_status_update: {
    valid: { type: 'agent_status_update', agent_id: 'a1', status: 'thinking', agent_name: 'Ada' },
    malformed: { type: 'agent_status_update', agent_id: 'a1' },
  },
  system_update: {
    valid: { type: 'system_update', agents: [{ id: 'a1', status: 'idle' }] },
    malformed: { type: 'system_update', agents: 'a1' },
  },
  stats: {
    valid: { type: 'stats', stats: { agents: 2, connections: 1 } },
    malformed: { type: 'stats', stats: { agents: 'two' } },
  },
  connected: { valid: { type: 'connected', channel: 'updates' }, malformed: { type: 'connected', channel: 1 } },
  pong: { valid: { type: 'pong' }, malformed: null },
  model_job: {
    valid: {
      type: 'model_job',
      job: {
        id: 'j1',
        connection_id: 'c1',
        connection_name: 'Home',
        model: 'qwen2.5:0.5b',
        status: 'running',
        phase: 'pulling 6a07',
        completed: 10,
        total: 100,
        error: null,
        started_at: ts,
      },
    },
    malformed: { type: 'model_job', job: { id: 'j1', status: 'halfway' } },
  },
  model_connections_changed: { valid: { type: 'model_connections_changed' }, malformed: null },
  model_download: {
    valid: {
      type: 'model_download',
      download: {
        file: 'a.gguf',
        url: 'https://example.org/a.gguf',
        received: 10,
        total: 100,
        state: 'running',
        error: null,
        sha256: null,
      },
    },
    malformed: { type: 'model_download', download: { file: 'a.gguf', received: -1 } },
  },
};

const liveClient: Table<typeof liveClientFrame> = {
  get_stats: { valid: { type: 'get_stats' }, malformed: null },
  ping: { valid: { type: 'ping' }, malformed: null },
};

// Frames both discussion panels read, written once.
type SharedType =
  | 'discussion_initialized'
  | 'round_start'
  | 'agent_message'
  | 'acl_message'
  | 'agent_status'
  | 'round_end'
  | 'delegation'
  | 'consensus_reached'
  | 'discussion_summary'
  | 'discussion_ended'
  | 'error'
  | 'agent_message_start'
  | 'agent_message_delta'
  | 'positions'
  | 'floor'
  | 'floor_queue'
  | 'vote'
  | 'format_stage'
  | 'ranking'
  | 'debate_result'
  | 'format_note'
  | 'tool_call'
  | 'tool_result'
  | 'room_people'
  | 'room_message';
const shared: Pick<Table<typeof standardServerFrame>, SharedType> & Pick<Table<typeof hybridServerFrame>, SharedType> =
  {
    discussion_initialized: {
      valid: {
        type: 'discussion_initialized',
        session_id: 'session_1',
        participants: [{ id: 'a1', name: 'Ada' }],
        topic: 'Soil',
        timestamp: ts,
      },
      malformed: { type: 'discussion_initialized', participants: [] },
    },
    round_start: {
      valid: { type: 'round_start', round: 1, max_rounds: 3 },
      malformed: { type: 'round_start', round: 0 },
    },
    agent_message: {
      valid: {
        type: 'agent_message',
        id: 'm1',
        agent_id: 'a1',
        agent_name: 'Ada',
        content: 'Hello',
        confidence: 0.7,
        timestamp: ts,
      },
      malformed: { type: 'agent_message', id: 'm1', agent_id: 'a1', agent_name: 'Ada' },
    },
    acl_message: {
      valid: { type: 'acl_message', performative: 'inform', sender: 'Ada', receiver: 'Bob', content: { claim: 'x' } },
      malformed: { type: 'acl_message', performative: 'inform' },
    },
    agent_status: {
      valid: { type: 'agent_status', agent_id: 'a1', status: 'speaking' },
      malformed: { type: 'agent_status', agent_id: 'a1' },
    },
    round_end: { valid: { type: 'round_end', round: 2, agreement: 0.5 }, malformed: { type: 'round_end', round: -1 } },
    delegation: {
      valid: { type: 'delegation', delegation: { from: 'Ada', to: 'Bob', task: 'check' } },
      malformed: { type: 'delegation', delegation: 3 },
    },
    consensus_reached: {
      valid: { type: 'consensus_reached', score: 0.8, consensus },
      malformed: { type: 'consensus_reached', score: 1.5, consensus },
    },
    discussion_summary: {
      valid: { type: 'discussion_summary', summary: { text: 'Done', rounds: 2, message_count: 6 } },
      malformed: { type: 'discussion_summary', summary: 'Done' },
    },
    discussion_ended: {
      valid: { type: 'discussion_ended', reason: 'completed' },
      malformed: { type: 'discussion_ended', reason: 5 },
    },
    error: {
      valid: { type: 'error', message: 'Something broke' },
      malformed: { type: 'error', error: 'no message field' },
    },
    agent_message_start: {
      valid: { type: 'agent_message_start', id: 'm1', agent_id: 'a1', agent_name: 'Ada', round: 1 },
      malformed: { type: 'agent_message_start', id: 'm1', agent_id: 'a1' },
    },
    agent_message_delta: {
      valid: { type: 'agent_message_delta', id: 'm1', delta: 'Drip ' },
      malformed: { type: 'agent_message_delta', id: '', delta: 'x' },
    },
    floor: {
      valid: { type: 'floor', agent_id: 'a2', agent_name: 'Bo', by: 'mention', reason: 'mentioned by you' },
      malformed: { type: 'floor', agent_id: 'a2', by: 'chance', reason: 'x' },
    },
    vote: {
      valid: {
        type: 'vote',
        voter_id: 'human',
        side: 'for',
        confidence: 0.7,
        phase: 'before',
        reason: 'first impression',
      },
      malformed: { type: 'vote', voter_id: 'human', side: 'maybe', confidence: 0.7, phase: 'before', reason: 'x' },
    },
    format_stage: {
      valid: { type: 'format_stage', format: 'council', stage: 'answers', title: 'Stage 1' },
      malformed: { type: 'format_stage', format: 'panel', stage: 'x', title: 'y' },
    },
    ranking: {
      valid: { type: 'ranking', rows: [{ label: 'A', agent_id: 'a1', agent_name: 'Ada', mean_rank: 1.5, ballots: 2 }] },
      malformed: { type: 'ranking', rows: [{ label: 'A' }] },
    },
    debate_result: {
      valid: {
        type: 'debate_result',
        side: 'for',
        change: 12,
        for_before: 50,
        for_after: 62,
        text: 'For gained 12 points.',
      },
      malformed: { type: 'debate_result', side: 'for', change: '12' },
    },
    floor_queue: {
      valid: { type: 'floor_queue', change: 'queued', agent_id: 'a3', agent_name: 'Cy', text: 'Cy speaks next.' },
      malformed: { type: 'floor_queue', change: 'forgotten', agent_id: 'a3', text: 'x' },
    },
    format_note: {
      valid: { type: 'format_note', kind: 'ask', text: 'Moderator asks you: why?' },
      malformed: { type: 'format_note', kind: 'shout', text: 'x' },
    },
    positions: {
      valid: { type: 'positions', options: [{ id: 'o1', label: 'Cheaper passes first' }] },
      malformed: { type: 'positions', options: [{ id: 'o1', label: 'x'.repeat(121) }] },
    },
    tool_call: {
      valid: {
        type: 'tool_call',
        id: 'c1',
        agent_id: 'a1',
        message_id: 'm1',
        tool: 'calculator',
        server: 'builtin',
        arguments: { expression: '2+2' },
        needs_approval: true,
      },
      malformed: {
        type: 'tool_call',
        id: 'c1',
        agent_id: 'a1',
        message_id: 'm1',
        tool: 'calculator',
        server: 'builtin',
      },
    },
    tool_result: {
      valid: { type: 'tool_result', id: 'c1', ok: true, content: '4', truncated: false, ms: 3 },
      malformed: { type: 'tool_result', id: 'c1', ok: true, content: '4', truncated: false, ms: -1 },
    },
    room_people: {
      valid: {
        type: 'room_people',
        people: [{ user_id: 'u2', display_name: 'Bea', role: 'participant', colour: '#c2410c', typing: true }],
        you: { user_id: 'u2', role: 'participant' },
      },
      malformed: { type: 'room_people', people: [{ user_id: 'u2', role: 'guest' }], you: { user_id: 'u2' } },
    },
    room_message: {
      valid: {
        type: 'room_message',
        message_id: 'm1',
        text: 'What about cost?',
        author: { user_id: 'u2', display_name: 'Bea', colour: '#c2410c' },
        at: ts,
      },
      malformed: { type: 'room_message', message_id: 'm1', text: 'Hi', author: { user_id: 'u2' }, at: ts },
    },
  };

const formatClient = {
  give_floor: { valid: { type: 'give_floor', agent_id: 'a2' }, malformed: { type: 'give_floor', agent_id: '' } },
  cancel_floor: { valid: { type: 'cancel_floor' }, malformed: null },
  end_discussion: { valid: { type: 'end_discussion' }, malformed: null },
  judge_vote: {
    valid: { type: 'judge_vote', side: 'against', confidence: 0.6 },
    malformed: { type: 'judge_vote', side: 'against', confidence: 2 },
  },
  tool_approval: {
    valid: { type: 'tool_approval', id: 'c1', approve: false },
    malformed: { type: 'tool_approval', id: 'c1', approve: 'yes' },
  },
  sources_add: {
    valid: { type: 'sources_add', source_ids: ['src_1'] as string[] },
    malformed: { type: 'sources_add', source_ids: [] },
  },
  room_typing: { valid: { type: 'room_typing', typing: true }, malformed: { type: 'room_typing', typing: 'yes' } },
  room_seat: {
    valid: { type: 'room_seat', seat: 'judge', user_id: 'u2' },
    malformed: { type: 'room_seat', seat: 'chair', user_id: 'u2' },
  },
  room_remove: { valid: { type: 'room_remove', user_id: 'u3' }, malformed: { type: 'room_remove', user_id: '' } },
} as const;

const standard: Table<typeof standardServerFrame> = {
  ...shared,
  reasoning_stage: {
    valid: { type: 'reasoning_stage', stage: 'analysis', round: 1 },
    malformed: { type: 'reasoning_stage', stage: 'dreaming' },
  },
  argument: {
    valid: { type: 'argument', argument },
    malformed: { type: 'argument', argument: { ...argument, confidence: 2 } },
  },
  research_result: {
    valid: { type: 'research_result', result: { source: 'arxiv', articles: [{ title: 'Vines', authors: ['A. B.'] }] } },
    malformed: { type: 'research_result', result: { articles: [] } },
  },
  research_results: {
    valid: { type: 'research_results', query: 'vines', results: [{ source: 'pubmed', results: [] }] },
    malformed: { type: 'research_results', query: 'vines' },
  },
  text: {
    valid: { type: 'text', from_id: 'a1', from: 'Ada', text: 'Hi', turn: 1 },
    malformed: { type: 'text', from_id: 'a1', from: 'Ada', text: 'Hi', turn: 'one' },
  },
  audio: {
    valid: { type: 'audio', agent_id: 'a1', audio_url: '/media/x.wav' },
    malformed: { type: 'audio', agent_id: 'a1' },
  },
  discussion_started: {
    valid: { type: 'discussion_started', session_id: 'session_1', endpoint: '/ws/discuss' },
    malformed: { type: 'discussion_started', endpoint: '/ws/discuss' },
  },
};

const hybrid: Table<typeof hybridServerFrame> = {
  ...shared,
  audio_message: {
    valid: { type: 'audio_message', agent_id: 'a1', audio_url: '/media/x.wav', audio_id: 'au1' },
    malformed: { type: 'audio_message', agent_id: 'a1', audio_url: '/media/x.wav' },
  },
  request: {
    valid: { type: 'request', from_agent: 'Ada', to_agent: 'Bob', action: 'verify' },
    malformed: { type: 'request', from_agent: 'Ada' },
  },
  tts_streaming_start: {
    valid: { type: 'tts_streaming_start', agent_name: 'Ada', total_chunks: 3 },
    malformed: { type: 'tts_streaming_start', agent_name: 'Ada', total_chunks: -1 },
  },
  tts_streaming_end: {
    valid: { type: 'tts_streaming_end', agent_name: 'Ada' },
    malformed: { type: 'tts_streaming_end', agent_name: 5 },
  },
  performance_metric: {
    valid: { type: 'performance_metric', metric: 'latency_ms', value: 120 },
    malformed: { type: 'performance_metric', metric: 'latency_ms', value: 'fast' },
  },
  tts_error: {
    valid: { type: 'tts_error', agent_name: 'Ada', error: 'No speech engine configured' },
    malformed: { type: 'tts_error', agent_name: 'Ada' },
  },
  system: { valid: { type: 'system', content: 'Round 1 begins' }, malformed: { type: 'system' } },
};

const standardClient: Table<typeof standardClientFrame> = {
  human_message: {
    valid: { type: 'human_message', text: 'What about cost?', timestamp: ts },
    malformed: { type: 'human_message', text: '   ', timestamp: ts },
  },
  stop: { valid: { type: 'stop' }, malformed: null },
  status: {
    valid: { type: 'status', status: 'played', audio_id: 'au1' },
    malformed: { type: 'status', status: 'paused' },
  },
  ...formatClient,
};

const hybridClient: Table<typeof hybridClientFrame> = {
  stop: { valid: { type: 'stop' }, malformed: null },
  audio_acknowledgment: {
    valid: { type: 'audio_acknowledgment', audio_id: 'au1', status: 'played', timestamp: ts },
    malformed: { type: 'audio_acknowledgment', audio_id: 'au1', status: 'played' },
  },
  human_message: {
    valid: { type: 'human_message', text: 'Go on', timestamp: ts },
    malformed: { type: 'human_message', timestamp: ts },
  },
  ...formatClient,
};

const protocols: [string, Union, Record<string, { valid: object; malformed: Record<string, unknown> | null }>][] = [
  ['live server (/ws/updates, /ws/system)', liveServerFrame, live],
  ['live client', liveClientFrame, liveClient],
  ['standard panel server', standardServerFrame, standard],
  ['standard panel client', standardClientFrame, standardClient],
  ['hybrid panel server', hybridServerFrame, hybrid],
  ['hybrid panel client', hybridClientFrame, hybridClient],
];

describe.each(protocols)('%s frames', (_, schema, table) => {
  it('has examples for exactly the types the schema knows', () => {
    expect(Object.keys(table).sort()).toEqual([...knownTypes(schema)].sort());
  });

  for (const [type, { valid, malformed }] of Object.entries(table)) {
    it(`${type}: a valid frame parses (from text, as the socket receives it)`, () => {
      const result = parseFrame(schema, JSON.stringify(valid));
      expect(result).toMatchObject({ kind: 'frame', frame: { type } });
    });
    if (malformed) {
      it(`${type}: a malformed frame is reported, not thrown`, () => {
        const result = parseFrame(schema, JSON.stringify(malformed));
        expect(result).toMatchObject({ kind: 'malformed', type });
        expect((result as { error: string }).error.length).toBeGreaterThan(0);
      });
    } else {
      it(`${type}: has no fields to get wrong; extra keys are ignored`, () => {
        expect(parseFrame(schema, { ...valid, extra: 1 })).toMatchObject({ kind: 'frame', frame: { type } });
      });
    }
  }

  it('an unknown type is reported as unknown', () => {
    expect(parseFrame(schema, '{"type":"from_the_future","x":1}')).toEqual({
      kind: 'unknown',
      type: 'from_the_future',
    });
  });

  it('bytes that are not a typed JSON object are malformed', () => {
    expect(parseFrame(schema, '{nope')).toMatchObject({ kind: 'malformed', type: '(not JSON)' });
    expect(parseFrame(schema, '[1,2]')).toMatchObject({ kind: 'malformed', type: '(untyped)' });
    expect(parseFrame(schema, '{"type":3}')).toMatchObject({ kind: 'malformed', type: '(untyped)' });
  });
});
