// The real actors behind the hybrid panel: its socket (through socketSession), the modes list, and the PDF export.
import { assign, fromPromise } from 'xstate';
import { hybridDiscussionMachine } from '../machines/hybridDiscussion.machine';
import type { HybridExportRequest } from '../model/hybridRun';
import { withExporter } from '../machines/discussionExport.machine';
import { withSessionSocket } from '../machines/socketSession.machine';
import { buildExport, exportFileName } from '../model/exportJson';
import { defaults, type HybridSettings } from '../schemas/settings';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { hybridOutgoingFrame, hybridServerFrame } from '../schemas/hybridSocket';
import { fromTicker, wallClock } from './clock';
import type { FromSocket } from './socket';

export interface HybridDiscussionDeps {
  fromSocket: FromSocket;
  loadModes: () => Promise<(HybridModeInfo & { id: string })[]>;
  saveFile: (blob: Blob, fileName: string) => void;
  renderPdf?: (req: HybridExportRequest) => Promise<Blob>;
  /** Where the user's hybrid settings are kept (local storage, per user); none keeps them for the page only. */
  settings?: { load(): HybridSettings | null; save(settings: HybridSettings): void };
  /** The wall clock by default. */
  now?: () => number;
}

const hybridExport = (req: HybridExportRequest, now: Date) =>
  buildExport(req.feed, {
    sessionId: req.run.sessionId,
    endpoint: 'hybrid',
    context: req.run.topic,
    now,
    format: { setting: req.run.settings.format, agentIds: req.run.agentIds },
    configuration: {
      communication: defaults.communication,
      reasoning: defaults.reasoning,
      research: defaults.research,
    },
  });

async function defaultHybridPdf(req: HybridExportRequest): Promise<Blob> {
  const [{ renderHybridPdf }, { loadUnicodeFont }] = await Promise.all([
    import('./pdfExport'),
    import('./unicodeFont'),
  ]);
  const exp = hybridExport(req, new Date());
  return renderHybridPdf({ ...exp, mode: req.run.settings.mode }, { loadUnicodeFont });
}

export function createHybridDiscussionLogic(deps: HybridDiscussionDeps) {
  return hybridDiscussionMachine.provide({
    actions: {
      readClock: assign({ clockNow: () => (deps.now ?? wallClock)() }),
      saveSettings: ({ context }) => deps.settings?.save(context.settings),
    },
    actors: {
      socketSession: withSessionSocket(deps.fromSocket(hybridServerFrame, hybridOutgoingFrame)),
      clock: fromTicker('hybrid.tick'),
      loadModes: fromPromise(() => deps.loadModes()),
      loadSettings: fromPromise(async () => deps.settings?.load() ?? null),
      exportHybridPdf: withExporter(async (input: HybridExportRequest) => {
        // The export is stamped with the time it is made.
        const now = new Date();
        if (input.format === 'json') {
          // The same export document the standard panel writes, with the hybrid mode and settings beside it.
          const doc = {
            ...hybridExport(input, now),
            mode: input.run.settings.mode,
            hybrid_settings: input.run.settings,
          };
          deps.saveFile(
            new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }),
            exportFileName('json', input.run.topic, now),
          );
          return;
        }
        const blob = await (deps.renderPdf ?? defaultHybridPdf)(input);
        deps.saveFile(blob, exportFileName('pdf', input.run.topic, now));
      }),
    },
  });
}
