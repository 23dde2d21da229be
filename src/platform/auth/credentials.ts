/** A credential read from the header, or why the header was refused. */
export type CredentialReading = { credential: string } | { refused: string };

/**
 * Reads the credential from an `authorization` header in either form the interface names:
 * `Bearer <credential>`, or HTTP Basic with the API key as user name and an empty password.
 * A Basic password is refused rather than ignored: `key:anything` must not look like a second
 * secret that is checked. Answers undefined when no credential was sent.
 */
export function readCredential(header: string | undefined): CredentialReading | undefined {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space < 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (!value) return undefined;
  if (scheme === "bearer") return { credential: value };
  if (scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    if (colon >= 0 && decoded.slice(colon + 1) !== "") {
      return { refused: "HTTP Basic takes the API key as user name and an empty password" };
    }
    return user ? { credential: user } : undefined;
  }
  return undefined;
}
