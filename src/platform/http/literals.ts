import { type TLiteral, type TSchemaOptions, type TUnion, Type } from "typebox";

type LiteralsOf<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * The schema of one value of a frozen list (statuses, chains, roles...): a union of its literals,
 * in the list's order, so the tables, the services and the request and response schemas all
 * follow the one list. A mapped array alone would type every value as `never`.
 */
export function oneOf<const T extends readonly string[]>(
  list: T,
  options?: TSchemaOptions,
): TUnion<LiteralsOf<T>> {
  return Type.Union(
    list.map((value) => Type.Literal(value)),
    options,
  ) as TUnion<LiteralsOf<T>>;
}
