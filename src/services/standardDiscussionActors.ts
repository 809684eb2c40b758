// The real actors behind the standard panel, built from the app's services: the socket (through socketSession),
// the endpoint probe, agent details, saved settings and the export. composeApp provides them; tests build the
// same logic over a fake WebSocket.
import { assign, fromPromise, type AnyActorLogic } from 'xstate';
import type { shareDialogMachine } from '../machines/shareDialog.machine';
import type { StandardExportRequest } from '../model/standardVariant';
import { standardDiscussionMachine } from '../machines/discussionPanel.machine';
import { withExporter } from '../machines/discussionExport.machine';
import { withSessionSocket } from '../machines/socketSession.machine';
import { endpointProbeMachine } from '../machines/endpointProbe.machine';
import { buildExport, exportFileName, exportParticipants } from '../model/exportJson';
import type { ModelConnection } from '../schemas/modelConnections';
import { discussionExport } from '../schemas/exportJson';
import type { Participant } from '../schemas/discussion';
import { AGENT_MESSAGES } from '../schemas/messages';
import { standardOutgoingFrame, standardServerFrame } from '../schemas/standardSocket';
import type { StandardPanelSettings } from '../schemas/settings';
import { wallClock } from './clock';
import type { FromSocket } from './socket';

export interface StandardDiscussionDeps {
  /** A finished run's Share dialog with its REST calls (shareActors.ts); absent: the chart's own, unprovided. */
  share?: typeof shareDialogMachine;
  fromSocket: FromSocket;
  /** The probe actor (src/services/endpointProbe.ts createEndpointProbe). */
  probeEndpoint: AnyActorLogic;
  getAgent: (
    id: string,
  ) => Promise<{ id: string; name: string; role?: string | null; model?: string | null; color?: string | null }>;
  /** The model connections, to name each agent's model in an export; none when not given or when they fail. */
  listConnections?: () => Promise<ModelConnection[]>;
  settings: { load(): StandardPanelSettings | null; save(s: StandardPanelSettings): void };
  /** Hands a finished file to the user (a download in the browser). */
  saveFile: (blob: Blob, fileName: string) => void;
  /** Renders the PDF; loaded on first use so jspdf stays out of the first chunks. */
  renderPdf?: (exp: ReturnType<typeof buildExport>) => Promise<Blob>;
  log?: (message: string) => void;
  /** The wall clock by default. */
  now?: () => number;
}

/** GET /agents/{id} for each agent; a failure gives 'Agent' + the id's last 8 characters and role Unknown. */
export async function loadParticipants(
  ids: string[],
  getAgent: StandardDiscussionDeps['getAgent'],
  log: (m: string) => void,
): Promise<Participant[]> {
  return Promise.all(
    ids.map(async (id) => {
      try {
        const a = await getAgent(id);
        // Its model and colour ride along for the export (exportParticipants).
        return { id, name: a.name, role: a.role || AGENT_MESSAGES.defaultRole, model: a.model, color: a.color };
      } catch (error) {
        log(`agent details for ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        return { id, name: AGENT_MESSAGES.fallbackName(id), role: AGENT_MESSAGES.fallbackRole };
      }
    }),
  );
}

/** Writes the export file; the export is stamped with the time it is made (`at`, now by default). */
export async function exportDiscussionFile(
  req: StandardExportRequest,
  deps: Pick<StandardDiscussionDeps, 'saveFile' | 'renderPdf' | 'listConnections'>,
  at = Date.now(),
) {
  const now = new Date(at);
  // The models are named as the person named their connections; without the list they read by model alone.
  const connections =
    req.participants?.length && deps.listConnections ? await deps.listConnections().catch(() => []) : [];
  const exp = discussionExport.parse(
    buildExport(req.feed, {
      sessionId: req.run.sessionId,
      endpoint: req.run.endpoint,
      context: req.run.context,
      format: { setting: req.run.settings.format, agentIds: req.run.agentIds },
      participants: exportParticipants(req.participants ?? [], connections),
      configuration: {
        communication: req.run.settings.communication,
        reasoning: req.run.settings.reasoning,
        research: req.run.settings.research,
      },
      now,
    }),
  );
  if (req.format === 'json') {
    deps.saveFile(
      new Blob([JSON.stringify(exp, null, 2)], { type: 'application/json' }),
      exportFileName('json', req.run.context, now),
    );
    return;
  }
  const render = deps.renderPdf ?? (await defaultPdfRenderer());
  deps.saveFile(await render(exp), exportFileName('pdf', req.run.context, now));
}

async function defaultPdfRenderer() {
  const [{ renderDiscussionPdf }, { loadUnicodeFont }] = await Promise.all([
    import('./pdfExport'),
    import('./unicodeFont'),
  ]);
  return (exp: ReturnType<typeof buildExport>) => renderDiscussionPdf(exp, { loadUnicodeFont });
}

export function createStandardDiscussionLogic(deps: StandardDiscussionDeps) {
  const log = deps.log ?? ((m: string) => console.debug(m));
  return standardDiscussionMachine.provide({
    actors: {
      socketSession: withSessionSocket(deps.fromSocket(standardServerFrame, standardOutgoingFrame)),
      endpointProbe: endpointProbeMachine.provide({ actors: { probeEndpoint: deps.probeEndpoint } }),
      loadAgentDetails: fromPromise(({ input }: { input: { agentIds: string[] } }) =>
        loadParticipants(input.agentIds, deps.getAgent, log),
      ),
      loadSettings: fromPromise<unknown>(async () => deps.settings.load()),
      exportDiscussion: withExporter((input: StandardExportRequest) => exportDiscussionFile(input, deps)),
      ...(deps.share ? { share: deps.share } : {}),
    },
    actions: {
      readClock: assign({ clockNow: () => (deps.now ?? wallClock)() }),
      saveSettings: ({ context }) => deps.settings.save(context.settings),
    },
  });
}
