import { DEFAULT_OFFLINE_TOKENS_PER_SECOND } from '../../server/config';
import { createLlmRegistry, createOfflineProvider } from '../../server/providers';
import { createEspeakProvider, findEspeak } from '../../server/providers/speech/espeak';
import { createNoSpeech } from '../../server/providers/speech/none';
import { createNoTranscription } from '../../server/providers/transcription/none';
import type { LlmProvider, ResearchService, SpeechProvider } from '../../server/providers/types';
import type { Providers } from '../../server/providers/providers';
import { silentWav } from '../../tests/support/wav';

// The recorder's providers: the real offline model; speech by espeak-ng when installed (else a silent WAV);
// research from a fixture in the research service's real outcome shape, or unreachable.

/** What a case switches on or off while it records. */
export const switches = {
  /** Fails every turn of the named agent, to record the server's error frame. */
  failingAgent: null as string | null,
  humanPace: false,
  speechOn: false,
  researchReachable: true,
};

// A fast pace (about 100 ms a turn) so stops, drops and human messages land mid-discussion; a human one for the
// streaming cases.
const fast = createOfflineProvider({ tokensPerSecond: 1000, thinkMs: 0 });
const human = createOfflineProvider({ tokensPerSecond: DEFAULT_OFFLINE_TOKENS_PER_SECOND, thinkMs: 600 });
const llm: LlmProvider = {
  ...fast,
  chat: async (req) => {
    if (switches.failingAgent && req.context?.agent.name === switches.failingAgent)
      throw new Error('the model server at http://127.0.0.1:11434 is not reachable (ECONNREFUSED)');
    return (switches.humanPace ? human : fast).chat(req);
  },
};

function silentSpeech(): SpeechProvider {
  const b = silentWav(1600);
  return {
    id: 'silent-wav',
    available: () => true,
    synthesize: async () => ({ audio: b, mimeType: 'audio/wav', extension: 'wav' }),
    probe: async () => ({ status: 'ok' }),
  };
}
export const espeak = findEspeak();
const speechEngine: SpeechProvider = espeak ? createEspeakProvider({ executable: espeak }) : silentSpeech();
const speech: SpeechProvider = {
  id: 'switchable',
  available: () => switches.speechOn && speechEngine.available(),
  synthesize: (req) => (switches.speechOn ? speechEngine.synthesize(req) : createNoSpeech().synthesize(req)),
  probe: () => speechEngine.probe(),
};

const research: ResearchService = {
  enabled: true,
  async search(req) {
    if (!switches.researchReachable) {
      return {
        query: req.query,
        results: [],
        available: false,
        detail: 'Could not reach arXiv, PubMed and Semantic Scholar: no network.',
        errors: ['arxiv', 'pubmed', 'semantic_scholar'].map((source) => ({
          source,
          message: `${source} is not reachable (ENOTFOUND)`,
        })),
      };
    }
    return {
      query: req.query,
      available: true,
      errors: [],
      results: [
        {
          source: 'arxiv',
          query: req.query,
          results: [
            {
              title: 'Regulated deficit irrigation in Vitis vinifera: a meta-analysis',
              authors: ['M. Costa', 'J. Silva'],
              year: 2021,
              abstract:
                'Across 48 field trials, regulated deficit irrigation saved 20-35% of water with small yield losses and higher anthocyanin content.',
              url: 'https://arxiv.org/abs/2101.04512',
              source: 'arxiv',
            },
            {
              title: 'Capacitive soil moisture probes for precision viticulture',
              authors: ['A. Rossi', 'L. Bianchi'],
              year: 2022,
              abstract: 'Low-cost probes calibrated per soil type guided drip scheduling within 5% of a neutron probe.',
              url: 'https://arxiv.org/abs/2203.11807',
              source: 'arxiv',
            },
          ],
        },
        {
          source: 'pubmed',
          query: req.query,
          results: [
            {
              title: 'Water use efficiency of drip-irrigated vineyards over three seasons',
              authors: ['K. Lee'],
              year: 2020,
              abstract: 'Drip irrigation improved water use efficiency by 28% relative to furrow irrigation.',
              url: 'https://pubmed.ncbi.nlm.nih.gov/32000003/',
              source: 'pubmed',
            },
          ],
        },
      ],
    };
  },
};

export const providers: Providers = {
  llm: createLlmRegistry([llm]),
  speech,
  transcription: createNoTranscription(),
  research,
};
