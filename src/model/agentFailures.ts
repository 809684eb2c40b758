// Turns a rejected agent/audio/connection call into the exact words of part 1 §8. The services reject with
// an object carrying `status` (+ `detail`, `text`) for an HTTP answer and without `status` when the server
// could not be reached; this module only reads that shape, so machines stay free of service imports.
import { AGENT_MESSAGES, AUDIO_MESSAGES, CANVAS_MESSAGES } from '../schemas/messages';

export interface FailureShape {
  status?: number;
  detail?: string;
  text?: string;
  message?: string;
}

export function readFailure(error: unknown): FailureShape {
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    return {
      status: typeof e.status === 'number' ? e.status : undefined,
      detail: typeof e.detail === 'string' && e.detail ? e.detail : undefined,
      text: typeof e.text === 'string' ? e.text : typeof e.statusText === 'string' ? e.statusText : undefined,
      message: typeof e.message === 'string' ? e.message : undefined,
    };
  }
  return { message: typeof error === 'string' ? error : undefined };
}

/** An HTTP answer (as opposed to a request that never reached the server). */
const answered = (f: FailureShape) => typeof f.status === 'number';

export function agentLoadMessage(error: unknown): string {
  const f = readFailure(error);
  let reason: string;
  if (f.status === 404) reason = AGENT_MESSAGES.notFound;
  else if (f.status === 405) reason = AGENT_MESSAGES.getNotImplemented;
  else if (f.status === 401) reason = AGENT_MESSAGES.authFailed;
  else if (answered(f)) reason = AGENT_MESSAGES.fetchFailed(f.status!, f.text ?? f.detail ?? '');
  else reason = f.message ?? 'Network error';
  return AGENT_MESSAGES.loadFailed(reason);
}

export const agentSaveMessage = (error: unknown, mode: 'create' | 'edit') =>
  readFailure(error).detail ?? (mode === 'create' ? AGENT_MESSAGES.createFailed : AGENT_MESSAGES.updateFailed);

export function agentDeleteMessage(error: unknown): string {
  const { detail } = readFailure(error);
  return detail ? AGENT_MESSAGES.deleteFailedDetail(detail) : AGENT_MESSAGES.deleteFailed;
}

/** Part 1 §8 gives each audio call a 'Failed to …' (the server said no) and an 'Error …' (it was not reached). */
const twoWay = (failed: string, errored: string) => (error: unknown) => (answered(readFailure(error)) ? failed : errored);

export function audioUploadMessage(error: unknown): string {
  const f = readFailure(error);
  if (!answered(f)) return AUDIO_MESSAGES.uploadError;
  return f.detail ?? AUDIO_MESSAGES.uploadFailed;
}
export const audioDeleteMessage = twoWay(AUDIO_MESSAGES.deleteFailed, AUDIO_MESSAGES.deleteError);
export const audioSetDefaultMessage = twoWay(AUDIO_MESSAGES.setDefaultFailed, AUDIO_MESSAGES.setDefaultError);
export const batchTranscribeMessage = twoWay(AUDIO_MESSAGES.batchFailed, AUDIO_MESSAGES.batchError);
export const recordingSaveMessage = twoWay(AUDIO_MESSAGES.saveRecordingFailed, AUDIO_MESSAGES.saveRecordingError);

export function transcribeMessage(error: unknown): string {
  const f = readFailure(error);
  if (answered(f)) return AUDIO_MESSAGES.transcriptionFailed(f.detail ?? f.text ?? `HTTP ${f.status}`);
  return AUDIO_MESSAGES.transcribeError(f.message ?? 'network error');
}

export function connectionCreateMessage(error: unknown): string {
  const { detail } = readFailure(error);
  return detail ? CANVAS_MESSAGES.connectionError(detail) : CANVAS_MESSAGES.connectionErrorGeneric;
}

export function autoConnectMessage(error: unknown): string {
  const { detail } = readFailure(error);
  return detail ? CANVAS_MESSAGES.autoConnectFailed(detail) : CANVAS_MESSAGES.autoConnectFailedGeneric;
}

// Not in the spec's catalogue: the canvas says plainly what could not be saved.
export function positionSaveMessage(error: unknown): string {
  const f = readFailure(error);
  return `Could not save the position: ${f.detail ?? (answered(f) ? `HTTP ${f.status}` : f.message ?? 'network error')}`;
}

export function connectionDeleteMessage(error: unknown): string {
  const f = readFailure(error);
  return `Could not delete the connection: ${f.detail ?? (answered(f) ? `HTTP ${f.status}` : f.message ?? 'network error')}`;
}
