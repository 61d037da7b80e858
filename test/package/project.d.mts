/** See project.mjs. */
export declare const ROOT: string;
export declare function pinned(name: string): string;
export declare function pack(directory: string): { tarball: string; files: string[] };
export declare function installProject(directory: string, tarball: string, packages?: string[]): void;
