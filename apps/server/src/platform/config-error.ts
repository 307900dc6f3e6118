/** A bad environment: its message names every bad variable (main.ts prints it and exits). */
export class ConfigError extends Error {}
