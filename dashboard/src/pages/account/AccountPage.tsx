import {
  Alert,
  Button,
  Code,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { QRCodeSVG } from "qrcode.react";
import { type FormEvent, useState } from "react";
import { useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { ErrorAlert, PageState } from "../../components/PageState.tsx";

const field = (event: FormEvent<HTMLFormElement>, name: string) =>
  String(new FormData(event.currentTarget).get(name) ?? "");

function PasswordSection() {
  const client = useClient();
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      client.users.changePassword(body),
    onSuccess: () =>
      notifications.show({
        color: "green",
        title: "Password changed",
        message: "Your other sessions have ended.",
      }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    change.mutate(
      { current_password: field(event, "current"), new_password: field(event, "next") },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <Stack component="section" aria-labelledby="password-heading">
      <Title order={2} size="h3" id="password-heading">
        Password
      </Title>
      <form onSubmit={submit}>
        <Stack maw={360}>
          {change.isError && <ErrorAlert error={change.error} />}
          <PasswordInput label="Current password" name="current" autoComplete="current-password" required />
          <PasswordInput
            label="New password"
            name="next"
            minLength={12}
            autoComplete="new-password"
            required
          />
          <Button type="submit" loading={change.isPending}>
            Change the password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

function RecoveryCodesList({ codes }: { codes: string[] }) {
  return (
    <Alert
      color="yellow"
      title="Your recovery codes"
      styles={{ title: { color: "var(--mantine-color-text)" } }}
    >
      <Text size="sm">
        Keep them somewhere safe: each one signs you in once without the app. They are shown only now.
      </Text>
      <SimpleGrid cols={2} mt="xs" aria-label="Recovery codes">
        {codes.map((code) => (
          <Code key={code}>{code}</Code>
        ))}
      </SimpleGrid>
    </Alert>
  );
}

function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["me"] });
  const begin = useMutation({ mutationFn: () => client.users.beginTwoFactor(), onSuccess: setSetup });
  const enable = useMutation({
    mutationFn: (code: string) => client.users.enableTwoFactor({ code }),
    onSuccess: (answer) => {
      setSetup(null);
      setCodes(answer.recovery_codes);
      refresh();
    },
  });
  const disable = useMutation({
    mutationFn: (body: { current_password: string; code: string }) => client.users.disableTwoFactor(body),
    onSuccess: () => {
      setCodes(null);
      refresh();
    },
  });
  const renew = useMutation({
    mutationFn: (body: { current_password: string; code: string }) =>
      client.users.regenerateRecoveryCodes(body),
    onSuccess: (answer) => setCodes(answer.recovery_codes),
  });
  const proven = (event: FormEvent<HTMLFormElement>) => ({
    current_password: field(event, "password"),
    code: field(event, "code").trim(),
  });
  return (
    <Stack component="section" aria-labelledby="two-factor-heading">
      <Title order={2} size="h3" id="two-factor-heading">
        Two-factor log-in
      </Title>
      {codes && <RecoveryCodesList codes={codes} />}
      {!enabled && !setup && (
        <Group>
          <Text size="sm">Off. With it on, signing in also asks for a code from an authenticator app.</Text>
          <Button loading={begin.isPending} onClick={() => begin.mutate()}>
            Set up two-factor
          </Button>
        </Group>
      )}
      {begin.isError && <ErrorAlert error={begin.error} />}
      {!enabled && setup && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            enable.mutate(field(event, "code").trim());
          }}
        >
          <Stack maw={360}>
            <Text size="sm">Scan this code with your authenticator app, then enter the code it shows.</Text>
            <QRCodeSVG value={setup.otpauth_url} size={180} title="Two-factor QR code" marginSize={2} />
            <Text size="xs">
              Or type the key: <Code>{setup.secret}</Code>
            </Text>
            {enable.isError && <ErrorAlert error={enable.error} />}
            <TextInput label="Code from the app" name="code" autoComplete="one-time-code" required />
            <Button type="submit" loading={enable.isPending}>
              Turn on
            </Button>
          </Stack>
        </form>
      )}
      {enabled && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            (submitter?.value === "renew" ? renew : disable).mutate(proven(event));
          }}
        >
          <Stack maw={360}>
            <Text size="sm">
              On. To turn it off or get new recovery codes, confirm with your password and a code.
            </Text>
            {disable.isError && <ErrorAlert error={disable.error} />}
            {renew.isError && <ErrorAlert error={renew.error} />}
            <PasswordInput label="Password" name="password" autoComplete="current-password" required />
            <TextInput label="Code or recovery code" name="code" autoComplete="one-time-code" required />
            <Group>
              <Button type="submit" value="renew" variant="default" loading={renew.isPending}>
                New recovery codes
              </Button>
              <Button type="submit" value="disable" color="red" loading={disable.isPending}>
                Turn off
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function SessionsSection() {
  const client = useClient();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: ["sessions"],
    queryFn: () => client.users.listSessions({ limit: 100 }).toArray(100),
  });
  const end = useMutation({
    mutationFn: (id: string) => client.users.endSession(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["sessions"] }),
  });
  return (
    <Stack component="section" aria-labelledby="sessions-heading">
      <Title order={2} size="h3" id="sessions-heading">
        Sessions
      </Title>
      <PageState query={sessions}>
        {(rows) => (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Device</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Signed in</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: "break-word" }}>
                        {row.user_agent ?? "Unknown client"}
                      </Text>
                    </Table.Td>
                    <Table.Td>{row.ip ?? "—"}</Table.Td>
                    <Table.Td>
                      <LocalTime value={row.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <LocalTime value={row.last_used_at} />
                    </Table.Td>
                    <Table.Td>
                      {row.current ? (
                        <Text size="xs" c="dimmed">
                          This session
                        </Text>
                      ) : (
                        <Button
                          size="xs"
                          variant="default"
                          loading={end.isPending && end.variables === row.id}
                          onClick={() => end.mutate(row.id)}
                          aria-label={`End the session from ${row.user_agent ?? "an unknown client"}`}
                        >
                          End
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PageState>
    </Stack>
  );
}

/** The signed-in person's own settings: password, two-factor, sessions. */
export default function AccountPage() {
  const client = useClient();
  const me = useQuery({ queryKey: ["me"], queryFn: () => client.users.me() });
  return (
    <Stack p="md" gap="xl" component="main">
      <Title order={1}>Account settings</Title>
      <PageState query={me}>
        {(user) => (
          <>
            <Text size="sm">
              {user.email} ·{" "}
              {user.email_verified ? "address verified" : "address not verified yet: open the link we mailed"}
            </Text>
            <PasswordSection />
            <TwoFactorSection enabled={user.two_factor_enabled} />
          </>
        )}
      </PageState>
      <SessionsSection />
    </Stack>
  );
}
