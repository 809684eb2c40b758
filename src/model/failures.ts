// The one reader of a failed call. The services (src/services/http.ts) reject with an object carrying `status`
// (+ `detail`, `text`) for an HTTP answer and without `status` when the server could not be reached; this module
// only reads that shape, so machines and the message modules (agentFailures, loginFailures) need no service import.

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
export const answered = (f: FailureShape) => typeof f.status === 'number';
