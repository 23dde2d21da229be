import { Anchor, Center, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** The frame of the signed-out pages: a centred card with a title and a link to the other page. */
export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer: { text: string; link: string; to: string };
}) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
          <Text size="sm">
            {footer.text}{" "}
            <Anchor component={Link} to={footer.to} underline="always">
              {footer.link}
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
