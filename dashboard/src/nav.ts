/** The app's pages, in the order the navbar shows them; `path` is relative to `/apps/:appId`. */
export interface NavItem {
  label: string;
  path: string;
}

export const appNav: NavItem[] = [
  { label: "Prices", path: "prices" },
  { label: "Payments", path: "payments" },
  { label: "Webhooks", path: "webhooks" },
  { label: "Settings", path: "settings" },
];
