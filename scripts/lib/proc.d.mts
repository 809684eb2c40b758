import type { ChildProcess } from 'node:child_process';
export declare function freePort(host?: string): Promise<number>;
export declare function exited(child: ChildProcess): boolean;
export declare function waitExit(child: ChildProcess, ms: number): Promise<boolean>;
export declare function stopProcess(
  child: ChildProcess | undefined,
  opts?: { graceMs?: number; onForce?: () => void },
): Promise<void>;
