import { ProviderError } from '../errors';
import { DEFAULT_MAX_LINE_BYTES } from './stream';

// What one model call may send back (README's configuration table: LLM_MAX_REPLY_CHARS, LLM_REPLY_CHARS_PER_TOKEN,
// LLM_MAX_LINE_BYTES): a server that streams without end is stopped at the cap with an error that says so,
// instead of filling memory, the socket and the stored discussion.

export interface ReplyLimits {
  /** Longest reply of any call, in characters. */
  maxReplyChars: number;
  /** A call that asks for N tokens is stopped past N × this many characters (never below MIN_REPLY_CHARS). */
  replyCharsPerToken: number;
  /** Longest stream line (NDJSON line, SSE event) or whole JSON answer, in bytes. */
  maxLineBytes: number;
}

export const DEFAULT_REPLY_LIMITS: ReplyLimits = {
  maxReplyChars: 200_000,
  replyCharsPerToken: 16,
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
};

/** A short answer asked for with few tokens still gets room for its JSON wrapping. */
const MIN_REPLY_CHARS = 2_000;

export function replyCap(limits: ReplyLimits, maxTokens: number | undefined): number {
  if (!maxTokens || maxTokens <= 0) return limits.maxReplyChars;
  return Math.min(limits.maxReplyChars, Math.max(MIN_REPLY_CHARS, Math.ceil(maxTokens * limits.replyCharsPerToken)));
}

/** Collects streamed pieces and throws once they pass the cap (the caller's read then stops the body). */
export function replyCollector(service: string, provider: string, cap: number, onToken?: (piece: string) => void) {
  let content = '';
  return {
    add(piece: string) {
      if (content.length + piece.length > cap) {
        throw new ProviderError(
          `${service} sent a reply longer than ${cap} characters, this server's limit for it (LLM_MAX_REPLY_CHARS, LLM_REPLY_CHARS_PER_TOKEN); the call was stopped`,
          provider,
          'malformed',
        );
      }
      content += piece;
      onToken?.(piece);
    },
    get text() {
      return content;
    },
  };
}

/** What a model list may hold (MODEL_LIST_MAX_MODELS, MODEL_LIST_MAX_NAME_LENGTH, MODEL_LIST_MAX_BYTES). */
export interface ListLimits {
  maxModels: number;
  maxNameLength: number;
  maxBytes: number;
}

export const DEFAULT_LIST_LIMITS: ListLimits = { maxModels: 2_000, maxNameLength: 200, maxBytes: 8 * 1024 * 1024 };

export class ListTooLargeError extends Error {}

/**
 * The names of a list within the limits: a name longer than the limit cannot be used as a model id and is left
 * out; a list of more names than the limit is refused whole (a partial list would hide models without a word).
 */
export function boundedNames(names: string[], limits: ListLimits): string[] {
  if (names.length > limits.maxModels) {
    throw new ListTooLargeError(
      `lists ${names.length} models, more than this server accepts (MODEL_LIST_MAX_MODELS=${limits.maxModels})`,
    );
  }
  return names.filter((n) => n.length > 0 && n.length <= limits.maxNameLength);
}
