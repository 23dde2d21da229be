import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { AppError, invalid, notFound } from "../../platform/http/errors.ts";
import { requireAppRole } from "./access.ts";
import { getApp } from "./service.ts";
import { appIcons, apps } from "./tables.ts";

/**
 * An app's icon: uploaded, never fetched from a URL (the service makes no outside request for it,
 * and the pages' policies keep `img-src 'self'`), kept in the database, and served only as one of
 * three raster types whose first bytes say so. SVG is refused: it is a document that can carry
 * script (docs/decisions.md, Hosted pages with the merchant's face).
 */

/** The largest icon, in bytes: ample for a 512 px logo, small enough to read into memory. */
export const ICON_MAX_BYTES = 256 * 1024;

export const ICON_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type IconType = (typeof ICON_TYPES)[number];

const NAMES: Record<IconType, string> = { "image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP" };

/** The type the bytes themselves announce (their signature), or null for anything else. */
export function sniffImage(bytes: Uint8Array): IconType | null {
  const starts = (offset: number, signature: number[]) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF, four bytes of length, then WEBP.
  if (starts(0, [0x52, 0x49, 0x46, 0x46]) && starts(8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
  return null;
}

/** The declared media type without its parameters, in lower case. */
const mediaType = (header: string | undefined) => (header ?? "").split(";")[0]!.trim().toLowerCase();

/** Checks an upload: its declared type, its size, and that its bytes are what it claims. */
function checkedIcon(contentType: string | undefined, body: unknown): { type: IconType; bytes: Buffer } {
  const declared = mediaType(contentType);
  if (!(ICON_TYPES as readonly string[]).includes(declared)) {
    const message =
      declared === "image/svg+xml"
        ? "SVG is not accepted (an SVG file can carry script): send a PNG, JPEG or WebP image"
        : "must be image/png, image/jpeg or image/webp";
    throw new AppError("unsupported_media_type", `/headers/content-type: ${message}`, {
      errors: [{ path: "/headers/content-type", message }],
    });
  }
  if (!Buffer.isBuffer(body) || body.length === 0)
    throw invalid("/body", "send the image's bytes as the body");
  if (body.length > ICON_MAX_BYTES) {
    const message = `is ${body.length} bytes; an icon is at most ${ICON_MAX_BYTES} bytes (256 KB)`;
    throw new AppError("payload_too_large", `/body: ${message}`, { errors: [{ path: "/body", message }] });
  }
  const type = declared as IconType;
  if (sniffImage(body) !== type)
    throw invalid("/body", `is not a ${NAMES[type]} image (its first bytes say otherwise)`);
  return { type, bytes: body };
}

/** `PUT /apps/{app_id}/icon`: replaces the app's icon; answers the App with its new `icon_url`. */
export async function setIcon(
  deps: Deps,
  actor: Principal,
  appId: string,
  contentType: string | undefined,
  body: unknown,
) {
  // The role first: another app's caller learns nothing, whatever they sent.
  await requireAppRole(deps.db, actor, appId, "edit");
  const icon = checkedIcon(contentType, body);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(apps)
      .set({ iconType: icon.type, iconVersion: sql`${apps.iconVersion} + 1`, updatedAt: deps.now() })
      .where(eq(apps.id, appId));
    await tx
      .insert(appIcons)
      .values({ appId, content: icon.bytes, createdAt: deps.now() })
      .onConflictDoUpdate({ target: appIcons.appId, set: { content: icon.bytes, createdAt: deps.now() } });
    await recordAudit(tx, actor, { appId, action: "app.update", targetId: appId });
  });
  return getApp(deps, actor, appId);
}

/** `DELETE /apps/{app_id}/icon`: the pages show the name alone again. Deleting no icon is no change. */
export async function deleteIcon(deps: Deps, actor: Principal, appId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    const removed = await tx
      .delete(appIcons)
      .where(eq(appIcons.appId, appId))
      .returning({ id: appIcons.appId });
    if (removed.length === 0) return;
    await tx
      .update(apps)
      .set({ iconType: null, iconVersion: sql`${apps.iconVersion} + 1`, updatedAt: deps.now() })
      .where(eq(apps.id, appId));
    await recordAudit(tx, actor, { appId, action: "app.update", targetId: appId });
  });
}

/** `GET /apps/{app_id}/icon` (public): the bytes, their type and the version they are. */
export async function readIcon(deps: Deps, appId: string) {
  const [row] = await deps.db
    .select({ content: appIcons.content, type: apps.iconType, version: apps.iconVersion })
    .from(appIcons)
    .innerJoin(apps, eq(apps.id, appIcons.appId))
    .where(eq(appIcons.appId, appId));
  if (!row?.type) throw notFound("Icon");
  return { content: row.content, type: row.type as IconType, version: row.version };
}
