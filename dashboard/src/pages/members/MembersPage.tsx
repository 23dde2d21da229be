import { Badge, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { Member } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { FormDialog } from "../../components/FormDialog.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Column, RecordList } from "../../components/RecordList.tsx";
import { useApp } from "../apps/queries.ts";

type Role = Member["role"];
const ROLES = [
  { value: "owner", label: "Owner" },
  { value: "developer", label: "Developer" },
];

function useMembersKey() {
  return ["members", useAppId()] as const;
}

function InviteButton() {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const key = useMembersKey();
  const [opened, { open, close }] = useDisclosure(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("developer");
  const invite = useMutation({
    mutationFn: () => client.members.invite(appId, { email: email.trim(), role }),
    onSuccess: (member) => {
      void queryClient.invalidateQueries({ queryKey: key });
      notifications.show({ color: "green", title: "Invitation sent", message: member.email });
      setEmail("");
      close();
    },
  });
  return (
    <>
      <Button onClick={open}>Invite member</Button>
      <FormDialog
        opened={opened}
        title="Invite a member"
        onSubmit={() => invite.mutate()}
        onDismiss={close}
        busy={invite.isPending}
        error={invite.error}
        label="Send invitation"
      >
        <TextInput
          label="Email address"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <Select
          label="Role"
          data={ROLES}
          value={role}
          allowDeselect={false}
          onChange={(value) => setRole((value ?? "developer") as Role)}
          description="Owners manage the app, its members and its keys; developers build with it"
        />
      </FormDialog>
    </>
  );
}

function nameOf(member: Member): string {
  const user = member.user;
  if (!user) return member.email;
  const full = `${user.first_name} ${user.last_name}`.trim();
  return full || user.username;
}

/** When a pending invitation's link stops working, or that it has: a resend gives it a new week. */
function InvitationExpiry({ expiresAt }: { expiresAt: string }) {
  const expired = Date.parse(expiresAt) <= Date.now();
  return (
    <Text size="xs" c={expired ? "red" : "dimmed"}>
      {expired ? "Expired " : "Expires "}
      <LocalTime value={expiresAt} dateOnly />
    </Text>
  );
}

function MemberName({ member }: { member: Member }) {
  const pending = member.user_id === null;
  return (
    <>
      <Text size="sm" fw={500} style={{ wordBreak: "break-word" }}>
        {nameOf(member)}
      </Text>
      <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
        {pending ? "Invitation sent, not yet accepted" : member.email}
      </Text>
      {pending && member.invite_expires_at && <InvitationExpiry expiresAt={member.invite_expires_at} />}
    </>
  );
}

function MemberRole({ member, canEdit }: { member: Member; canEdit: boolean }) {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const key = useMembersKey();
  const changeRole = useMutation({
    mutationFn: (role: Role) => client.members.update(appId, member.id, { role }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: key });
      notifications.show({ color: "green", title: "Role changed", message: `${saved.email}: ${saved.role}` });
    },
    onError: (error) =>
      notifications.show({ color: "red", title: "Role not changed", message: error.message }),
  });
  if (!canEdit) return <Text size="sm">{member.role}</Text>;
  return (
    <Select
      aria-label={`Role of ${member.email}`}
      size="xs"
      w={112}
      data={ROLES}
      value={member.role}
      allowDeselect={false}
      disabled={changeRole.isPending}
      onChange={(value) => value && value !== member.role && changeRole.mutate(value as Role)}
    />
  );
}

function MemberActions({ member }: { member: Member }) {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const key = useMembersKey();
  const pending = member.user_id === null;
  const remove = useMutation({
    mutationFn: () => client.members.remove(appId, member.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      notifications.show({
        color: "green",
        title: pending ? "Invitation withdrawn" : "Member removed",
        message: member.email,
      });
    },
  });
  const resend = useMutation({
    mutationFn: () => client.members.resendInvitation(appId, member.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: key });
      notifications.show({ color: "green", title: "Invitation sent again", message: member.email });
    },
    onError: (error) =>
      notifications.show({ color: "red", title: "Invitation not sent", message: error.message }),
  });
  return (
    <Group gap="xs" wrap="wrap">
      {pending && (
        <Button
          size="xs"
          variant="default"
          loading={resend.isPending}
          onClick={() => resend.mutate()}
          aria-label={`Resend the invitation to ${member.email}`}
        >
          Resend
        </Button>
      )}
      <ConfirmAction
        size="xs"
        label={pending ? "Withdraw" : "Remove"}
        title={pending ? "Withdraw this invitation?" : "Remove this member?"}
        onConfirm={() => remove.mutateAsync()}
      >
        {pending
          ? `The invitation to ${member.email} stops working.`
          : `${member.email} loses access to this app at once.`}
      </ConfirmAction>
    </Group>
  );
}

function MembersTable({
  members,
  canEdit,
  caption,
}: {
  members: Member[];
  canEdit: boolean;
  caption: string;
}) {
  const columns: Column<Member>[] = [
    { header: "Member", place: "title", cell: (member) => <MemberName member={member} /> },
    { header: "Role", cell: (member) => <MemberRole member={member} canEdit={canEdit} /> },
    { header: "Since", wide: true, cell: (member) => <LocalTime value={member.created_at} dateOnly /> },
  ];
  if (canEdit)
    columns.push({
      header: "Actions",
      place: "actions",
      cell: (member) => <MemberActions member={member} />,
    });
  return (
    <RecordList
      rows={members}
      columns={columns}
      rowKey={(member) => member.id}
      cardLabel={(member) => `${member.user_id === null ? "Invitation" : "Member"} ${member.email}`}
      caption={caption}
      minWidth={320}
    />
  );
}

/** Who can use the app, with which role, and the invitations not yet accepted. */
export function MembersPage() {
  const appId = useAppId();
  const client = useClient();
  const app = useApp(appId);
  const members = useQuery({
    queryKey: ["members", appId],
    queryFn: () => client.members.list(appId, { limit: 100 }).toArray(1000),
  });
  const canEdit = app.data?.permissions.can_edit_members ?? false;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Members</Title>
        {canEdit && <InviteButton />}
      </Group>
      <PageState query={members} empty="No members yet.">
        {(list) => {
          const joined = list.filter((member) => member.user_id !== null);
          const pending = list.filter((member) => member.user_id === null);
          return (
            <Stack gap="xl">
              <MembersTable members={joined} canEdit={canEdit} caption="Members" />
              {pending.length > 0 ? (
                <Stack gap="xs">
                  <Group gap="xs">
                    <Title order={2} size="h4">
                      Pending invitations
                    </Title>
                    <Badge variant="light" color="gray" c="dark">
                      {pending.length}
                    </Badge>
                  </Group>
                  <MembersTable members={pending} canEdit={canEdit} caption="Invited, not yet accepted" />
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  No pending invitations.
                </Text>
              )}
            </Stack>
          );
        }}
      </PageState>
    </Stack>
  );
}
