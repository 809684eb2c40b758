import type { FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A logger whose pino child is made the first time something logs through it, and whose own children are lazy
 * too. Fastify makes a child for every request (its request id bound); pino serialises the bindings as it does, a
 * few percent of a /health answer's CPU (npm run bench server), for a logger most requests never write to.
 *
 * It is the server's `loggerInstance` (lazyLogger below), not a `childLoggerFactory`: Fastify checks every logger a
 * custom factory returns, on every request (seven method lookups and two arrays: 1–2 µs of a /health answer),
 * and trusts the children of its logger's own `child`.
 */
export class LazyLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | null;
  constructor(
    private readonly parent: LazyLogger | null,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
    made: FastifyBaseLogger | null = null,
  ) {
    this.#made = made;
  }

  /** The real logger (made once). */
  get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent!.made.child(this.bindings, childOptions(this.options)));
  }
  get level(): string {
    return this.#made?.level ?? this.options?.level ?? this.parent!.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  // Prototype methods, not arrow fields: a request should allocate one object here, not seven closures. Each
  // forwards its arguments as given (pino reads them by position: merging object, message, interpolations).
  fatal(...args: unknown[]): void {
    this.call('fatal', args);
  }
  error(...args: unknown[]): void {
    this.call('error', args);
  }
  warn(...args: unknown[]): void {
    this.call('warn', args);
  }
  info(...args: unknown[]): void {
    this.call('info', args);
  }
  debug(...args: unknown[]): void {
    this.call('debug', args);
  }
  trace(...args: unknown[]): void {
    this.call('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return new LazyLogger(this, bindings, options);
  }

  private call(level: Level, args: unknown[]): void {
    (this.made[level] as (...a: unknown[]) => void)(...args);
  }
}

/**
 * What pino takes of a child's options. Fastify hands its first child the options it built its logger from, and
 * sets their `logger` back after the call: a lazy child reads them later.
 */
function childOptions(options: ChildOptions): ChildOptions {
  if (!options) return options;
  const {
    logger: _logger,
    genReqId: _genReqId,
    ...rest
  } = options as ChildOptions & { logger?: unknown; genReqId?: unknown };
  return rest;
}

/**
 * The server's logger for Fastify's `loggerInstance`: the pino logger given, wrapped so that every child is lazy.
 * Fastify adds its serializers (res, err) under the ones that logger has (req).
 */
export function lazyLogger(root: Logger): FastifyBaseLogger {
  const logger = new LazyLogger(null, {}, undefined, root as unknown as FastifyBaseLogger);
  // Read by Fastify as it reads pino's own serializers from a pino it is given (pino keeps them under a symbol).
  const serializers = (root as unknown as Record<symbol, unknown>)[pino.symbols.serializersSym];
  Object.defineProperty(logger, 'serializers', { value: serializers });
  return logger;
}
