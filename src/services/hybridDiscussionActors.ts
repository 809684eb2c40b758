// The real actors behind the hybrid panel: its socket (through socketSession), the modes list, and the PDF export.
import { assign, fromPromise } from 'xstate';
import { hybridDiscussionMachine } from '../machines/discussionPanel.machine';
import type { HybridExportRequest } from '../model/hybridVariant';
import { withExporter } from '../machines/discussionExport.machine';
import { withSessionSocket } from '../machines/socketSession.machine';
import { buildExport, exportFileName, exportParticipants, type KnownAgent } from '../model/exportJson';
import type { ModelConnection } from '../schemas/modelConnections';
import type { StandardDiscussionDeps } from './standardDiscussionActors';
import { defaults, type HybridSettings } from '../schemas/settings';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { hybridOutgoingFrame, hybridServerFrame } from '../schemas/hybridSocket';
import { fromTicker, wallClock } from './clock';
import type { FromSocket } from './socket';

export interface HybridDiscussionDeps {
  /** A finished run's Share dialog with its REST calls (shareActors.ts). */
  share?: StandardDiscussionDeps['share'];
  fromSocket: FromSocket;
  loadModes: () => Promise<(HybridModeInfo & { id: string })[]>;
  saveFile: (blob: Blob, fileName: string) => void;
  renderPdf?: (req: HybridExportRequest) => Promise<Blob>;
  /** Where the user's hybrid settings are kept (local storage, per user); none keeps them for the page only. */
  settings?: { load(): HybridSettings | null; save(settings: HybridSettings): void };
  /** The wall clock by default. */
  now?: () => number;
  /** The agents and the model connections, for the export's participants (none when not given or they fail). */
  getAgent?: StandardDiscussionDeps['getAgent'];
  listConnections?: StandardDiscussionDeps['listConnections'];
}

const hybridExport = (req: HybridExportRequest, now: Date, connections: ModelConnection[] = []) =>
  buildExport(req.feed, {
    participants: exportParticipants(req.participants ?? [], connections),
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

/** The run's agents as the server has them now, and the connections that name their models; a failure leaves none. */
async function knownAgents(req: HybridExportRequest, deps: HybridDiscussionDeps) {
  const getAgent = deps.getAgent;
  if (!getAgent) return { agents: [] as KnownAgent[], connections: [] as ModelConnection[] };
  const [agents, connections] = await Promise.all([
    Promise.all(req.run.agentIds.map((id) => getAgent(id).catch(() => null))),
    deps.listConnections ? deps.listConnections().catch(() => []) : [],
  ]);
  return { agents: agents.filter((a): a is NonNullable<typeof a> => a !== null), connections };
}

async function defaultHybridPdf(req: HybridExportRequest, connections: ModelConnection[] = []): Promise<Blob> {
  const [{ renderHybridPdf }, { loadUnicodeFont }] = await Promise.all([
    import('./pdfExport'),
    import('./unicodeFont'),
  ]);
  const exp = hybridExport(req, new Date(), connections);
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
      clock: fromTicker('panel.tick'),
      loadModes: fromPromise(() => deps.loadModes()),
      loadSettings: fromPromise<unknown>(async () => deps.settings?.load() ?? null),
      ...(deps.share ? { share: deps.share } : {}),
      exportDiscussion: withExporter(async (request: HybridExportRequest) => {
        const { agents, connections } = await knownAgents(request, deps);
        const input = { ...request, participants: agents };
        // The export is stamped with the time it is made.
        const now = new Date();
        if (input.format === 'json') {
          // The same export document the standard panel writes, with the hybrid mode and settings beside it.
          const doc = {
            ...hybridExport(input, now, connections),
            mode: input.run.settings.mode,
            hybrid_settings: input.run.settings,
          };
          deps.saveFile(
            new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }),
            exportFileName('json', input.run.topic, now),
          );
          return;
        }
        const blob = await (deps.renderPdf ? deps.renderPdf(input) : defaultHybridPdf(input, connections));
        deps.saveFile(blob, exportFileName('pdf', input.run.topic, now));
      }),
    },
  });
}
