import { z } from 'zod';

// The OpenAI-compatible surface's wire shapes (/v1, docs/integrations.md): the subset of OpenAI's API this server
// answers, in OpenAI's own field names.

/** A saved panel is the model `panel:<name>`. */
export const PANEL_MODEL_PREFIX = 'panel:';

export const modelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() }),
  ),
});

/** The most messages one chat completion may carry, and the most characters of one message's text. */
export const CHAT_MESSAGES_MAX = 200;
export const CHAT_MESSAGE_CHARS_MAX = 20_000;

const textPart = z.object({ type: z.literal('text'), text: z.string().max(CHAT_MESSAGE_CHARS_MAX) });
/** A message's content: a string, or OpenAI's list of parts of which only text is read. */
const messageContent = z.union([
  z.string().max(CHAT_MESSAGE_CHARS_MAX),
  z.array(z.union([textPart, z.looseObject({ type: z.string().max(40) })])).max(100),
  z.null(),
]);

/** POST /v1/chat/completions: the fields this server reads; any other of OpenAI's (temperature, …) is ignored. */
export const chatCompletionRequest = z.looseObject({
  model: z.string().min(1).max(200),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
        content: messageContent.optional(),
      }),
    )
    .min(1, 'messages must hold at least one message')
    .max(CHAT_MESSAGES_MAX, `messages holds at most ${CHAT_MESSAGES_MAX} messages`),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  /** Agora's own: each turn of the discussion as a collapsed reasoning part (`reasoning_content`); off by default. */
  include_turns: z.boolean().nullish(),
  /** Agora's own: at most this many turns (the panel's endpoint bounds it). */
  max_turns: z.number().int().min(1).max(50).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequest>;

const completionUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** Agora's own part of an answer: where the discussion is, what it concluded beyond the words. */
export const agoraAnswerPart = z.object({
  discussion_id: z.string(),
  address: z.string(),
  consensus: z.number().nullable(),
  positions: z.array(z.string()),
  /** True when some of `usage` was estimated (a model's server counted nothing). */
  usage_estimated: z.boolean(),
});

export const chatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string(),
        reasoning_content: z.string().optional(),
      }),
      finish_reason: z.string(),
    }),
  ),
  usage: completionUsage,
  agora: agoraAnswerPart,
});
export type ChatCompletion = z.infer<typeof chatCompletion>;
