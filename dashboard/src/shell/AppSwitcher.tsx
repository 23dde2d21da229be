import { Select } from "@mantine/core";
import { useNavigate } from "react-router";
import { useApps } from "../pages/apps/queries.ts";

/** Every app the user belongs to, to jump between them; "All apps" goes back to the list. */
export function AppSwitcher({ appId }: { appId: string }) {
  const navigate = useNavigate();
  const apps = useApps();
  const data = [
    ...(apps.data ?? []).map((app) => ({ value: app.id, label: app.name })),
    { value: "", label: "All apps" },
  ];
  return (
    <Select
      aria-label="Switch app"
      size="xs"
      w={{ base: 112, sm: 200 }}
      data={data}
      value={appId}
      allowDeselect={false}
      onChange={(value) => navigate(value ? `/apps/${value}` : "/")}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
