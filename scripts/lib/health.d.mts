export declare function publicUrl(host: string | undefined, port: number): string;
export declare function probeUrl(host: string | undefined, port: number): string;
export declare function waitForHealth(
  base: string,
  opts?: { timeoutMs?: number; intervalMs?: number; accept?: number[]; alive?: () => boolean },
): Promise<number>;
