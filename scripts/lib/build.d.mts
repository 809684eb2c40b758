export declare const ROOT: string;
export declare function localBin(pkg: string, name?: string): string;
export declare function tsxLoader(): string;
export declare function buildReason(root?: string): string | null;
export declare function runBuild(opts?: { quiet?: boolean }): Promise<void>;
export declare function buildIfNeeded(opts?: { quiet?: boolean }): Promise<string | null>;
