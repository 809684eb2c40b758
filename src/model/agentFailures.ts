// Turns a rejected agent/audio/connection call into the exact words of docs/product.md#workspace-errors (read by
// failures.ts).
import { AGENT_MESSAGES, AUDIO_MESSAGES, CANVAS_MESSAGES, HTTP_MESSAGES } from '../schemas/messages';
import { answered, readFailure } from './failures';

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

/** The reference-audio list could not be read: the server's detail, else 'HTTP {status}: {text}', else unreachable. */
export function audioListMessage(error: unknown): string {
  const f = readFailure(error);
  if (f.detail) return f.detail;
  return answered(f) ? HTTP_MESSAGES.status(f.status!, f.text ?? '') : HTTP_MESSAGES.network;
}

/**
 * docs/product.md#workspace-errors gives each audio call a 'Failed to …' (the server said no) and an 'Error …' (it was
 * not reached).
 */
const twoWay = (failed: string, errored: string) => (error: unknown) =>
  answered(readFailure(error)) ? failed : errored;

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
  return `Could not save the position: ${f.detail ?? (answered(f) ? `HTTP ${f.status}` : (f.message ?? 'network error'))}`;
}

export function connectionDeleteMessage(error: unknown): string {
  const f = readFailure(error);
  return `Could not delete the connection: ${f.detail ?? (answered(f) ? `HTTP ${f.status}` : (f.message ?? 'network error'))}`;
}
