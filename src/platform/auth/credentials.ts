/**
 * Reads the credential from an `authorization` header in either form the interface names:
 * `Bearer <credential>`, or HTTP Basic with the API key as user name and an empty password.
 */
export function readCredential(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (!value) return undefined;
  if (scheme === "bearer") return value;
  if (scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    return user || undefined;
  }
  return undefined;
}
