import { Button, Group, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { Auction } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { StaleError } from "../../components/errors.ts";
import { FormDialog } from "../../components/FormDialog.tsx";
import { formatMoney } from "../../components/Money.tsx";
import { DANGER } from "../payments/tone.tsx";

/**
 * Rename an auction, and change its starting amount while no one has bid (`PATCH /auctions/{id}`:
 * the API refuses the amount after the first bid, so the field is shown only before it).
 */
function EditAuctionButton({ auction }: { auction: Auction }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState(auction.name);
  const [amount, setAmount] = useState(String(auction.amount));
  const amountEditable = auction.bids.length === 0;
  const save = useMutation({
    mutationFn: () =>
      client.auctions.update(auction.id, {
        ...(name.trim() !== auction.name ? { name: name.trim() } : {}),
        ...(amountEditable && amount.trim() !== String(auction.amount) ? { amount: amount.trim() } : {}),
      }),
    onSuccess: async () => {
      notifications.show({ color: "green", message: "Auction saved" });
      await queryClient.invalidateQueries({ queryKey: ["auctions", appId] });
      close();
    },
  });
  const start = () => {
    setName(auction.name);
    setAmount(String(auction.amount));
    save.reset();
    open();
  };
  return (
    <>
      <Button variant="default" onClick={start}>
        Edit auction
      </Button>
      <FormDialog
        opened={opened}
        title={`Edit ${auction.name}`}
        onSubmit={() => save.mutate()}
        onDismiss={close}
        busy={save.isPending}
        error={save.error}
        label="Save auction"
      >
        <TextInput
          label="Name"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        {amountEditable && (
          <TextInput
            label={`Starting amount (${auction.currency.toUpperCase()})`}
            description="It can change only until the first bid"
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
          />
        )}
      </FormDialog>
    </>
  );
}

/**
 * What an owner does to an auction in daily work: edit it, end it now (the standing bid wins, as
 * at its end time), or delete one nobody has bid on. Ending and deleting are red and name the
 * auction; each reads the auction again first, so a bid that came in meanwhile is said.
 */
export function AuctionActions({
  auction,
  setDeleting,
}: {
  auction: Auction;
  /** Stops the page's stream and polls while the auction is deleted (`useLiveAuction`). */
  setDeleting: (deleting: boolean) => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const end = useMutation({
    mutationFn: () => client.auctions.end(appId, auction.id),
    onSuccess: (ended) => {
      notifications.show({ color: "green", message: `${ended.name} has ended` });
      queryClient.setQueryData(["auctions", appId, auction.id], ended);
      void queryClient.invalidateQueries({ queryKey: ["auctions", appId] });
    },
  });
  const remove = useMutation({
    mutationFn: async () => {
      const fresh = await client.auctions.get(appId, auction.id);
      if (fresh.bids.length > 0) {
        queryClient.setQueryData(["auctions", appId, auction.id], fresh);
        throw new StaleError(
          "Someone has bid on this auction since the page showed it, so it can no longer be deleted. End it instead.",
        );
      }
      setDeleting(true);
      try {
        return await client.auctions.delete(appId, auction.id);
      } catch (error) {
        setDeleting(false);
        throw error;
      }
    },
    onSuccess: async () => {
      notifications.show({ color: "green", message: `${auction.name} deleted` });
      // Gone: its page must not read it again on the way out (a 404 nobody asked for).
      await queryClient.cancelQueries({ queryKey: ["auctions", appId, auction.id] });
      await navigate("..", { relative: "path" });
      queryClient.removeQueries({ queryKey: ["auctions", appId, auction.id] });
      void queryClient.invalidateQueries({ queryKey: ["auctions", appId, "list"] });
    },
  });
  const standing = auction.current_amount;
  return (
    <Group gap="xs" wrap="wrap">
      <EditAuctionButton auction={auction} />
      {!auction.expired && (
        <ConfirmAction
          label="End now"
          title={`End ${auction.name} now?`}
          confirmLabel="End auction"
          dismissLabel="Keep it open"
          color={DANGER}
          onConfirm={() => end.mutateAsync()}
        >
          {standing === null
            ? "Bidding stops now. Nobody has bid, so nothing is charged."
            : `Bidding stops now and the standing bid of ${formatMoney(standing, auction.currency)} wins: its card is charged, as at the end time.`}
        </ConfirmAction>
      )}
      {auction.bids.length === 0 && (
        <ConfirmAction
          label="Delete"
          title={`Delete ${auction.name}?`}
          confirmLabel="Delete auction"
          color={DANGER}
          onConfirm={() => remove.mutateAsync()}
        >
          The auction and its two prices are removed. This cannot be undone.
        </ConfirmAction>
      )}
    </Group>
  );
}
