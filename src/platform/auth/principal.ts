/**
 * Who is calling: a signed-in user, or an app's API key; `ip` is the client address of the request
 * acting (set per request, for the audit log; absent outside a request).
 */
export type Principal =
  | { kind: "user"; userId: string; sessionId: string; ip?: string }
  | { kind: "api_key"; appId: string; keyId: string; ip?: string };

/** What a member can be in an app; what each may do is `ALLOWED` below. */
export const ROLES = Object.freeze(["owner", "developer"] as const);
export type Role = (typeof ROLES)[number];

export type Action = "view" | "edit" | "delete" | "manage_members";

const ALLOWED: Record<Role, ReadonlySet<Action>> = {
  owner: new Set<Action>(["view", "edit", "delete", "manage_members"]),
  developer: new Set<Action>(["view", "edit"]),
};

export function roleAllows(role: Role, action: Action): boolean {
  return ALLOWED[role].has(action);
}

/** `App.permissions` as the interface names them, for a caller with `role`. */
export function permissionsOf(role: Role) {
  return {
    can_view: roleAllows(role, "view"),
    can_edit: roleAllows(role, "edit"),
    can_delete: roleAllows(role, "delete"),
    can_edit_members: roleAllows(role, "manage_members"),
  };
}

/** Resolves a presented credential (session token or API key) to a principal, or undefined. */
export type Authenticator = (credential: string) => Promise<Principal | undefined>;
