import { Anchor, Stack, Title } from "@mantine/core";
import { Link, useNavigate } from "react-router";
import { TriggerBuilder } from "./TriggerBuilder.tsx";

/** Creating a trigger; once saved, its page shows the live preview of its call. */
export function NewTriggerPage() {
  const navigate = useNavigate();
  return (
    <Stack gap="lg">
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← All triggers
      </Anchor>
      <Title order={1}>New trigger</Title>
      <TriggerBuilder onSaved={(saved) => navigate(`../${saved.id}`, { relative: "path" })} />
    </Stack>
  );
}
