// The real actors behind the History dialog: the three REST calls and the standard panel's exporter.
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { historyMachine } from '../machines/history.machine';
import type { ExportRequest } from '../model/standardRun';
import { discussionHistory, storedDiscussion } from '../schemas/history';
import type { Http } from './http';
import { exportDiscussionFile, type StandardDiscussionDeps } from './standardDiscussionActors';

export interface HistoryDeps extends Pick<StandardDiscussionDeps, 'saveFile' | 'renderPdf'> {
  http: Http;
}

const nothing = z.unknown();

export function createHistoryLogic(deps: HistoryDeps) {
  return historyMachine.provide({
    actors: {
      loadHistory: fromPromise(() => deps.http.request('GET', '/discussion/history', discussionHistory)),
      loadDiscussion: fromPromise(({ input }: { input: { id: string } }) => deps.http.request('GET', `/discussion/${encodeURIComponent(input.id)}`, storedDiscussion)),
      deleteDiscussion: fromPromise(async ({ input }: { input: { id: string } }) => {
        await deps.http.request('DELETE', `/discussion/${encodeURIComponent(input.id)}`, nothing);
      }),
      exportDiscussion: fromPromise(({ input }: { input: ExportRequest }) => exportDiscussionFile(input, deps)),
    },
  });
}
