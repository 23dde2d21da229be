import { eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import type { PageBrand } from "../../platform/pages/brand.ts";
import { apps } from "./tables.ts";

/** Where the app's icon is served, with its version so that a new icon is a new URL; null for none. */
export function iconPath(app: { id: string; iconType: string | null; iconVersion: number }): string | null {
  return app.iconType ? `/apps/${encodeURIComponent(app.id)}/icon?v=${app.iconVersion}` : null;
}

/**
 * How an app shows itself on the hosted pages (checkout, auction, KYC widget, invitation): the
 * name shoppers see, its icon's same-origin path, and its accent colour. The one way another
 * module reads an app's brand, so none of them reads this module's tables. Null for no such app.
 */
export async function appBrand(db: Executor, appId: string): Promise<PageBrand | null> {
  const [row] = await db
    .select({
      id: apps.id,
      name: apps.name,
      displayName: apps.displayName,
      accentColor: apps.accentColor,
      iconType: apps.iconType,
      iconVersion: apps.iconVersion,
    })
    .from(apps)
    .where(eq(apps.id, appId));
  if (!row) return null;
  // A path, not PUBLIC_URL: the page and its icon share an origin, which `img-src 'self'` allows.
  return { name: row.displayName ?? row.name, iconUrl: iconPath(row), accentColor: row.accentColor };
}
