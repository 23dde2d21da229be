import { type TString, Type } from "typebox";

/**
 * Path parameters most routes share, so a route file names its ids instead of repeating
 * `Type.Object({ app_id: ..., x_id: ... })`. Each id is at most 64 characters: longer cannot be one
 * of ours, and the 400 names the parameter rather than reaching the database.
 */

/** One id in the path, described for the document. */
export const IdParam = (description: string) => Type.String({ maxLength: 64, description });

/** `/…/:app_id`: routes on one app. */
export const AppParams = Type.Object({ app_id: IdParam("The app's id") });

/** `/…/:app_id/…/:<name>`: one record of an app, e.g. `AppAndIdParams("price_id", "The price's id")`. */
export function AppAndIdParams<K extends string>(name: K, description: string) {
  const properties = { app_id: IdParam("The app's id"), [name]: IdParam(description) };
  return Type.Object(properties as { app_id: TString } & { [P in K]: TString });
}

/** `/…/:<name>`: one record reached without its app (public pages, by a token or a public id). */
export function IdParams<K extends string>(name: K, description: string) {
  return Type.Object({ [name]: IdParam(description) } as { [P in K]: TString });
}
