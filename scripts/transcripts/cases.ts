import { DEFAULT_OFFLINE_TOKENS_PER_SECOND } from '../../server/config';
import { Recording } from './recording';
import {
  basic,
  dropAndResume,
  enhancedPanel,
  hybridPanel,
  researchCfg,
  session,
  simple,
  standardComms,
  reasoning,
  TOPIC,
  type Case,
} from './configs';
import { espeak, switches } from './providers';
import { startServer } from './server';

// Every recorded case: its transcript's name, and how the client drives the socket. Notes say what each shows.

export const CASES: Case[] = [
  {
    name: 'basic-sequential',
    run: (e) =>
      simple(
        e,
        '/ws/discuss',
        'Basic endpoint, sequential mode, 6 turns, three agents; the standard panel configuration.',
        basic(e),
      ),
  },
  {
    name: 'basic-smart-delegation',
    run: (e) =>
      simple(
        e,
        '/ws/discuss',
        'Basic endpoint, smart_delegation mode: delegation frames and text frames carrying delegation.',
        basic(e, { mode: 'smart_delegation', turns: 8 }),
      ),
  },
  {
    name: 'basic-human-message',
    run: async (e) => {
      const r = new Recording(
        '/ws/discuss',
        'Basic endpoint with human participation: a human message after the first agent turn; the next agents answer it.',
      );
      await r.open(e.base, e.token);
      switches.failingAgent = null;
      const cfg = basic(e, { turns: 4 });
      r.send(cfg);
      await r.until(() => r.count('text') >= 1);
      r.send({
        type: 'human_message',
        text: 'What about frost risk in April, Cy? Drip lines can freeze.',
        timestamp: new Date().toISOString(),
      });
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'basic-stopped',
    run: async (e) => {
      const r = new Recording(
        '/ws/discuss',
        'Basic endpoint stopped early by the user: the client sends stop after the second turn; the server ends with discussion_ended {reason: stopped} and closes 1000.',
      );
      await r.open(e.base, e.token);
      r.send(basic(e, { turns: 20 }));
      await r.until(() => r.count('text') >= 2);
      r.send({ type: 'stop' });
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'basic-tts',
    run: (e) =>
      simple(
        e,
        '/ws/discuss',
        `Basic endpoint with speech on (${espeak ? 'espeak-ng' : 'a silent WAV engine'}): an audio frame follows each text; the client acknowledges each clip with a status 'played'.`,
        basic(e, { tts: true, turns: 3 }),
        (r) => {
          switches.speechOn = true;
          r.ackAfterMs = 40;
        },
      ).finally(() => (switches.speechOn = false)),
  },
  {
    name: 'basic-drop-resume',
    run: (e) =>
      dropAndResume(
        e,
        '/ws/discuss',
        "Basic endpoint, dropped with 1006 after the second turn (the client socket was destroyed); the client reconnects with the same configuration and session_id and receives every frame it missed, then the rest live. The line after the close is the new socket's configuration.",
        basic(e, { turns: 6 }),
        (r) => r.count('text') >= 2,
      ),
  },
  {
    name: 'basic-bad-config',
    run: (e) =>
      simple(
        e,
        '/ws/discuss',
        'A configuration with one agent and an empty context: one error frame, then close 1003.',
        { token: e.token, agent_ids: [e.agents[0]], session_id: session(), context: '   ' },
      ),
  },
  {
    name: 'enhanced-default',
    run: (e) =>
      simple(
        e,
        '/ws/enhanced',
        'Enhanced endpoint: ACL messages, agent messages with confidence and reasoning chain, interrupts at 0.7, then consensus_reached and discussion_summary.',
        {
          ...basic(e),
          legacy_config: { tts: false, turns: 6, mode: 'enhanced', human_participation: true },
          communication_config: { ...standardComms, useACL: true },
        },
      ),
  },
  {
    name: 'enhanced-model-error',
    run: (e) => {
      switches.failingAgent = 'Bo';
      return simple(
        e,
        '/ws/enhanced',
        "Enhanced endpoint where one agent's model is unreachable: a non-fatal error frame per failed turn, the agent back to idle, and the discussion going on.",
        { ...basic(e), legacy_config: { turns: 5, mode: 'sequential', human_participation: true } },
      ).finally(() => (switches.failingAgent = null));
    },
  },
  {
    name: 'multi_round_reasoning-default',
    run: (e) =>
      simple(
        e,
        '/ws/multi_round_reasoning',
        'Multi-round reasoning: rounds of brainstorming → analysis → critique → synthesis → consensus, an argument tree, early stop at convergence 0.8, consensus_reached.',
        {
          token: e.token,
          agent_ids: e.agents,
          session_id: session(),
          context: TOPIC,
          communication_config: standardComms,
          reasoning_config: { ...reasoning, enableMultiRound: true, maxRounds: 3 },
          research_config: researchCfg,
        },
      ),
  },
  {
    name: 'multi_round_reasoning-research',
    run: (e) => {
      switches.researchReachable = true;
      return simple(
        e,
        '/ws/multi_round_reasoning',
        "Multi-round reasoning with research on: research_result frames per source (a recorded fixture in the research service's real shape) before the first round; the papers become the agents' evidence.",
        {
          token: e.token,
          agent_ids: e.agents,
          session_id: session(),
          context: TOPIC,
          communication_config: standardComms,
          reasoning_config: {
            ...reasoning,
            enableMultiRound: true,
            maxRounds: 2,
            stages: ['brainstorming', 'critique', 'consensus'],
          },
          research_config: { ...researchCfg, enableResearch: true },
        },
      );
    },
  },
  {
    name: 'hybrid-standard-config',
    run: (e) =>
      simple(
        e,
        '/ws/hybrid',
        'Hybrid endpoint opened by the standard panel (its smaller configuration): standard frame vocabulary only (no audio_message, system or performance_metric).',
        {
          token: e.token,
          agent_ids: e.agents,
          session_id: session(),
          topic: TOPIC,
          mode: 'hybrid',
          tts: false,
          max_rounds: 3,
          max_response_length: 120,
          reasoning_depth: 3,
          evidence_required: true,
          allow_research: false,
          consensus_threshold: 0.7,
        },
      ),
  },
  ...(['natural', 'structured', 'hybrid', 'adaptive'] as const).map(
    (mode): Case => ({
      name: `hybrid-${mode}`,
      run: (e) =>
        simple(
          e,
          '/ws/hybrid',
          `Hybrid panel, ${mode} mode, up to 4 rounds, auto-stop on consensus at ${mode === 'adaptive' ? 0.85 : 0.7}${mode === 'natural' ? ', 100 ms pause between turns' : ''}.`,
          hybridPanel(e, {
            mode,
            max_rounds: 4,
            pause_between_turns: mode === 'natural' ? 100 : 0,
            auto_stop_on_consensus: true,
            consensus_threshold: mode === 'adaptive' ? 0.85 : 0.7,
          }),
        ),
    }),
  ),
  {
    name: 'hybrid-tts',
    run: (e) =>
      simple(
        e,
        '/ws/hybrid',
        `Hybrid panel with speech on (${espeak ? 'espeak-ng' : 'a silent WAV engine'}): tts_streaming_start, audio_message, tts_streaming_end per message; the client acknowledges each clip and the next agent waits for it.`,
        hybridPanel(e, {
          tts: true,
          max_rounds: 1,
          tts_config: {
            enabled: true,
            speed: 1,
            volume: 1,
            streaming: true,
            interrupt_enabled: true,
            parallel_generation: true,
            max_length: 300,
            format: 'wav',
          },
        }),
        (r) => {
          switches.speechOn = true;
          r.ackAfterMs = 40;
        },
      ).finally(() => (switches.speechOn = false)),
  },
  {
    name: 'hybrid-tts-no-engine',
    run: (e) =>
      simple(
        e,
        '/ws/hybrid',
        'Hybrid panel with speech asked for and no speech engine: one tts_error "No speech engine configured", then a silent discussion.',
        hybridPanel(e, {
          tts: true,
          max_rounds: 1,
          tts_config: {
            enabled: true,
            speed: 1,
            volume: 1,
            streaming: true,
            interrupt_enabled: true,
            parallel_generation: true,
            max_length: 300,
            format: 'wav',
          },
        }),
      ),
  },
  {
    name: 'hybrid-research',
    run: (e) => {
      switches.researchReachable = true;
      return simple(
        e,
        '/ws/hybrid',
        'Hybrid panel with research allowed: the papers found (recorded fixture) arrive as system lines and are cited by the agents.',
        hybridPanel(e, { allow_research: true, max_rounds: 2 }),
      );
    },
  },
  {
    name: 'hybrid-research-unavailable',
    run: (e) => {
      switches.researchReachable = false;
      return simple(
        e,
        '/ws/hybrid',
        'Hybrid panel with research allowed but no research service reachable (as offline): a system line says research is unavailable, the discussion goes on.',
        hybridPanel(e, { allow_research: true, max_rounds: 1 }),
      ).finally(() => (switches.researchReachable = true));
    },
  },
  {
    name: 'basic-streaming',
    run: (e) => {
      switches.humanPace = true;
      return simple(
        e,
        '/ws/discuss',
        `Basic endpoint with the offline model at a human pace (${DEFAULT_OFFLINE_TOKENS_PER_SECOND} tokens/s, a short seeded thinking pause): each turn is agent_message_start, agent_message_delta frames at most one per 50 ms, then the text frame with the same id whose text equals the deltas joined.`,
        basic(e, { turns: 2 }),
      ).finally(() => (switches.humanPace = false));
    },
  },
  {
    name: 'hybrid-stream-stopped',
    run: async (e) => {
      switches.humanPace = true;
      const r = new Recording(
        '/ws/hybrid',
        'Hybrid panel, offline model at a human pace, stopped by the user while the first message is being streamed: the model call is aborted, the message ends with agent_message {interrupted: true} (its content is the deltas so far), the speaker goes idle, discussion_ended {reason: stopped}, close 1000.',
      );
      try {
        await r.open(e.base, e.token);
        r.send(hybridPanel(e, { max_rounds: 3, auto_stop_on_consensus: false }));
        await r.until(() => r.count('agent_message_delta') >= 4);
        r.send({ type: 'stop' });
        await r.untilClosed();
      } finally {
        switches.humanPace = false;
      }
      return r;
    },
  },
  {
    name: 'hybrid-stopped',
    run: async (e) => {
      const r = new Recording(
        '/ws/hybrid',
        'Hybrid panel stopped by the user after the second message: the client sends stop; the server ends the discussion and closes 1000.',
      );
      await r.open(e.base, e.token);
      r.send(hybridPanel(e, { max_rounds: 10, auto_stop_on_consensus: false, pause_between_turns: 200 }));
      await r.until(() => r.count('agent_message') >= 2);
      r.send({ type: 'stop' });
      await r.untilClosed();
      return r;
    },
  },
  // ── The close codes the panels handle (docs/product.md#discussions-errors), as the real server produces them (npm
  // run transcripts:record -- close)
  {
    name: 'standard-close-1008',
    run: async (e) => {
      const r = new Recording(
        '/ws/discuss',
        'Basic endpoint opened with a bad token (?token=not-a-jwt): the server accepts the upgrade, holds the configuration, and closes 1008 "Authentication failed" without a frame. The standard panel shows the authentication message and does not reconnect.',
      );
      await r.open(e.base, 'not-a-jwt');
      r.send(basic(e, { token: 'not-a-jwt' }));
      await r.untilClosed();
      return r;
    },
  },
  {
    name: 'standard-close-1003-enhanced',
    run: (e) =>
      simple(
        e,
        '/ws/enhanced',
        'Enhanced endpoint, the panel\'s configuration naming two agents the user does not have: one fatal error frame "One or more agents were not found", then close 1003.',
        enhancedPanel(e, {
          agent_ids: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
        }),
      ),
  },
  {
    name: 'standard-close-1006-enhanced',
    run: (e) =>
      dropAndResume(
        e,
        '/ws/enhanced',
        "Enhanced endpoint with the panel's configuration, cut mid-discussion (the client socket destroyed: 1006) after the second agent message; the client reconnects with the same configuration and session_id and the server resumes: what was missed, then the rest live. The line after the close is the new socket's configuration.",
        enhancedPanel(e),
        (r) => r.count('agent_message') >= 2,
      ),
  },
  {
    name: 'hybrid-close-1006-resume',
    run: (e) =>
      dropAndResume(
        e,
        '/ws/hybrid',
        "Hybrid panel cut mid-discussion (the client socket destroyed: 1006) after the second agent message; the client reconnects with the same first message and session_id and the server resumes. The line after the close is the new socket's first message.",
        hybridPanel(e, { max_rounds: 2, auto_stop_on_consensus: false }),
        (r) => r.count('agent_message') >= 2,
      ),
  },
  {
    name: 'standard-close-1001',
    run: async () => {
      // A server of its own, shut down mid-discussion: running discussions end with {reason: 'shutdown'}, then 1001.
      const own = await startServer();
      try {
        const r = new Recording(
          '/ws/discuss',
          'Basic endpoint, the server shut down mid-discussion (after the second turn): discussion_ended {reason: shutdown}, then close 1001 "Server shutting down". 1001 is a quiet close for the panel.',
        );
        await r.open(own.env.base, own.env.token);
        r.send(basic(own.env, { turns: 20 }));
        await r.until(() => r.count('text') >= 2);
        const closing = own.close();
        await r.untilClosed();
        await closing;
        return r;
      } catch (err) {
        await own.close().catch(() => {});
        throw err;
      }
    },
  },
];
