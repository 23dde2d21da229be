/** The app's pages, in the order the navbar shows them; `path` is relative to `/apps/:appId`. */
export interface NavItem {
  label: string;
  path: string;
}

export const appNav: NavItem[] = [
  { label: "Overview", path: "" },
  { label: "Prices", path: "prices" },
  { label: "Payments", path: "payments" },
  { label: "Balances", path: "balances" },
  { label: "Webhooks", path: "webhooks" },
  { label: "Members", path: "members" },
  { label: "API keys", path: "api-keys" },
  { label: "Wallets", path: "wallets" },
  { label: "Triggers", path: "triggers" },
  { label: "Sellers", path: "sellers" },
  { label: "Auctions", path: "auctions" },
  { label: "Solana trees", path: "trees" },
  { label: "Audit log", path: "audit-log" },
  { label: "Settings", path: "settings" },
];
