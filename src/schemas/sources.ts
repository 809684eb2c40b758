import { z } from 'zod';
import { text } from './common';

// Sources (docs/sources.md): documents a person adds for agents to read, their passages, and the citations a
// turn carries. Shared by the SPA and the server (routes, frames).

export const SOURCE_KINDS = ['pdf', 'docx', 'markdown', 'text', 'html'] as const;
export const sourceKind = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKind>;

/** A source is stored only once it has been read whole: a file that cannot be read is refused, never kept. */
export const sourceStatus = z.enum(['ready']);

/**
 * Embedding a source with the person's embedding model (docs/sources.md#searched-by-words-and-meaning): 'none' (no
 * model chosen, or no pgvector), 'embedding' (in the background), 'ready', or 'failed' (searched by words).
 */
export const sourceEmbedding = z.enum(['none', 'embedding', 'ready', 'failed']);
/** How a turn's question finds a source's passages. */
export const sourceSearchedBy = z.enum(['words', 'words_and_meaning']);

export const source = z.object({
  id: z.string(),
  name: z.string(),
  kind: sourceKind,
  /** Pages for a PDF; 1 for a document without pages. */
  pages: z.number().int().nonnegative(),
  passages: z.number().int().nonnegative(),
  status: sourceStatus,
  /** The page address it was read from (a web page), else null. */
  url: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  created_at: z.string(),
  // Always sent by this server; optional so a client's own drafts and older fixtures need not say ('words').
  searched_by: sourceSearchedBy.optional(),
  embedding: sourceEmbedding.optional(),
  /** Why it is searched by words only when embedding it failed, in a sentence the list shows. */
  embedding_note: z.string().nullable().optional(),
});
export type Source = z.infer<typeof source>;
export const sourceList = z.array(source);

export const passage = z.object({
  id: z.string(),
  source_id: z.string(),
  /** The page it starts on (PDF); null for a document without pages. */
  page: z.number().int().positive().nullable(),
  heading: z.string().nullable(),
  text: z.string(),
});
export type Passage = z.infer<typeof passage>;

export const passagePage = z.object({
  items: z.array(passage),
  total: z.number().int().nonnegative(),
  /** The offset of the next page, or null at the end. */
  next_offset: z.number().int().nonnegative().nullable(),
});

export const passagePageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** GET/PUT /sources/embedding: the model a person's passages are embedded with, or none (words only). */
export const embeddingChoice = z.object({
  /** A model id ('@<connection>/<model>') of an Ollama or OpenAI-compatible connection, or null. */
  model: text().max(300).nullable(),
});
export const embeddingCandidate = z.object({ id: z.string(), label: z.string() });
export const embeddingSettings = z.object({
  model: z.string().nullable(),
  /** 'Local Ollama · nomic-embed-text', or null. */
  label: z.string().nullable(),
  dimensions: z.number().int().positive().nullable(),
  /** Whether this server can keep vectors (pgvector): without it every source is searched by words. */
  available: z.boolean(),
  /** Models of the person's connections whose names say they embed (nomic-embed-text, text-embedding-3-small…). */
  candidates: z.array(embeddingCandidate),
});
export type EmbeddingSettings = z.infer<typeof embeddingSettings>;

/** POST /sources with a JSON body: a web page to read. */
export const sourceFromUrl = z.object({ url: text().trim().min(1).max(2_000) });

/** At most this many sources in one discussion's configuration, or on one agent. */
export const MAX_SOURCE_IDS = 50;
export const sourceIds = z.array(text().min(1).max(100)).max(MAX_SOURCE_IDS);

/**
 * The person's sources a running discussion reads from its next turn on (either panel's socket): only the
 * person's own; the discussion keeps at most MAX_SOURCE_IDS (docs/sources.md#added-during-a-run).
 */
export const sourcesAddMessage = z.object({
  type: z.literal('sources_add'),
  source_ids: sourceIds.min(1),
});
export type SourcesAddMessage = z.infer<typeof sourcesAddMessage>;

/**
 * A passage label a turn used ('S1'). `verified`: the label names a passage the agent was given (its source,
 * passage and page filled, `quote` the passage's sentence closest to the claim); otherwise the label is kept as
 * the model wrote it and nothing is filled.
 */
export const citation = z.object({
  label: z.string().max(8),
  source_id: z.string().nullable(),
  source_name: z.string().nullable(),
  passage_id: z.string().nullable(),
  page: z.number().int().positive().nullable(),
  quote: z.string(),
  verified: z.boolean(),
});
export type Citation = z.infer<typeof citation>;
export const citations = z.array(citation).max(20);

/** On a turn's final frame (agent_message, text, argument): the passages it cites, when it cites any. */
export const turnCitationFields = { citations: citations.optional() };
