import { BUILTIN_TOOL_SERVER, BUILTIN_TOOLS, type BuiltinToolName, toolIdOf } from '../../../src/schemas/tools';
import type { AppContext } from '../../context';
import { allPapers } from '../../providers/research';
import { queryOf, searchPassages } from '../../sources/search';
import type { OfferedTool, ReadyTool, ToolOutput } from '../types';
import { CALCULATOR_MAX_CHARS, CalculatorError, calculate } from './calculator';

// The server's own tools (docs/tools.md#built-in-tools), listed like an MCP server's tools: the calculator, the
// search over the discussion's sources (server/sources/search.ts) and the paper search of the research providers.
// Each reads its arguments as untrusted (a model wrote them) and bounds them.

/** What a built-in needs of the turn it runs in. */
export interface BuiltinEnv {
  ctx: AppContext;
  userId: string;
  /** The sources the discussion and the agent may read. */
  sourceIds: readonly string[];
}

const QUERY_MAX = 500;
const SOURCE_HITS = 5;
const PAPER_HITS = 5;

const stringArg = (args: Record<string, unknown>, key: string, max: number): string => {
  const v = args[key];
  if (typeof v !== 'string' || !v.trim()) throw new CalculatorError(`"${key}" must be a non-empty string`);
  return v.slice(0, max);
};

const calculatorRun = async (args: Record<string, unknown>): Promise<ToolOutput> => ({
  content: calculate(stringArg(args, 'expression', CALCULATOR_MAX_CHARS + 1)),
});

const SCHEMAS: Record<BuiltinToolName, Record<string, unknown>> = {
  calculator: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        maxLength: CALCULATOR_MAX_CHARS,
        description: 'The arithmetic to do, e.g. "(12.5 + 7) * 3" or "2^10 / 3".',
      },
    },
    required: ['expression'],
  },
  search_sources: {
    type: 'object',
    properties: { query: { type: 'string', maxLength: QUERY_MAX, description: 'What to look for.' } },
    required: ['query'],
  },
  search_papers: {
    type: 'object',
    properties: { query: { type: 'string', maxLength: QUERY_MAX, description: 'The papers to look for.' } },
    required: ['query'],
  },
};

const RUN: Record<
  BuiltinToolName,
  (args: Record<string, unknown>, env: BuiltinEnv, signal: AbortSignal) => Promise<ToolOutput>
> = {
  calculator: async (args) => calculatorRun(args),
  search_sources: async (args, env) => {
    const query = stringArg(args, 'query', QUERY_MAX);
    if (!env.sourceIds.length) return { content: 'This discussion has no sources to search.' };
    const found = await searchPassages(env.ctx.db, env.userId, env.sourceIds, queryOf([query]), SOURCE_HITS);
    if (!found.length) return { content: `No passage of the sources matches "${query}".` };
    return {
      content: found
        .map((p) => `${p.source_name}${p.page ? `, p. ${p.page}` : ''}: ${p.text.replace(/\s+/g, ' ').trim()}`)
        .join('\n\n'),
    };
  },
  search_papers: async (args, env, signal) => {
    const query = stringArg(args, 'query', QUERY_MAX);
    const service = env.ctx.providers.research;
    if (!service?.enabled) return { content: 'Paper search is switched off on this server.', isError: true };
    const out = await service.search({ query, maxResults: PAPER_HITS }, signal);
    if (!out.available) return { content: out.detail ?? 'No research service answered.', isError: true };
    const papers = allPapers(out).slice(0, PAPER_HITS);
    if (!papers.length) return { content: `No papers found for "${query}".` };
    return {
      content: papers
        .map((p) => {
          const authors = Array.isArray(p.authors) ? p.authors.slice(0, 3).join(', ') : p.authors;
          const abs = p.abstract ? ` — ${p.abstract.replace(/\s+/g, ' ').slice(0, 400)}` : '';
          return `${p.title}${authors ? ` (${authors})` : ''}${p.url ? ` ${p.url}` : ''}${abs}`;
        })
        .join('\n\n'),
    };
  },
};

/** The built-ins as a catalog lists them and a model is offered them. */
export const builtinTools: OfferedTool[] = BUILTIN_TOOLS.map((t) => ({
  id: toolIdOf(BUILTIN_TOOL_SERVER, t.name),
  server: BUILTIN_TOOL_SERVER,
  name: t.name,
  description: t.description,
  inputSchema: SCHEMAS[t.name],
}));

/** A built-in ready to run: a bad argument comes back as an error the model reads, never a throw. */
const ready = (t: OfferedTool, run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolOutput>) => ({
  ...t,
  run: async (args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput> => {
    try {
      return await run(args, signal);
    } catch (e) {
      if (e instanceof CalculatorError) return { content: `Error: ${e.message}`, isError: true };
      throw e;
    }
  },
});

/** The built-ins ready to run in one turn. */
export function readyBuiltins(env: BuiltinEnv): ReadyTool[] {
  return builtinTools.map((t) => ready(t, (args, signal) => RUN[t.name as BuiltinToolName](args, env, signal)));
}

/** The calculator alone, which needs nothing of a discussion (the evaluation's 'with tools'). */
export const readyCalculator = (): ReadyTool =>
  ready(builtinTools.find((t) => t.name === 'calculator')!, (args) => calculatorRun(args));
