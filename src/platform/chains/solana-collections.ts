// A collection's fields checked without the Solana SDK: the checks run on every request that makes
// one, and the SDK is loaded only when a transaction is built (solana-compression.ts).

/** Token Metadata's limits (MAX_NAME_LENGTH, MAX_SYMBOL_LENGTH, MAX_URI_LENGTH), in bytes. */
export const COLLECTION_LIMITS = Object.freeze({ name: 32, symbol: 10, uri: 200 });

export function collectionProblems(input: { name: string; symbol: string; uri: string }): string[] {
  const problems: string[] = [];
  for (const field of ["name", "symbol", "uri"] as const) {
    const bytes = new TextEncoder().encode(input[field]).length;
    if (bytes === 0 && field !== "symbol") problems.push(`${field}: must not be empty`);
    if (bytes > COLLECTION_LIMITS[field])
      problems.push(`${field}: at most ${COLLECTION_LIMITS[field]} bytes`);
  }
  return problems;
}
