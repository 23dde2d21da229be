import { Anchor, AppShell, Badge, Box, Burger, Button, Group, NavLink, Text, Tooltip } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Link, Outlet, NavLink as RouterNavLink, useLocation, useNavigate } from "react-router";
import { useServiceSettings, useSession } from "../api.tsx";
import { ConnectionBanner } from "../components/connection.tsx";
import { appNav } from "../nav.ts";
import { AppSwitcher } from "./AppSwitcher.tsx";

/** Sandbox mode, said plainly on every page: nothing real is charged or sent on chain. */
function TestModeBadge() {
  const settings = useServiceSettings();
  if (settings.data?.mode !== "test") return null;
  return (
    <Tooltip label="Sandbox providers and test chains: nothing real is charged or sent" withArrow>
      <Badge color="orange" variant="filled" c="black" style={{ flexShrink: 0 }}>
        Test mode
      </Badge>
    </Tooltip>
  );
}

/**
 * In sandbox mode every mail the service sends (invitations, verification, receipts) lands in its
 * own inbox page instead of leaving the machine: the console links there.
 */
function SandboxInboxLink() {
  const settings = useServiceSettings();
  if (settings.data?.mode !== "test") return null;
  return (
    <Anchor href="/sandbox/mail/inbox" target="_blank" size="sm" underline="always" visibleFrom="sm">
      Sandbox inbox
    </Anchor>
  );
}

/** The header (brand, test-mode badge, app switcher, sign-out) and, inside an app, its navbar. */
export function Shell({ appId }: { appId?: string }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const brand = useServiceSettings().data?.name ?? "Console";
  const signOutAndLeave = async () => {
    await signOut();
    navigate("/sign-in");
  };
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={appId ? { width: 220, breakpoint: "sm", collapsed: { mobile: !opened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {appId && <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />}
            <Text component={Link} to="/" fw={700} c="brand.7" td="none" visibleFrom="xs">
              {brand}
            </Text>
            <TestModeBadge />
            <SandboxInboxLink />
          </Group>
          <Group gap="sm" wrap="nowrap">
            {appId && <AppSwitcher appId={appId} />}
            <Text size="sm" c="dimmed" visibleFrom="md">
              {session?.email}
            </Text>
            {/* On a phone inside an app the header has no room for them: they are in the menu. */}
            <Button
              component={Link}
              to="/account"
              variant="subtle"
              size="xs"
              visibleFrom={appId ? "xs" : undefined}
            >
              Account
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => void signOutAndLeave()}
              visibleFrom={appId ? "xs" : undefined}
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      {appId && (
        <AppShell.Navbar p="xs" aria-label="App pages">
          {appNav.map((item) => {
            const to = `/apps/${appId}${item.path ? `/${item.path}` : ""}`;
            return (
              <NavLink
                key={item.path}
                component={RouterNavLink}
                to={to}
                end={item.path === ""}
                label={item.label}
                active={item.path === "" ? location.pathname.endsWith(`/apps/${appId}`) : undefined}
                onClick={close}
              />
            );
          })}
          <Box hiddenFrom="xs" mt="md">
            <NavLink component={RouterNavLink} to="/account" label="Account" onClick={close} />
            <NavLink component="button" label="Sign out" onClick={() => void signOutAndLeave()} />
          </Box>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <ConnectionBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
