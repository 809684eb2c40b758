import type { ChatWrapper, Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import type { BuiltinConfig } from './config';

// The llama.cpp runtime behind the built-in provider: one Llama instance (CPU unless BUILTIN_GPU says
// otherwise), and each GGUF file loaded at most once, with one context of `parallel` sequences that the
// agents share. A turn borrows a sequence and gives it back; when none is free it waits. A model no turn
// used for `idleUnloadMs` is disposed, which frees its memory. node-llama-cpp is imported on first use, so
// a server that never runs the built-in engine never loads the native library.

export interface LoadedModel {
  file: string;
  model: LlamaModel;
  context: LlamaContext;
  /** Resolved once per load: letting each chat detect the format costs 250–450 ms a turn. */
  chatWrapper: ChatWrapper;
}

interface Slot {
  loaded: Promise<LoadedModel>;
  busy: number;
  waiters: Array<() => void>;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

export type EngineConfig = Pick<BuiltinConfig, 'threads' | 'contextSize' | 'parallel' | 'idleUnloadMs' | 'gpu'>;

export interface Lease {
  loaded: LoadedModel;
  sequence: LlamaContextSequence;
  /** Gives the sequence back; call once, after the chat using it was disposed. */
  release(): void;
}

export class BuiltinEngine {
  private llama: Promise<Llama> | null = null;
  private slots = new Map<string, Slot>();

  constructor(private readonly config: EngineConfig) {}

  /** The native runtime, loaded once. `build: 'never'`: a missing prebuilt binary fails at once, never compiles. */
  runtime(): Promise<Llama> {
    this.llama ??= import('node-llama-cpp').then(({ getLlama, LlamaLogLevel }) =>
      getLlama({ gpu: this.config.gpu, build: 'never', progressLogs: false, logLevel: LlamaLogLevel.error }),
    );
    this.llama.catch(() => {
      this.llama = null;
    });
    return this.llama;
  }

  /** Files loaded now (their absolute paths). */
  loadedFiles(): string[] {
    return [...this.slots.keys()];
  }

  /** A free sequence of the model in `file`, loading the model first if needed. Waits while all are in use. */
  async acquire(file: string, signal?: AbortSignal): Promise<Lease> {
    let slot = this.slots.get(file);
    if (!slot) {
      slot = { loaded: this.load(file), busy: 0, waiters: [], idleTimer: null };
      this.slots.set(file, slot);
      const s = slot;
      slot.loaded.catch(() => {
        if (this.slots.get(file) === s) this.slots.delete(file);
      });
    }
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.busy++;
    try {
      const loaded = await slot.loaded;
      while (loaded.context.sequencesLeft === 0) await this.waitForSequence(slot, signal);
      signal?.throwIfAborted();
      const sequence = loaded.context.getSequence();
      let released = false;
      return {
        loaded,
        sequence,
        release: () => {
          if (released) return;
          released = true;
          this.done(file, slot);
        },
      };
    } catch (e) {
      this.done(file, slot);
      throw e;
    }
  }

  /** Disposes one model now (or every model), whether or not turns are waiting for it. */
  async unload(file?: string): Promise<void> {
    const files = file ? [file] : [...this.slots.keys()];
    await Promise.all(files.map((f) => this.dispose(f)));
  }

  private async load(file: string): Promise<LoadedModel> {
    const llama = await this.runtime();
    const { resolveChatWrapper, GeneralChatWrapper } = await import('node-llama-cpp');
    const model = await llama.loadModel({ modelPath: file });
    try {
      const trained = model.trainContextSize;
      const context = await model.createContext({
        sequences: this.config.parallel,
        contextSize: Math.min(this.config.contextSize, trained > 0 ? trained : this.config.contextSize),
        ...(this.config.threads ? { threads: this.config.threads } : {}),
      });
      const chatWrapper = resolveChatWrapper(model) ?? new GeneralChatWrapper();
      return { file, model, context, chatWrapper };
    } catch (e) {
      await model.dispose();
      throw e;
    }
  }

  private waitForSequence(slot: Slot, signal?: AbortSignal) {
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        slot.waiters = slot.waiters.filter((w) => w !== wake);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      slot.waiters.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private done(file: string, slot: Slot) {
    slot.busy = Math.max(0, slot.busy - 1);
    slot.waiters.shift()?.();
    if (slot.busy === 0 && this.config.idleUnloadMs > 0 && this.slots.get(file) === slot) {
      slot.idleTimer = setTimeout(() => void this.dispose(file), this.config.idleUnloadMs);
      slot.idleTimer.unref?.();
    }
  }

  private async dispose(file: string) {
    const slot = this.slots.get(file);
    if (!slot) return;
    this.slots.delete(file);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    for (const wake of slot.waiters.splice(0)) wake();
    try {
      const loaded = await slot.loaded;
      await loaded.context.dispose();
      await loaded.model.dispose();
    } catch {
      /* it never loaded: nothing to free */
    }
  }
}
