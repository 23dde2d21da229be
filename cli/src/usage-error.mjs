/** A command line that makes no sense: `payments` exits 2 and prints its usage. */
export class UsageError extends Error {}
