import { describe, expect, it } from 'vitest';
import { hybridServerFrame } from '../../../src/schemas/hybridSocket';
import { answer, plans, run, TIMING } from './machineKit';

// A failing agent voice in a whole discussion (README 'Voices'): espeak-ng speaks each of its turns, and the
// discussion says so with one tts_error per agent, not one per turn; the audio still paces the turns.

describe('a failing agent voice', () => {
  it('is said once per agent; every turn still has its clip', async () => {
    const r = run(plans.basic({ turns: 4, tts: true }, 2, { ...TIMING, ackTimeoutMs: 20 }), () => answer(), {
      speechAvailable: true,
      speak: async (input) => ({
        audioUrl: `/media/tts/${input.audioId}.wav`,
        ttsMs: 2,
        voiceError: `The voice of ${input.agentName} failed (down); speaking with espeak-ng instead.`,
      }),
    });
    await r.done;
    const errors = r.frames.filter((f) => f.type === 'error' || f.type === 'tts_error');
    const clips = r.frames.filter((f) => f.type === 'audio' || f.type === 'audio_message');
    expect(clips.length).toBeGreaterThanOrEqual(4);
    // The standard panel hears a tts_error as a non-fatal error frame: two agents, two notices, whatever the turns.
    expect(errors).toHaveLength(2);
    expect(new Set(errors.map((e) => e.message ?? e.error)).size).toBe(2);
  });

  it('in the hybrid panel the notice is a tts_error frame, before that turn’s clip', async () => {
    const r = run(
      plans.hybrid({ tts: true, max_rounds: 2, turns_per_round: 2 }, 2, { ...TIMING, ackTimeoutMs: 20 }),
      () => answer(),
      {
        speechAvailable: true,
        speak: async (input) => ({
          audioUrl: `/media/tts/${input.audioId}.wav`,
          ttsMs: 2,
          voiceError: `The voice of ${input.agentName} failed.`,
        }),
      },
    );
    await r.done;
    const errors = r.frames.filter((f) => f.type === 'tts_error');
    expect(errors.map((e) => e.agent_name).sort()).toEqual(['Ada', 'Bo']);
    expect(errors).toHaveLength(2);
    expect(r.frames.filter((f) => f.type === 'audio_message').length).toBeGreaterThan(2);
    for (const f of r.frames) expect(hybridServerFrame.safeParse(f).success).toBe(true);
    const first = r.frames.findIndex((f) => f.type === 'tts_error');
    expect(r.frames.findIndex((f, i) => i > first && f.type === 'audio_message')).toBeGreaterThan(first);
  });
});
