// The real actors behind the hybrid panel: its socket (through socketSession), the modes list, and the PDF export.
import { fromPromise } from 'xstate';
import { hybridDiscussionMachine, type HybridExportRequest } from '../machines/hybridDiscussion.machine';
import { socketSessionMachine } from '../machines/socketSession.machine';
import { hybridPdfFileName } from '../model/exportJson';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { hybridOutgoingFrame, hybridServerFrame } from '../schemas/hybridSocket';
import type { FromSocket } from './socket';

export interface HybridDiscussionDeps {
  fromSocket: FromSocket;
  loadModes: () => Promise<(HybridModeInfo & { id: string })[]>;
  saveFile: (blob: Blob, fileName: string) => void;
  renderPdf?: (req: HybridExportRequest) => Promise<Blob>;
}

async function defaultHybridPdf(req: HybridExportRequest): Promise<Blob> {
  const [{ renderHybridPdf }, { loadUnicodeFont }] = await Promise.all([import('./pdfExport'), import('./unicodeFont')]);
  return renderHybridPdf(req, { loadUnicodeFont });
}

export function createHybridDiscussionLogic(deps: HybridDiscussionDeps) {
  return hybridDiscussionMachine.provide({
    actors: {
      socketSession: socketSessionMachine.provide({ actors: { socket: deps.fromSocket(hybridServerFrame, hybridOutgoingFrame) } }),
      loadModes: fromPromise(() => deps.loadModes()),
      exportHybridPdf: fromPromise(async ({ input }: { input: HybridExportRequest }) => {
        const blob = await (deps.renderPdf ?? defaultHybridPdf)(input);
        deps.saveFile(blob, hybridPdfFileName(input.run.sessionId, new Date(input.now)));
      }),
    },
  });
}
