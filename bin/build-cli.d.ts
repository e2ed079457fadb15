/** The current build's folder if every source it was built from is unchanged, else null. */
export function freshBuild(): string | null;
/** Bundles the CLI into a new dist-cli/build-* folder and makes it current; returns the folder. */
export function buildCli(): Promise<string>;
/** The bundled CLI's entry URL, built first when missing or stale; null when it cannot be built. */
export function cliEntry(): Promise<URL | null>;
